package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// selectorOperators are the operators a label selector takes.
var selectorOperators = []string{"In", "NotIn", "Exists", "DoesNotExist"}

// owners decodes a pool's owners; raw is the mapping as written.
func (d *decoder) owners(n, raw *yaml.Node, path []any) *Owners {
	o := &Owners{Pos: d.at(raw)}
	written := false
	for _, f := range d.mapping(n, path) {
		if !d.field(f, path, ownerKeys) {
			continue
		}
		written = true
		fpath := with(path, f.name)
		switch f.name {
		case "namespaces":
			before := len(d.errs)
			o.Namespaces = d.strings(f.value, fpath, namespaceGlob)
			if len(o.Namespaces) == 0 && len(d.errs) == before {
				d.errorf(f.value, fpath, "lists no namespace; leave namespaces out to take every namespace")
			}
		case "selector":
			o.Selector = d.selector(resolve(f.value), fpath)
		}
	}
	if n.Kind == yaml.MappingNode && !written {
		d.errorf(raw, path, "name namespaces (globs such as ml-*), a selector of pod labels, or both")
	}
	return o
}

// namespaceGlob vets a namespace glob: a namespace name (lowercase letters,
// digits and '-') in which "*" stands for any run of those.
func namespaceGlob(s string) (string, error) {
	for _, r := range s {
		if r != '*' && r != '-' && (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return "", fmt.Errorf("%s is not a namespace glob: a namespace name has lowercase letters, digits and '-', and '*' stands for any run of them", quote(s))
		}
	}
	if len(strings.ReplaceAll(s, "*", "")) > 63 {
		return "", fmt.Errorf("%s is longer than a namespace name can be (63 characters)", quote(s))
	}
	return s, nil
}

func (d *decoder) selector(n *yaml.Node, path []any) *Selector {
	s := &Selector{}
	for _, f := range d.mapping(n, path) {
		if !d.field(f, path, selectorKeys) {
			continue
		}
		fpath := with(path, f.name)
		switch f.name {
		case "matchLabels":
			s.MatchLabels = d.labels(f.value, fpath)
		case "matchExpressions":
			for i, raw := range d.sequence(f.value, fpath) {
				rpath := with(fpath, i)
				d.record(rpath, raw)
				if r, ok := d.requirement(resolve(raw), raw, rpath); ok {
					s.MatchExpressions = append(s.MatchExpressions, r)
				}
			}
		}
	}
	return s
}

// requirement decodes one matchExpressions entry, as the API server would
// take it: In and NotIn need values, Exists and DoesNotExist take none.
func (d *decoder) requirement(n, raw *yaml.Node, path []any) (Requirement, bool) {
	before := len(d.errs)
	var r Requirement
	written := map[string]bool{}
	for _, f := range d.mapping(n, path) {
		if !d.field(f, path, requirementKeys) {
			continue
		}
		fpath := with(path, f.name)
		written[f.name] = true
		switch f.name {
		case "key":
			r.Key = d.nonEmpty(f.value, fpath)
		case "operator":
			r.Operator, _ = d.enum(f.value, fpath, selectorOperators)
		case "values":
			r.Values = d.strings(f.value, fpath, nil)
		}
	}
	if n.Kind != yaml.MappingNode {
		return r, false
	}
	for _, req := range []string{"key", "operator"} {
		if !written[req] {
			d.errorf(raw, path, "%s is required", req)
		}
	}
	switch {
	case (r.Operator == "In" || r.Operator == "NotIn") && len(r.Values) == 0:
		d.errorf(raw, path, "operator %s needs values", r.Operator)
	case (r.Operator == "Exists" || r.Operator == "DoesNotExist") && len(r.Values) > 0:
		d.errorf(raw, path, "operator %s takes no values", r.Operator)
	}
	return r, len(d.errs) == before
}

