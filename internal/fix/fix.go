// Package fix makes the edits that rules declare for their findings
// (finding.Fix) in the text of the file the object is written in. It
// changes only the bytes of the fields it edits: comments, quoting,
// indentation, key order, line endings, a byte order mark and a missing
// final line break all stay as they are. Every edit is checked before it
// is kept: the file must parse again and decode to the same objects but
// for the edits, or it is left as it was.
package fix

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/yamlvalue"
)

// Target is an object of a file and the fixes of its findings.
type Target struct {
	Line, Column int // where the object's mapping starts in the file
	Fixes        []*finding.Fix
}

// Targets groups the fixes of findings by the object they are about, in
// file order.
func Targets(fixes []*finding.Fix) []Target {
	var out []Target
	for _, f := range fixes {
		i := slices.IndexFunc(out, func(t Target) bool { return t.Line == f.Line && t.Column == f.Column })
		if i < 0 {
			out = append(out, Target{Line: f.Line, Column: f.Column})
			i = len(out) - 1
		}
		out[i].Fixes = append(out[i].Fixes, f)
	}
	slices.SortStableFunc(out, func(a, b Target) int { return a.Line - b.Line })
	return out
}

// errTooLarge refuses a file dslint reads a part at a time: fixing it
// would hold it whole.
var errTooLarge = fmt.Errorf("it is larger than %d MiB, which dslint reads a part at a time, not whole", manifest.MaxFileBytes>>20)

// TooLarge is true for a file of size bytes that fix leaves alone.
func TooLarge(size int64) bool { return size > manifest.MaxFileBytes }

// file is a file parsed for fixing.
type file struct {
	name string
	bom  int // bytes of byte order mark before the text
	text *text
	objs map[[2]int]*yaml.Node // object nodes by line and column
	docs []*yaml.Node
}

// open parses data for fixing: a file with a syntax error, or one that is
// not UTF-8, is not edited.
func open(name string, data []byte) (*file, error) {
	if len(data) > manifest.MaxFileBytes {
		return nil, errTooLarge
	}
	f := manifest.Parse(name, data)
	if f.Template {
		return nil, errors.New("it holds Helm template syntax")
	}
	if len(f.SyntaxErrors) > 0 {
		return nil, fmt.Errorf("it has a syntax error at line %d", f.SyntaxErrors[0].Line)
	}
	// The parser's text is the file's but for a byte order mark; UTF-16
	// is converted, and not edited.
	if !bytes.HasSuffix(data, f.Data) {
		return nil, errors.New("it is not UTF-8 text")
	}
	out := &file{name: name, bom: len(data) - len(f.Data), text: newText(f.Data), objs: map[[2]int]*yaml.Node{}, docs: f.Docs}
	for _, d := range f.Docs {
		objs, _ := manifest.Entries(d)
		for _, o := range objs {
			out.objs[[2]int{o.Node.Line, o.Node.Column}] = o.Node
		}
	}
	return out, nil
}

// json is true when the file is JSON (by its name, or the object's
// quoted keys): edits write JSON there.
func (f *file) json(obj *yaml.Node) bool {
	if strings.HasSuffix(strings.ToLower(f.name), ".json") {
		return true
	}
	return len(obj.Content) > 0 && obj.Content[0].Style == yaml.DoubleQuotedStyle && obj.Style&yaml.FlowStyle != 0
}

// object finds the target's object where it starts.
func (f *file) object(t Target) (*yaml.Node, error) {
	obj := f.objs[[2]int{t.Line, t.Column}]
	if obj == nil {
		return nil, errors.New("the object is no longer where it was")
	}
	return obj, nil
}

// Expect is, for each edit, the value at its path (its list, for an
// append) in obj, as JSON: what Fix.Expect holds.
func Expect(obj *yaml.Node, edits []finding.Edit) []string {
	out := make([]string, len(edits))
	for i, e := range edits {
		out[i] = valueAt(obj, e)
	}
	return out
}

