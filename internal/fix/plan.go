package fix

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// change replaces the bytes [start, end) of the text with text; an
// insertion has start == end.
type change struct {
	start, end int
	text       string
}

// step is where one step of an edit's path leads in the written object.
type step struct {
	parent *yaml.Node // the mapping or sequence the step is in
	key    *yaml.Node // the key, in a mapping
	node   *yaml.Node // the value or item; nil when the key is absent
	index  int        // the pair's or item's index in parent
}

var errAlias = errors.New("the field is written through a YAML alias or merge key, which other fields share")

// resolve follows path from the object node: the last step, or an error
// when path leaves the object before its last step. A last key that is
// absent is a step with a nil node.
func resolve(obj *yaml.Node, path []any) (step, error) {
	cur := obj
	var s step
	for i, p := range path {
		if cur == nil {
			return step{}, fmt.Errorf("%s is not in the file", manifest.FormatPath(path[:i]))
		}
		if cur.Kind == yaml.AliasNode || cur.Anchor != "" && i > 0 {
			return step{}, errAlias
		}
		switch p := p.(type) {
		case string:
			if cur.Kind != yaml.MappingNode {
				return step{}, fmt.Errorf("%s is not a mapping", manifest.FormatPath(path[:i]))
			}
			s = step{parent: cur, index: -1}
			for j := 0; j+1 < len(cur.Content); j += 2 {
				k := cur.Content[j]
				if k.Value == "<<" && k.Tag == "!!merge" {
					return step{}, errAlias
				}
				if k.Kind == yaml.ScalarNode && k.Value == p {
					s = step{parent: cur, key: k, node: cur.Content[j+1], index: j / 2}
				}
			}
		case int:
			if cur.Kind != yaml.SequenceNode || p < 0 || p >= len(cur.Content) {
				return step{}, fmt.Errorf("%s has no item %d", manifest.FormatPath(path[:i]), p)
			}
			s = step{parent: cur, node: cur.Content[p], index: p}
		default:
			return step{}, fmt.Errorf("bad path step %v", p)
		}
		cur = s.node
	}
	if s.node != nil && (s.node.Kind == yaml.AliasNode || s.node.Anchor != "") {
		return step{}, errAlias
	}
	return s, nil
}

// planner turns the edits of one object into changes of the text.
type planner struct {
	t    *text
	obj  *yaml.Node
	json bool // the file is JSON: what is added must be JSON too
}

// style is how to write what is added to the list seq (nil: a list to
// create).
func (p *planner) style(seq *yaml.Node) style {
	st := styleOf(seq, p.obj)
	st.json = p.json
	return st
}

// normalize merges the edits of one object: duplicates dropped, edits
// inside a field another edit removes dropped, appends to one list
// together, and a list whose every item is removed (and nothing added)
// removed whole: Kubernetes reads an absent list as an empty one.
func normalize(obj *yaml.Node, edits []finding.Edit) []finding.Edit {
	var out []finding.Edit
	for _, e := range edits {
		if !slices.ContainsFunc(out, func(o finding.Edit) bool { return sameEdit(o, e) }) {
			out = append(out, e)
		}
	}
	// Lists emptied by removals, in the order first met.
	type removals struct {
		list  []any
		items map[int]bool
	}
	var emptied []*removals
	appended := map[string]bool{}
	for _, e := range out {
		if e.Op == finding.EditAdd {
			appended[pathKey(e.Target())] = true
		}
		n := len(e.Path)
		i, ok := 0, false
		if e.Op == finding.EditRemove && n > 0 {
			i, ok = e.Path[n-1].(int)
		}
		if !ok {
			continue
		}
		list := e.Path[:n-1]
		at := slices.IndexFunc(emptied, func(r *removals) bool { return pathKey(r.list) == pathKey(list) })
		if at < 0 {
			emptied = append(emptied, &removals{list: list, items: map[int]bool{}})
			at = len(emptied) - 1
		}
		emptied[at].items[i] = true
	}
	for _, r := range emptied {
		s, err := resolve(obj, r.list)
		if err == nil && s.key != nil && s.node != nil && s.node.Kind == yaml.SequenceNode &&
			!appended[pathKey(r.list)] && len(r.items) == len(s.node.Content) {
			out = append(out, finding.Edit{Op: finding.EditRemove, Path: slices.Clone(r.list)})
		}
	}
	// Edits under a removed field go with it.
	var kept []finding.Edit
	for _, e := range out {
		if !slices.ContainsFunc(out, func(o finding.Edit) bool {
			return o.Op == finding.EditRemove && len(o.Path) < len(e.Path) && under(e.Path, o.Path)
		}) {
			kept = append(kept, e)
		}
	}
	return kept
}

