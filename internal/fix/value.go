package fix

import (
	"fmt"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// applyPlain makes edits (normalized) in v, the object node obj decoded:
// what the file must decode to once they are made in its text. Values are
// set first, then lists appended to, then fields removed, the last items
// of a list first, so that every path means what it meant in obj.
func applyPlain(obj *yaml.Node, v any, edits []finding.Edit) (any, error) {
	order := func(e finding.Edit) int {
		switch e.Op {
		case finding.EditReplace, finding.EditQuote:
			return 0
		case finding.EditAdd:
			return 1
		}
		return 2
	}
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b finding.Edit) int {
		if d := order(a) - order(b); d != 0 || order(a) != 2 {
			return d
		}
		return comparePaths(b.Path, a.Path) // removals: later paths first
	})
	var err error
	for _, e := range sorted {
		switch e.Op {
		case finding.EditReplace:
			v, err = setAt(v, e.Path, func(any, bool) (any, bool) { return e.Value, true })
		case finding.EditQuote:
			s, rerr := resolve(obj, e.Path)
			if rerr != nil || s.node == nil {
				return nil, fmt.Errorf("quote %s: not in the object", manifest.FormatPath(e.Path))
			}
			v, err = setAt(v, e.Path, func(any, bool) (any, bool) { return s.node.Value, true })
		case finding.EditAdd:
			v, err = setAt(v, e.Target(), func(old any, _ bool) (any, bool) {
				list, _ := old.([]any)
				return append(list, e.Value), true
			})
		case finding.EditRemove:
			v, err = setAt(v, e.Path, func(any, bool) (any, bool) { return nil, false })
		}
		if err != nil {
			return nil, err
		}
	}
	return v, nil
}

// setAt replaces the value at path in v by what f makes of it (old, and
// whether it exists), or removes it when f says not to keep it.
func setAt(v any, path []any, f func(old any, exists bool) (any, bool)) (any, error) {
	if len(path) == 0 {
		nv, _ := f(v, true)
		return nv, nil
	}
	switch p := path[0].(type) {
	case string:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%q: not a mapping", p)
		}
		old, exists := m[p]
		if len(path) == 1 {
			if nv, keep := f(old, exists); keep {
				m[p] = nv
			} else {
				delete(m, p)
			}
			return m, nil
		}
		nv, err := setAt(old, path[1:], f)
		m[p] = nv
		return m, err
	case int:
		s, ok := v.([]any)
		if !ok || p < 0 || p >= len(s) {
			return nil, fmt.Errorf("[%d]: no such item", p)
		}
		if len(path) == 1 {
			nv, keep := f(s[p], true)
			if !keep {
				return slices.Delete(s, p, p+1), nil
			}
			s[p] = nv
			return s, nil
		}
		nv, err := setAt(s[p], path[1:], f)
		s[p] = nv
		return s, err
	}
	return nil, fmt.Errorf("bad path step %v", path[0])
}

// comparePaths orders paths step by step, indexes by number.
func comparePaths(a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ai, aok := a[i].(int)
		bi, bok := b[i].(int)
		if aok && bok {
			if ai != bi {
				return ai - bi
			}
			continue
		}
		if as, bs := fmt.Sprint(a[i]), fmt.Sprint(b[i]); as != bs {
			if as < bs {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}
