package config

import "sigs.k8s.io/kustomize/kyaml/yaml"

// Chart is a Helm chart of the config's charts: and the named value sets
// to lint it with.
type Chart struct {
	Path      string // the chart directory, resolved against Dir
	ValueSets []ValueSet
}

// ValueSet is a named list of values files, resolved against Dir, in the
// order they are merged (an empty list: the chart's own values).
type ValueSet struct {
	Name  string
	Files []string
}

var chartKeys = []string{"path", "values"}

// charts decodes the charts sequence: each entry a chart directory with
// named value sets. Whether the files exist is checked where they are used,
// as for nodes:.
func (d *decoder) charts(n *yaml.Node) []Chart {
	var out []Chart
	first := map[string]*yaml.Node{}
	for i, raw := range d.sequence(n, []any{"charts"}) {
		path := []any{"charts", i}
		d.record(path, raw)
		before := len(d.errs)
		var c Chart
		var pathNode *yaml.Node
		for _, f := range d.mapping(resolve(raw), path) {
			if !d.field(f, path, chartKeys) {
				continue
			}
			fpath := with(path, f.name)
			switch f.name {
			case "path":
				pathNode = f.value
				if s := d.nonEmpty(f.value, fpath); s != "" {
					c.Path = d.cfg.resolve(s)
				}
			case "values":
				c.ValueSets = d.valueSets(f.value, fpath)
			}
		}
		if resolve(raw).Kind == yaml.MappingNode && pathNode == nil {
			d.errorf(raw, path, "path is required")
		}
		if len(d.errs) > before || c.Path == "" {
			continue
		}
		if prev, dup := first[c.Path]; dup {
			d.errorf(pathNode, with(path, "path"), "chart listed twice (first at %d:%d): give it several value sets instead", prev.Line, prev.Column)
			continue
		}
		first[c.Path] = pathNode
		out = append(out, c)
	}
	return out
}

// valueSets decodes a mapping of value set names to lists of values files.
func (d *decoder) valueSets(n *yaml.Node, path []any) []ValueSet {
	var out []ValueSet
	for _, p := range d.mapping(n, path) {
		vpath := with(path, p.name)
		d.record(vpath, p.key)
		if p.name == "" {
			d.errorf(p.key, vpath, "a value set needs a name")
			continue
		}
		set := ValueSet{Name: p.name, Files: []string{}}
		if !isNull(p.value) {
			for i, raw := range d.sequence(p.value, vpath) {
				ipath := with(vpath, i)
				d.record(ipath, raw)
				s := d.nonEmpty(resolve(raw), ipath)
				if s == "" {
					continue
				}
				set.Files = append(set.Files, d.cfg.resolve(s))
			}
		}
		out = append(out, set)
	}
	return out
}