func sameEdit(a, b finding.Edit) bool {
	return a.Op == b.Op && pathKey(a.Path) == pathKey(b.Path) && reflect.DeepEqual(a.Value, b.Value)
}

func under(p, prefix []any) bool {
	return len(p) >= len(prefix) && pathKey(p[:len(prefix)]) == pathKey(prefix)
}

func pathKey(p []any) string { return fmt.Sprintf("%#v", p) }

// plan is the text changes that make edits (normalized) in the object.
func (p *planner) plan(edits []finding.Edit) ([]change, error) {
	var out []change
	adds := map[string][]any{}
	var order [][]any
	for _, e := range edits {
		var cs []change
		var err error
		switch e.Op {
		case finding.EditRemove:
			cs, err = p.remove(e.Path)
		case finding.EditReplace:
			cs, err = p.replace(e.Path, e.Value)
		case finding.EditQuote:
			cs, err = p.quote(e.Path)
		case finding.EditAdd:
			list := e.Target()
			if len(list) == len(e.Path) {
				return nil, fmt.Errorf("add to %s: only appending to a list (a path ending in \"-\") is supported", manifest.FormatPath(e.Path))
			}
			k := pathKey(list)
			if _, ok := adds[k]; !ok {
				order = append(order, list)
			}
			adds[k] = append(adds[k], e.Value)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	for _, list := range order {
		cs, err := p.appendTo(list, adds[pathKey(list)])
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	slices.SortStableFunc(out, func(a, b change) int { return a.start - b.start })
	for i := 1; i < len(out); i++ {
		if out[i].start < out[i-1].end {
			return nil, errors.New("two edits change the same text")
		}
	}
	return out, nil
}

// replace writes value over the scalar at path, in its quoting style.
func (p *planner) replace(path []any, value any) ([]change, error) {
	s, err := resolve(p.obj, path)
	if err != nil {
		return nil, err
	}
	n := s.node
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("%s is not a scalar", manifest.FormatPath(path))
	}
	start, ok := p.t.at(n)
	end, ok2 := p.t.scalarEnd(n, start)
	if !ok || !ok2 {
		return nil, fmt.Errorf("%s is not written on one line", manifest.FormatPath(path))
	}
	st := style{quote: quoteOf(n), json: p.json}
	return []change{{start, end, st.scalar(value)}}, nil
}

// quote writes the plain scalar at path, which YAML reads as a boolean
// or a number, quoted: the string the user wrote.
func (p *planner) quote(path []any) ([]change, error) {
	s, err := resolve(p.obj, path)
	if err != nil {
		return nil, err
	}
	n := s.node
	if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 {
		return nil, fmt.Errorf("%s is not a plain scalar", manifest.FormatPath(path))
	}
	start, ok := p.t.at(n)
	end, ok2 := p.t.scalarEnd(n, start)
	if !ok || !ok2 {
		return nil, fmt.Errorf("%s is not written on one line", manifest.FormatPath(path))
	}
	text := quoted(n.Value, '"')
	if p.json {
		text = jsonString(n.Value)
	}
	return []change{{start, end, text}}, nil
}

// remove takes the key at path out of its mapping, or the item out of its
// sequence, with the lines it is written on.
func (p *planner) remove(path []any) ([]change, error) {
	s, err := resolve(p.obj, path)
	if err != nil {
		return nil, err
	}
	if s.node == nil {
		return nil, fmt.Errorf("%s is not in the file", manifest.FormatPath(path))
	}
	if s.parent.Style&yaml.FlowStyle != 0 {
		return p.removeFlow(s)
	}
	if s.parent.Kind == yaml.MappingNode {
		return p.removePair(s)
	}
	return p.removeItem(s)
}

// removePair removes a pair of a block mapping.
func (p *planner) removePair(s step) ([]change, error) {
	t := p.t
	start, ok := t.at(s.key)
	if !ok {
		return nil, errors.New("the key's position is not in the file")
	}
	end := p.pairEnd(s.key, s.node)
	if t.onlySpaceBefore(start) {
		return []change{{t.lineStart(p.headLine(s.key, s.key.Column-1)), end, ""}}, nil
	}
	// The first key of a "- " item: the next key moves up to its place.
	m := s.parent
	if 2*s.index+2 < len(m.Content) {
		next, ok := t.at(m.Content[2*s.index+2])
		if !ok {
			return nil, errors.New("the next key's position is not in the file")
		}
		return []change{{start, next, ""}}, nil
	}
	if len(m.Content) == 2 {
		return []change{{start, t.trimSpaceBefore(end), "{}"}}, nil
	}
	return nil, errors.New("the key does not start its line")
}

// pairEnd is the offset past the lines of a block mapping's pair.
func (p *planner) pairEnd(k, v *yaml.Node) int {
	indentless := v != nil && v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && v.Column == k.Column
	return p.t.blockEnd(k.Line, k.Column-1, indentless)
}

// removeItem removes an item of a block sequence.
func (p *planner) removeItem(s step) ([]change, error) {
	t := p.t
	dash, ok := t.offset(s.node.Line, s.parent.Column)
	if !ok || t.data[dash] != '-' || !t.onlySpaceBefore(dash) {
		return nil, errors.New("the item does not start its line with \"- \"")
	}
	return []change{{t.lineStart(p.headLine(s.node, s.parent.Column-1)), t.blockEnd(s.node.Line, s.parent.Column-1, false), ""}}, nil
}

// headLine is the first line of what is removed with the field or item n,
// whose key or "-" is indented by indent: its line, and the comment lines
// right above it, at its indentation, that the parser gives it as its
// head comment.
func (p *planner) headLine(n *yaml.Node, indent int) int {
	line := n.Line
	if n.HeadComment == "" {
		return line
	}
	for l := line - 1; l >= 1; l-- {
		text := p.t.line(l)
		if n, content := p.t.indent(l); content || n != indent || len(text) == n {
			break
		}
		line = l
	}
	return line
}

// removeFlow removes a pair or an item of a flow collection, with the
// comma that separates it from the next (or the previous).
func (p *planner) removeFlow(s step) ([]change, error) {
	t := p.t
	stride := 1
	if s.parent.Kind == yaml.MappingNode {
		stride = 2
	}
	first := s.node
	if s.key != nil {
		first = s.key
	}
	start, ok := t.at(first)
	end, ok2 := t.nodeEnd(s.node)
	if !ok || !ok2 {
		return nil, errors.New("the field is not written in a way dslint can edit")
	}
	items := s.parent.Content
	at := s.index * stride
	switch {
	case at+stride < len(items):
		next, ok := t.at(items[at+stride])
		if !ok {
			return nil, errors.New("the next field's position is not in the file")
		}
		return []change{{start, next, ""}}, nil
	case at > 0:
		prevEnd, ok := t.nodeEnd(items[at-1])
		if !ok {
			return nil, errors.New("the previous field is not written in a way dslint can edit")
		}
		return []change{{prevEnd, end, ""}}, nil
	}
	return []change{{start, end, ""}}, nil
}

// appendTo appends values to the list at path, creating the list when the
// key is absent.
func (p *planner) appendTo(path []any, values []any) ([]change, error) {
	s, err := resolve(p.obj, path)
	if err != nil {
		return nil, err
	}
	if s.node == nil {
		if s.parent == nil || s.parent.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s is not in a mapping", manifest.FormatPath(path))
		}
		return p.addKey(s.parent, path[len(path)-1].(string), values)
	}
	seq := s.node
	if seq.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s is not a list", manifest.FormatPath(path))
	}
	st := p.style(seq)
	t := p.t
	if seq.Style&yaml.FlowStyle != 0 {
		return p.appendFlow(seq, st, values)
	}
	if len(seq.Content) == 0 {
		return nil, fmt.Errorf("%s is an empty list not written as []", manifest.FormatPath(path))
	}
	last := seq.Content[len(seq.Content)-1]
	at := t.blockEnd(last.Line, seq.Column-1, false)
	var lines []string
	for _, v := range values {
		lines = append(lines, st.blockItem(v, seq.Column-1)...)
	}
	return []change{p.insertLines(at, lines)}, nil
}

