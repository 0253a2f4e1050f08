package config

import "sigs.k8s.io/kustomize/kyaml/yaml"

// pools decodes the pools sequence. Kubernetes validity of label keys and
// values and of taint keys is left to the inventory, which checks nodes from
// every source the same way (a declaration's labels and taints too).
func (d *decoder) pools(n *yaml.Node) []Pool {
	out := d.poolList(n)
	d.overlappingOwners(out)
	return out
}

func (d *decoder) poolList(n *yaml.Node) []Pool {
	var out []Pool
	first := map[string]*yaml.Node{}
	for i, raw := range d.sequence(n, []any{"pools"}) {
		path := []any{"pools", i}
		d.record(path, raw)
		p, nameNode, ok := d.pool(resolve(raw), raw, path)
		if !ok {
			continue
		}
		if prev, dup := first[p.Name]; dup {
			d.errorf(nameNode, with(path, "name"), "duplicate pool name %s (first at %d:%d)", quote(p.Name), prev.Line, prev.Column)
			continue
		}
		first[p.Name] = nameNode
		out = append(out, p)
	}
	return out
}

// pool decodes one pool; raw is its item as written, for positions. ok is
// false when the pool has errors of its own.
func (d *decoder) pool(n, raw *yaml.Node, path []any) (p Pool, nameNode *yaml.Node, ok bool) {
	before := len(d.errs)
	p = Pool{Pos: d.at(raw)}
	var allocatable *yaml.Node
	for _, f := range d.mapping(n, path) {
		if !d.field(f, path, poolKeys) {
			continue
		}
		fpath := with(path, f.name)
		switch f.name {
		case "name":
			nameNode = f.value
			p.Name = d.nonEmpty(f.value, fpath)
		case "count":
			p.Count = d.count(f.value, fpath)
		case "labels":
			p.Labels = d.labels(f.value, fpath)
		case "taints":
			p.Taints = d.taints(f.value, fpath)
		case "allocatable":
			allocatable = f.key
			p.Allocatable = d.quantities(f.value, fpath)
		case "owners":
			p.Owners = d.owners(resolve(f.value), f.value, fpath)
		}
	}
	if n.Kind != yaml.MappingNode {
		return p, nameNode, false
	}
	if nameNode == nil {
		d.errorf(raw, path, "name is required")
	}
	if allocatable != nil && p.Count == 0 {
		d.errorf(allocatable, with(path, "allocatable"), "is what each node of the pool offers pods, and a pool without count has no nodes: add count (how many nodes the pool has)")
	}
	if len(d.errs) == before {
		d.declaration(p, path)
	}
	return p, nameNode, len(d.errs) == before
}

// declaration checks the dedicated pattern a pool declares: the pool is a
// declaration when it has no count (no nodes) or has owners. Its taints keep
// other pods off its nodes, and its labels are what the pods meant for them
// select: a taint without a label leaves those pods nothing to select, so
// they land on every other node too.
func (d *decoder) declaration(p Pool, path []any) {
	if p.Count > 0 && p.Owners == nil {
		return // inventory only, as a node may be
	}
	switch {
	case len(p.Labels) == 0 && len(p.Taints) > 0:
		d.errorAt(with(path, "taints"), "taints without labels: the pods meant for the pool have no label to select its nodes by, so they land on other nodes too; add labels: the labels its nodes carry")
	case len(p.Labels) == 0 && p.Count == 0:
		d.errorAt(path, "declares no labels and no taints: give the labels its nodes carry and the taints that keep other pods off (with count, the pool is also nodes to place workloads on)")
	}
}

func (d *decoder) count(n *yaml.Node, path []any) int {
	c, ok := d.integer(n, path)
	switch {
	case !ok:
	case c < 1:
		d.errorf(n, path, "must be at least 1, got %d (leave count out to declare the pool without nodes)", c)
	case c > MaxPoolCount:
		d.errorf(n, path, "must be at most %d (the most nodes a Kubernetes cluster supports), got %d", MaxPoolCount, c)
	default:
		return c
	}
	return 1 // an error is reported; the pool is not used
}

func (d *decoder) labels(n *yaml.Node, path []any) map[string]string {
	out := map[string]string{}
	for _, p := range d.mapping(n, path) {
		lpath := with(path, p.name)
		d.record(lpath, p.key)
		if isNull(p.value) {
			out[p.name] = "" // an empty label value is valid
			continue
		}
		if v, ok := d.str(p.value, lpath); ok {
			out[p.name] = v
		}
	}
	return out
}

// quantities decodes a mapping of resource names to quantities, each a
// string or a number as written (cpu: 32); whether a quantity is one
// Kubernetes reads is the inventory's to judge, like labels.
func (d *decoder) quantities(n *yaml.Node, path []any) map[string]string {
	out := map[string]string{}
	for _, p := range d.mapping(n, path) {
		qpath := with(path, p.name)
		d.record(qpath, p.key)
		switch v := p.value; {
		case v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!int" || v.ShortTag() == "!!float"):
			out[p.name] = v.Value
		default:
			if s, ok := d.str(v, qpath); ok {
				out[p.name] = s
			}
		}
	}
	return out
}

func (d *decoder) taints(n *yaml.Node, path []any) []Taint {
	var out []Taint
	first := map[[2]string]*yaml.Node{}
	for i, raw := range d.sequence(n, path) {
		tpath := with(path, i)
		d.record(tpath, raw)
		t, ok := d.taint(resolve(raw), raw, tpath)
		if !ok {
			continue
		}
		// The API server refuses two taints with the same key and effect.
		id := [2]string{t.Key, t.Effect}
		if prev, dup := first[id]; dup {
			d.errorf(raw, tpath, "duplicate taint %s (first at %d:%d)", quote(t.Key+":"+t.Effect), prev.Line, prev.Column)
			continue
		}
		first[id] = raw
		out = append(out, t)
	}
	return out
}

func (d *decoder) taint(n, raw *yaml.Node, path []any) (Taint, bool) {
	before := len(d.errs)
	t := Taint{Pos: d.at(raw)}
	written := map[string]bool{}
	for _, f := range d.mapping(n, path) {
		if !d.field(f, path, taintKeys) {
			continue
		}
		fpath := with(path, f.name)
		written[f.name] = true
		switch f.name {
		case "key":
			t.Key = d.nonEmpty(f.value, fpath)
		case "value":
			t.Value, _ = d.str(f.value, fpath)
		case "effect":
			t.Effect, _ = d.enum(f.value, fpath, taintEffects)
		}
	}
	for _, req := range []string{"key", "effect"} {
		if n.Kind == yaml.MappingNode && !written[req] {
			d.errorf(raw, path, "%s is required", req)
		}
	}
	return t, len(d.errs) == before
}
