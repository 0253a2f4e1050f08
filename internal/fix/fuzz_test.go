package fix

import (
	"bytes"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// paths lists the path of every field and item of n, depth first.
func paths(n *yaml.Node, at []any, out *[][]any) {
	if len(*out) > 500 || len(at) > 20 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := append(append([]any{}, at...), n.Content[i].Value)
			*out = append(*out, p)
			paths(n.Content[i+1], p, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := append(append([]any{}, at...), i)
			*out = append(*out, p)
			paths(c, p, out)
		}
	}
}

// FuzzFile makes one edit, chosen by pick and op, at a field of an object
// of any text: whatever it is, File either refuses it and leaves the text
// as it was, or returns text that parses to as many objects.
func FuzzFile(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: Pod\nspec:\n  tolerations:\n  - key: a # c\n    value: yes\n",
		"apiVersion: v1\nkind: Pod\nspec: {tolerations: [{key: a, value: 'x'}, {key: b}]}\n",
		"\ufeffapiVersion: v1\r\nkind: Pod\r\nspec:\r\n  tolerations:\r\n    - key: \"a\"\r\n      operator: Exists",
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  spec:\n    containers: []\n",
		"apiVersion: v1\nkind: Pod\nspec: &s\n  tolerations: [a]\nother: *s\n",
	} {
		f.Add([]byte(seed), uint16(7), uint8(0))
	}
	ops := []string{finding.EditRemove, finding.EditReplace, finding.EditQuote, finding.EditAdd}
	f.Fuzz(func(t *testing.T, data []byte, pick uint16, op uint8) {
		if len(data) > 4096 {
			return
		}
		parsed := manifest.Parse("f.yaml", data)
		var objs []manifest.Object
		for _, d := range parsed.Docs {
			o, _ := manifest.Entries(d)
			objs = append(objs, o...)
		}
		if len(objs) == 0 || len(parsed.SyntaxErrors) > 0 {
			return
		}
		obj := objs[int(pick)%len(objs)]
		var all [][]any
		paths(obj.Node, nil, &all)
		if len(all) == 0 {
			return
		}
		e := finding.Edit{Op: ops[int(op)%len(ops)], Path: all[int(pick)/len(objs)%len(all)]}
		switch e.Op {
		case finding.EditReplace:
			e.Value = "Exists"
		case finding.EditAdd:
			e.Path = append(e.Path, "-")
			e.Value = map[string]any{"key": "k", "operator": "Exists"}
		}
		fx := &finding.Fix{Edits: []finding.Edit{e}, Line: obj.Node.Line, Column: obj.Node.Column}
		res, err := File("f.yaml", data, Targets([]*finding.Fix{fx}))
		if err != nil || len(res.Applied) == 0 {
			if !bytes.Equal(res.Data, data) && err != nil {
				t.Fatalf("refused, but changed the text: %v", err)
			}
			return
		}
		again := manifest.Parse("f.yaml", res.Data)
		if len(again.SyntaxErrors) > 0 {
			t.Fatalf("%s %v made text that does not parse: %s\n%s", e.Op, e.Path, again.SyntaxErrors[0].Message, res.Data)
		}
		n := 0
		for _, d := range again.Docs {
			o, _ := manifest.Entries(d)
			n += len(o)
		}
		if n != len(objs) {
			t.Fatalf("%s %v: %d objects, was %d\n%s", e.Op, e.Path, n, len(objs), res.Data)
		}
	})
}