// appendFlow appends values to a flow sequence: on its line, or one per
// line when its items are written one per line.
func (p *planner) appendFlow(seq *yaml.Node, st style, values []any) ([]change, error) {
	t := p.t
	var items []string
	for _, v := range values {
		items = append(items, st.flow(v))
	}
	if len(seq.Content) == 0 {
		start, ok := t.at(seq)
		end, ok2 := t.flowEnd(start)
		if !ok || !ok2 {
			return nil, errors.New("the list is not written in a way dslint can edit")
		}
		return []change{{start, end, "[" + strings.Join(items, ", ") + "]"}}, nil
	}
	last := seq.Content[len(seq.Content)-1]
	end, ok := t.nodeEnd(last)
	if !ok {
		return nil, errors.New("the list's last item is not written in a way dslint can edit")
	}
	sep := ", "
	if last.Line != seq.Line {
		sep = "," + t.eol + strings.Repeat(" ", last.Column-1)
	}
	return []change{{end, end, sep + strings.Join(items, sep)}}, nil
}

// addKey adds key: [values...] to the mapping m, after its last pair.
func (p *planner) addKey(m *yaml.Node, key string, values []any) ([]change, error) {
	t := p.t
	st := p.style(nil)
	if m.Style&yaml.FlowStyle != 0 || len(m.Content) == 0 {
		start, ok := t.at(m)
		end, ok2 := t.flowEnd(start)
		if !ok || !ok2 || m.Style&yaml.FlowStyle == 0 {
			return nil, errors.New("the mapping is not written in a way dslint can edit")
		}
		var items []string
		for _, v := range values {
			items = append(items, st.flow(v))
		}
		pair := st.key(key) + ": [" + strings.Join(items, ", ") + "]"
		close := t.trimSpaceBefore(end - 1)
		switch last := m.Content[max(len(m.Content)-2, 0):]; {
		case len(m.Content) == 0:
		case t.data[close-1] == ',' && last[0].Line != m.Line:
			// One pair per line, each with its comma (KYAML).
			pair = t.eol + strings.Repeat(" ", last[0].Column-1) + pair + ","
		case t.data[close-1] == ',':
			pair = " " + pair
		case last[0].Line != m.Line:
			// One pair per line (JSON).
			pair = "," + t.eol + strings.Repeat(" ", last[0].Column-1) + pair
		default:
			pair = ", " + pair
		}
		return []change{{close, close, pair}}, nil
	}
	k, v := m.Content[len(m.Content)-2], m.Content[len(m.Content)-1]
	at := p.pairEnd(k, v)
	if start, ok := t.at(k); at == len(t.data) && !bytes.HasSuffix(t.data, []byte("\n")) && ok && t.onlySpaceBefore(start) {
		// The last pair ends the file without a line break: its value
		// may be a block scalar, which a line break would change. The
		// new pair goes before it instead.
		at = t.lineStart(p.headLine(k, k.Column-1))
	}
	indent := k.Column - 1
	lines := []string{strings.Repeat(" ", indent) + st.key(key) + ":"}
	for _, v := range values {
		lines = append(lines, st.blockItem(v, indent+st.seqIndent)...)
	}
	return []change{p.insertLines(at, lines)}, nil
}

// insertLines inserts whole lines at offset at, which starts a line (or
// ends a file without a final line break).
func (p *planner) insertLines(at int, lines []string) change {
	t := p.t
	text := strings.Join(lines, t.eol) + t.eol
	if at == len(t.data) && at > 0 && t.data[at-1] != '\n' {
		text = t.eol + strings.TrimSuffix(text, t.eol)
	}
	return change{at, at, text}
}
