package config

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// pairs returns the entries of a mapping node. Merge keys (<<) are expanded,
// the mapping's own keys winning over merged ones; a repeated key and a key
// that is not a string are errors.
func (d *decoder) pairs(m *yaml.Node, path []any) []pair {
	return d.pairsOf(m, path, map[*yaml.Node]bool{})
}

// pairsOf expands each mapping at most once (visiting), so that merge
// cycles through aliases end.
func (d *decoder) pairsOf(m *yaml.Node, path []any, visiting map[*yaml.Node]bool) []pair {
	visiting[m] = true
	var own, merged []pair
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], resolve(m.Content[i+1])
		name := resolve(k)
		if name.Kind == yaml.ScalarNode && name.ShortTag() == "!!merge" {
			merged = append(merged, d.merge(v, path, visiting)...)
			continue
		}
		if name.Kind != yaml.ScalarNode || name.ShortTag() != "!!str" {
			d.errorf(k, path, "expected a string key, got %s", describe(name))
			continue
		}
		if prev, dup := first[name.Value]; dup {
			d.errorf(k, path, "duplicate key %s (first at %d:%d)", quote(name.Value), prev.Line, prev.Column)
			continue
		}
		first[name.Value] = k
		own = append(own, pair{key: k, name: name.Value, value: v})
	}
	for _, p := range merged {
		if first[p.name] == nil {
			first[p.name] = p.key
			own = append(own, p)
		}
	}
	return own
}

// merge returns the entries a merge key brings in: a mapping, or a sequence
// of mappings where earlier ones win.
func (d *decoder) merge(v *yaml.Node, path []any, visiting map[*yaml.Node]bool) []pair {
	sources := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		sources = sources[:0]
		for _, item := range v.Content {
			sources = append(sources, resolve(item))
		}
	}
	var out []pair
	for _, src := range sources {
		if src.Kind != yaml.MappingNode {
			d.errorf(src, path, "<<: expected a mapping or a sequence of mappings, got %s", describe(src))
			continue
		}
		if !visiting[src] {
			out = append(out, d.pairsOf(src, path, visiting)...)
		}
	}
	return out
}

// mapping returns the entries of a mapping, or reports what was found instead.
func (d *decoder) mapping(n *yaml.Node, path []any) []pair {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "expected a mapping, got %s", describe(n))
		return nil
	}
	return d.pairs(n, path)
}

// sequence returns the items of a sequence as written (aliases unresolved,
// for their positions), or reports what was found instead.
func (d *decoder) sequence(n *yaml.Node, path []any) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		hint := ""
		if n.Kind == yaml.ScalarNode {
			hint = fmt.Sprintf(" (write [%s] for a list of one)", quote(n.Value))
		}
		d.errorf(n, path, "expected a sequence, got %s%s", describe(n), hint)
		return nil
	}
	return n.Content
}

func (d *decoder) str(n *yaml.Node, path []any) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		return n.Value, true
	}
	hint := ""
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" {
		hint = fmt.Sprintf(" (quote it: %s)", quote(n.Value))
	}
	d.errorf(n, path, "expected a string, got %s%s", describe(n), hint)
	return "", false
}

func (d *decoder) nonEmpty(n *yaml.Node, path []any) string {
	s, ok := d.str(n, path)
	if ok && s == "" {
		d.errorf(n, path, "must not be empty")
	}
	return s
}

// enum decodes a string that must be one of allowed.
func (d *decoder) enum(n *yaml.Node, path []any, allowed []string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		d.errorf(n, path, "expected one of %s, got %s", strings.Join(allowed, ", "), describe(n))
		return "", false
	}
	if !slices.Contains(allowed, n.Value) {
		d.errorf(n, path, "%s is not one of %s", quote(n.Value), strings.Join(allowed, ", "))
		return "", false
	}
	return n.Value, true
}

func (d *decoder) integer(n *yaml.Node, path []any) (int, bool) {
	var i int
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" && n.Decode(&i) == nil {
		return i, true
	}
	d.errorf(n, path, "expected an integer, got %s", describe(n))
	return 0, false
}

func (d *decoder) boolean(n *yaml.Node, path []any) (bool, bool) {
	var b bool
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" && n.Decode(&b) == nil {
		return b, true
	}
	d.errorf(n, path, "expected true or false, got %s", describe(n))
	return false, false
}

// describe names what a node is, for "expected X, got Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		switch tag := n.ShortTag(); tag {
		case "!!null":
			return "null"
		case "!!str":
			return "string " + quote(n.Value)
		case "!!int":
			return "integer " + short(n.Value)
		case "!!float":
			return "number " + short(n.Value)
		case "!!bool":
			return "boolean " + short(n.Value)
		case "!!timestamp":
			return "timestamp " + short(n.Value)
		default:
			return short(tag) + " " + quote(n.Value)
		}
	}
	return "an alias"
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// with returns path extended by step, never sharing path's array.
func with(path []any, step any) []any {
	return append(slices.Clip(path), step)
}

// quote quotes a value for a message, cut short when it is long.
func quote(s string) string { return fmt.Sprintf("%q", short(s)) }

func short(s string) string {
	const limit = 64
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return string([]rune(s)[:limit]) + "…"
}
