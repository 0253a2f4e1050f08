package config

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// topKeys are the keys of a config file, in the order the docs list them.
var topKeys = []string{"failOn", "rules", "systemTaints", "nodes", "pools", "kubernetesVersion", "charts", "featureGates", "exclude", "policies"}

var (
	poolKeys        = []string{"name", "count", "labels", "taints", "allocatable", "owners"}
	taintKeys       = []string{"key", "value", "effect"}
	ownerKeys       = []string{"namespaces", "selector"}
	selectorKeys    = []string{"matchLabels", "matchExpressions"}
	requirementKeys = []string{"key", "operator", "values"}
)

// decoder walks the YAML nodes of a config file into a Config, collecting a
// positioned error for every problem rather than stopping at the first.
type decoder struct {
	cfg  *Config
	errs Errors
}

// pair is one entry of a mapping: key is the node written as key (for its
// position), name its string, value the resolved value node.
type pair struct {
	key   *yaml.Node
	name  string
	value *yaml.Node
}

func (d *decoder) errorf(n *yaml.Node, path []any, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if p := manifest.FormatPath(path); p != "" {
		msg = p + ": " + msg
	}
	d.errs = append(d.errs, &manifest.Error{Pos: d.at(n), Message: msg})
}

// errorAt reports a problem of the field at path where it is written (it
// was recorded while decoding).
func (d *decoder) errorAt(path []any, format string, args ...any) {
	d.errs = append(d.errs, d.cfg.Errorf(path, format, args...))
}

// record remembers where the field at path is written, for Config.Pos.
func (d *decoder) record(path []any, n *yaml.Node) {
	d.cfg.pos[manifest.FormatPath(path)] = d.at(n)
}

// at is where node n of the file is written.
func (d *decoder) at(n *yaml.Node) manifest.Pos {
	return manifest.Pos{File: d.cfg.name, Line: max(n.Line, 1), Column: max(n.Column, 1)}
}

func (d *decoder) document(f *manifest.File) {
	for _, e := range f.SyntaxErrors {
		e.Column = max(e.Column, 1)
		d.errs = append(d.errs, &manifest.Error{Pos: e.Pos, Message: "invalid YAML: " + e.Message})
	}
	if len(f.SyntaxErrors) > 0 || len(f.Docs) == 0 || len(f.Docs[0].Content) == 0 {
		return
	}
	if len(f.Docs) > 1 {
		second := f.Docs[1]
		if len(second.Content) > 0 {
			second = second.Content[0]
		}
		d.errorf(second, nil, "a config file holds one YAML document; merge this one into the first")
	}
	root := resolve(f.Docs[0].Content[0])
	if isNull(root) {
		return
	}
	if root.Kind != yaml.MappingNode {
		d.errorf(root, nil, "expected a mapping of settings (failOn, rules, ...), got %s", describe(root))
		return
	}
	d.record(nil, root)
	for _, p := range d.pairs(root, nil) {
		d.setting(p)
	}
}

// field records where the field p of the mapping at path is written and
// reports whether it is to be decoded: a key outside known is an error, and
// a null value ("key:" with everything below commented out) is as if absent.
func (d *decoder) field(p pair, path []any, known []string) bool {
	d.record(with(path, p.name), p.key)
	if !slices.Contains(known, p.name) {
		d.errorf(p.key, path, "unknown key %s (known: %s)", quote(p.name), strings.Join(known, ", "))
		return false
	}
	return !isNull(p.value)
}

// setting decodes one top-level key.
func (d *decoder) setting(p pair) {
	c, path := d.cfg, []any{p.name}
	if !d.field(p, nil, topKeys) {
		return
	}
	c.set[p.name] = true
	switch p.name {
	case "failOn":
		c.FailOn, _ = d.enum(p.value, path, failOnValues)
	case "rules":
		c.Rules = d.rules(p.value)
	case "systemTaints":
		c.SystemTaints = d.strings(p.value, path, nil)
	case "nodes":
		c.Nodes = d.paths(c, p.value, path)
	case "pools":
		c.Pools = d.pools(p.value)
	case "kubernetesVersion":
		c.KubernetesVersion = d.kubernetesVersion(p.value, path)
	case "charts":
		c.Charts = d.charts(p.value)
	case "featureGates":
		c.FeatureGates = d.featureGates(p.value)
	case "exclude":
		c.Exclude = d.strings(p.value, path, cleanGlob)
	case "policies":
		c.Policies = d.paths(c, p.value, path)
	}
}

func (d *decoder) rules(n *yaml.Node) map[string]string {
	out := map[string]string{}
	for _, p := range d.mapping(n, []any{"rules"}) {
		path := []any{"rules", p.name}
		d.record(path, p.key)
		if sev, ok := d.enum(p.value, path, ruleSeverities); ok {
			out[p.name] = sev
		}
	}
	return out
}

func (d *decoder) featureGates(n *yaml.Node) map[string]bool {
	out := map[string]bool{}
	for _, p := range d.mapping(n, []any{"featureGates"}) {
		path := []any{"featureGates", p.name}
		d.record(path, p.key)
		if !slices.Contains(knownGates, p.name) {
			d.errorf(p.key, path, "unknown feature gate %s (known: %s)", quote(p.name), strings.Join(knownGates, ", "))
			continue
		}
		if on, ok := d.boolean(p.value, path); ok {
			out[p.name] = on
		}
	}
	return out
}

// strings decodes a sequence of non-empty strings. check, when not nil,
// vets and normalises each one.
func (d *decoder) strings(n *yaml.Node, path []any, check func(string) (string, error)) []string {
	var out []string
	for i, raw := range d.sequence(n, path) {
		ipath := with(path, i)
		d.record(ipath, raw)
		s, ok := d.str(resolve(raw), ipath)
		switch {
		case !ok:
			continue
		case s == "":
			d.errorf(raw, ipath, "must not be empty")
			continue
		case check != nil:
			var err error
			if s, err = check(s); err != nil {
				d.errorf(raw, ipath, "%v", err)
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// paths reads a list of paths, each resolved against the config's directory.
func (d *decoder) paths(c *Config, n *yaml.Node, path []any) []string {
	var out []string
	for _, s := range d.strings(n, path, nil) {
		out = append(out, c.resolve(s))
	}
	return out
}