func valueAt(obj *yaml.Node, e finding.Edit) string {
	var v any
	if s, err := resolve(obj, e.Target()); err == nil && s.node != nil {
		v, _ = yamlvalue.Plain(s.node)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// expected checks that the file holds, at each edit of fx, what the object
// held when it was linted.
func expected(obj *yaml.Node, fx *finding.Fix) error {
	for i, e := range fx.Edits {
		if i >= len(fx.Expect) {
			break
		}
		if valueAt(obj, e) != fx.Expect[i] {
			return errors.New("the object as written differs from the object linted there (a kustomize patch changes the field)")
		}
	}
	return nil
}

// plan is the changes that make the fixes in obj: all of them when they
// go together, else as many as do, in order; a fix left out gets the
// reason in Reason.
func (f *file) plan(obj *yaml.Node, fixes []*finding.Fix) (changes []change, edits []finding.Edit, applied []*finding.Fix) {
	p := planner{t: f.text, obj: obj, json: f.json(obj)}
	for _, fx := range fixes {
		if err := expected(obj, fx); err != nil {
			fx.Reason = err.Error()
			continue
		}
		try := normalize(obj, append(slices.Clone(edits), fx.Edits...))
		cs, err := p.plan(try)
		if err != nil {
			fx.Reason = err.Error()
			continue
		}
		changes, edits, applied = cs, try, append(applied, fx)
	}
	return changes, edits, applied
}

// Describe fills in the Replacements of each fix, made alone in the file
// data (named name), or its Reason where it cannot be made there. The
// fixes are checked together, once, as File makes them: a check per fix
// would parse the file once per fix.
func Describe(name string, data []byte, targets []Target) {
	f, err := open(name, data)
	if err == nil {
		_, err = f.apply(data, f.planAll(targets))
	}
	for _, t := range targets {
		for _, fx := range t.Fixes {
			if err != nil {
				fx.Reason = "not fixable in this file: " + err.Error()
				continue
			}
			if obj, _ := f.object(t); obj != nil && fx.Reason == "" {
				cs, _, _ := f.plan(obj, []*finding.Fix{fx})
				fx.Replacements = f.replacements(cs)
			}
		}
	}
}

// planned is the fixes of a file planned together: their changes, the
// edits of each object, and the fixes they make.
type planned struct {
	changes []change
	edits   map[*yaml.Node][]finding.Edit
	applied []*finding.Fix
}

// planAll plans the fixes of every target together; a fix that cannot be
// made gets its Reason.
func (f *file) planAll(targets []Target) planned {
	p := planned{edits: map[*yaml.Node][]finding.Edit{}}
	for _, t := range targets {
		obj, err := f.object(t)
		if err != nil {
			for _, fx := range t.Fixes {
				fx.Reason = err.Error()
			}
			continue
		}
		cs, es, applied := f.plan(obj, t.Fixes)
		p.changes = append(p.changes, cs...)
		p.edits[obj] = es
		p.applied = append(p.applied, applied...)
	}
	return p
}

// Result is a file fixed.
type Result struct {
	Data    []byte         // the file with the fixes made
	Applied []*finding.Fix // the fixes made; the others have a Reason
}

// File makes the fixes of targets in data, the text of the file name. A
// file that does not parse is an error, and nothing is changed; so is a
// result that would not decode to the objects with the edits made.
func File(name string, data []byte, targets []Target) (Result, error) {
	f, err := open(name, data)
	if err != nil {
		return Result{Data: data}, fmt.Errorf("%s was not changed: %w", name, err)
	}
	p := f.planAll(targets)
	out, err := f.apply(data, p)
	if err != nil {
		return Result{Data: data}, fmt.Errorf("%s was not changed: %w", name, err)
	}
	return Result{Data: out, Applied: p.applied}, nil
}

// apply makes changes (of objects apart, each without overlaps) in data
// and checks the result: it parses, and decodes to the objects of the file
// with edits made in theirs.
func (f *file) apply(data []byte, p planned) ([]byte, error) {
	changes := slices.Clone(p.changes)
	slices.SortStableFunc(changes, func(a, b change) int { return a.start - b.start })
	var b bytes.Buffer
	b.Write(data[:f.bom])
	body := f.text.data
	at := 0
	for _, c := range changes {
		b.Write(body[at:c.start])
		b.WriteString(c.text)
		at = c.end
	}
	b.Write(body[at:])
	out := b.Bytes()
	if err := f.check(out, p.edits); err != nil {
		return nil, err
	}
	return out, nil
}

// check parses the edited text and compares its objects with what the
// edits should make of the original ones.
func (f *file) check(out []byte, edits map[*yaml.Node][]finding.Edit) error {
	g, err := open(f.name, out)
	if err != nil {
		return fmt.Errorf("the edited file would not parse: %w", err)
	}
	if len(g.docs) != len(f.docs) {
		return errors.New("the edited file would have other documents")
	}
	for i, d := range f.docs {
		before, others := manifest.Entries(d)
		after, othersAfter := manifest.Entries(g.docs[i])
		if len(before) != len(after) || len(others) != len(othersAfter) {
			return errors.New("the edited file would have other objects")
		}
		for j, o := range before {
			want, err := yamlvalue.Plain(o.Node)
			if err != nil {
				return err
			}
			if es := edits[o.Node]; len(es) > 0 {
				if want, err = applyPlain(o.Node, want, es); err != nil {
					return err
				}
			}
			got, err := yamlvalue.Plain(after[j].Node)
			if err != nil || !reflect.DeepEqual(want, got) {
				return fmt.Errorf("the edit would change more of %s %s than the fix, so the file is left as it is", o.Kind, o.Name)
			}
		}
		for j, o := range others {
			want, _ := yamlvalue.Plain(o)
			got, _ := yamlvalue.Plain(othersAfter[j])
			if !reflect.DeepEqual(want, got) {
				return errors.New("the edited file would change a document that is not an object")
			}
		}
	}
	return nil
}

// replacements are changes as regions of the file.
func (f *file) replacements(cs []change) []finding.Replacement {
	out := make([]finding.Replacement, 0, len(cs))
	for _, c := range cs {
		r := finding.Replacement{Offset: f.bom + c.start, Length: c.end - c.start, Text: c.text}
		r.Line, r.Column = f.text.position(c.start)
		r.EndLine, r.EndColumn = f.text.position(c.end)
		out = append(out, r)
	}
	return out
}