// overlappingOwners reports two pools whose owners differ but are written
// in the same terms (namespaces, a selector, or both) and can both be met
// by one workload: such a workload would own both, which neither
// declaration says. Pools with the same owners belong to one team, which
// may well use several pools; owners told apart in other terms (one pool's
// by namespace, another's by pod label) are two deliberate cuts.
func (d *decoder) overlappingOwners(pools []Pool) {
	budget := overlapBudget
	defer func() {
		if budget < 0 {
			d.errorAt([]any{"pools"}, "the owners' namespace globs are too many, or too long, to check for overlap (more than %d steps); declare fewer of them", overlapBudget)
		}
	}()
	for j, b := range pools {
		if b.Owners == nil {
			continue
		}
		for i, a := range pools[:j] {
			if a.Owners == nil || sameOwners(a.Owners, b.Owners) {
				continue
			}
			if (a.Owners.Namespaces == nil) != (b.Owners.Namespaces == nil) || (a.Owners.Selector == nil) != (b.Owners.Selector == nil) {
				continue
			}
			ns, ok := commonNamespace(a.Owners.Namespaces, b.Owners.Namespaces, &budget)
			if budget < 0 {
				return
			}
			if !ok || !selectorsMeet(a.Owners.Selector, b.Owners.Selector) {
				continue
			}
			other := d.cfg.Pos([]any{"pools", i, "owners"})
			d.errorAt([]any{"pools", j, "owners"},
				"overlaps the owners of pool %s (%d:%d): %s; a workload owns one pool's nodes, so narrow one of them, or give both pools the same owners",
				quote(a.Name), other.Line, other.Column, ns)
			break
		}
	}
}

func sameOwners(a, b *Owners) bool {
	na, nb := slices.Sorted(slices.Values(a.Namespaces)), slices.Sorted(slices.Values(b.Namespaces))
	if (a.Namespaces == nil) != (b.Namespaces == nil) || !slices.Equal(slices.Compact(na), slices.Compact(nb)) {
		return false
	}
	if a.Selector == nil || b.Selector == nil {
		return a.Selector == b.Selector
	}
	return maps.Equal(a.Selector.MatchLabels, b.Selector.MatchLabels) &&
		slices.EqualFunc(a.Selector.MatchExpressions, b.Selector.MatchExpressions, func(x, y Requirement) bool {
			return x.Key == y.Key && x.Operator == y.Operator && slices.Equal(x.Values, y.Values)
		})
}

// commonNamespace tells whether some namespace matches a glob of each list
// (nil: any namespace, in both) and says which, for the message.
func commonNamespace(a, b []string, budget *int) (string, bool) {
	if a == nil {
		return "both take pods of every namespace", true
	}
	for _, ga := range a {
		for _, gb := range b {
			if w, ok := globsMeet(ga, gb, budget); ok {
				return fmt.Sprintf("namespace %s matches both %s and %s", quote(w), quote(ga), quote(gb)), true
			}
		}
	}
	return "", false
}

// overlapBudget bounds the steps of every globsMeet of one config, so that
// a config of thousands of long globs is refused rather than checked for
// hours. A real config takes a few hundred.
const overlapBudget = 5_000_000

// globsMeet finds a namespace both globs match, "*" standing for any run of
// characters: a breadth-first walk of the pairs of positions in the two
// globs, which yields a shortest common name. A glob of stars alone yields
// "" there, which no namespace is; "x" stands for any name then. Each step
// is taken from budget; it stops, meeting nothing, when budget runs out.
func globsMeet(a, b string, budget *int) (string, bool) {
	type state struct{ i, j int }
	from := map[state]state{}
	emitted := map[state]string{}
	start := state{}
	seen := map[state]bool{start: true}
	queue := []state{start}
	step := func(s, t state, out string) {
		if !seen[t] {
			seen[t], from[t], emitted[t] = true, s, out
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 && *budget >= 0 {
		*budget--
		s := queue[0]
		queue = queue[1:]
		if s.i == len(a) && s.j == len(b) {
			var name string
			for t := s; t != start; t = from[t] {
				name = emitted[t] + name
			}
			if name == "" {
				name = "x"
			}
			return name, true
		}
		starA, starB := s.i < len(a) && a[s.i] == '*', s.j < len(b) && b[s.j] == '*'
		if starA {
			step(s, state{s.i + 1, s.j}, "")
		}
		if starB {
			step(s, state{s.i, s.j + 1}, "")
		}
		switch {
		case s.i == len(a) || s.j == len(b) || (starA && starB):
		case starA:
			step(s, state{s.i, s.j + 1}, b[s.j:s.j+1])
		case starB:
			step(s, state{s.i + 1, s.j}, a[s.i:s.i+1])
		case a[s.i] == b[s.j]:
			step(s, state{s.i + 1, s.j + 1}, a[s.i:s.i+1])
		}
	}
	return "", false
}

// selectorsMeet is false only when the two selectors can never both match
// one set of labels because they ask for different values of one key;
// anything subtler is taken to meet.
func selectorsMeet(a, b *Selector) bool {
	if a == nil || b == nil {
		return true
	}
	for k, v := range a.MatchLabels {
		if w, ok := b.MatchLabels[k]; ok && w != v {
			return false
		}
	}
	return true
}
