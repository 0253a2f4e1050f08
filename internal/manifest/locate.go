package manifest

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Locate finds the position of the field at path (strings are mapping keys,
// ints are sequence indexes) inside an object node: a field is where its key
// is written, a sequence item where the item starts. When the path leaves the
// document (a missing field), the nearest existing parent is used; the
// object's own position is its `kind:` line. The Pos has no File: a node
// does not know its file.
func Locate(obj *yaml.Node, path []any) Pos {
	pos, _ := walk(obj, path)
	return pos
}

// walk follows path from obj: the position of the last field or item it
// reached, and the node at the end of path (nil when path leaves the
// document).
func walk(obj *yaml.Node, path []any) (Pos, *yaml.Node) {
	pos := kindPosition(obj)
	cur := resolve(obj)
	for _, step := range path {
		switch s := step.(type) {
		case string:
			k, v := lookupPair(cur, s)
			if k == nil {
				return pos, nil
			}
			pos, cur = at(k), v
		case int:
			if cur == nil || cur.Kind != yaml.SequenceNode || s < 0 || s >= len(cur.Content) {
				return pos, nil
			}
			cur = resolve(cur.Content[s])
			pos = at(cur)
		default:
			return pos, nil
		}
	}
	return pos, cur
}

// Origin is where the user wrote an object, which is where findings about
// it point: the object's own document, the document of a source file a
// kustomize build took it from, or a template of a Helm chart.
type Origin struct {
	File string // display name, slash-separated
	// Path is the file on disk that holds Node as written, which a fix
	// edits (Stdin for standard input); empty when the object cannot be
	// edited where it is written: a chart's template, a generated object.
	Path string
	// Node is the object as written in File, with File's positions; nil
	// when no file holds the object (a kustomize generator made it).
	Node *yaml.Node
	At   Pos // where every finding points when Node is nil
	// Shift is subtracted from every line: a rendered Helm template is
	// numbered from the line after its "# Source:" comment.
	Shift int
	// Template, for an object rendered from a Helm chart in process, finds
	// where in the template a field of Node (the rendered object) was
	// written.
	Template TemplateMap
	// Rendered, with Template, is the rendered text Node was parsed from:
	// dslint fix shows its edits there, since it writes no template.
	Rendered []byte
}

// TemplateMap finds the template positions of a rendered document.
type TemplateMap interface {
	// Locate is where the field at path of the rendered object obj is
	// written in the template, Approximate when only a parent of it (or
	// the document) can be found there.
	Locate(obj *yaml.Node, path []any) Pos
	// Pos is where a line and column of the rendered document are in the
	// template.
	Pos(line, column int) Pos
}

// Locate is the position of the field at path, as Locate finds it in the
// written object, in File: a field the object does not have as written (a
// kustomize patch added it) points at its nearest parent there.
func (o Origin) Locate(path []any) Pos {
	if o.Node == nil {
		p := o.At
		p.File = o.File
		return p
	}
	if o.Template != nil {
		p := o.Template.Locate(o.Node, path)
		p.File = cmp.Or(p.File, o.File) // a partial the template includes
		return p
	}
	p := Locate(o.Node, path)
	return o.Pos(p.Line, p.Column)
}

// Pos is the position users read for a line and column of the input the
// object was read from: in File, Shift lines up.
func (o Origin) Pos(line, column int) Pos {
	if o.Template != nil {
		p := o.Template.Pos(line, column)
		p.File = cmp.Or(p.File, o.File)
		return p
	}
	return Pos{File: o.File, Line: max(line-o.Shift, 1), Column: column}
}

// writtenToken marks, in a finding's message, a value to show as the user
// wrote it: "⟦written:true⟧" becomes yes when the field at the finding's
// path is the plain scalar yes (YAML 1.1 reads it as true), and true where
// dslint has no text for it. Rules make it with result.as_written.
var writtenToken = regexp.MustCompile(`⟦written:([^⟧]*)⟧`)

// FillWritten replaces the tokens of msg with the scalar at path as written
// in the object (its fallback when path does not end at a scalar).
func (o Origin) FillWritten(path []any, msg string) string {
	if !strings.Contains(msg, "⟦written:") {
		return msg
	}
	text, ok := "", false
	if o.Node != nil {
		text, ok = scalarAt(o.Node, path)
	}
	return writtenToken.ReplaceAllStringFunc(msg, func(tok string) string {
		if ok {
			return text
		}
		return writtenToken.FindStringSubmatch(tok)[1]
	})
}

// scalarAt is the text of the scalar at path in obj, as written.
func scalarAt(obj *yaml.Node, path []any) (string, bool) {
	_, n := walk(obj, path)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

func at(n *yaml.Node) Pos { return Pos{Line: n.Line, Column: n.Column} }

func kindPosition(obj *yaml.Node) Pos {
	if k, _ := lookupPair(obj, "kind"); k != nil {
		return at(k)
	}
	return at(obj)
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// FormatPath writes a field path the way users read it:
// spec.template.spec.tolerations[1].operator, nodeSelector["kubernetes.io/os"].
func FormatPath(path []any) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			if !plainKey.MatchString(s) {
				fmt.Fprintf(&b, "[%s]", strconv.Quote(s))
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		default:
			fmt.Fprintf(&b, "[%v]", s)
		}
	}
	return b.String()
}
