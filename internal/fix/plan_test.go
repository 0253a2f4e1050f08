package fix

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// edit makes an Edit from a path written a.b[0].c (ending "-" to append).
func edit(op, path string, value any) finding.Edit {
	var p []any
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			p = append(p, name)
		}
		for rest != "" {
			var i int
			n, _ := strings.CutSuffix(strings.SplitN(rest, "]", 2)[0], "")
			if err := json.Unmarshal([]byte(n), &i); err != nil {
				panic(path)
			}
			p = append(p, i)
			_, rest, _ = strings.Cut(rest, "[")
		}
	}
	return finding.Edit{Op: op, Path: p, Value: value}
}

var controlPlane = map[string]any{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}

func TestFileEdits(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		edits          []finding.Edit
	}{{
		name:  "remove a block pair, comments kept",
		in:    "kind: Pod\nspec:\n  tolerations:\n  - key: a # the a taint\n    operator: Exists\n    value: \"x\" # gone\n    # keep me\n    effect: NoSchedule\n",
		want:  "kind: Pod\nspec:\n  tolerations:\n  - key: a # the a taint\n    operator: Exists\n    # keep me\n    effect: NoSchedule\n",
		edits: []finding.Edit{edit("remove", "spec.tolerations[0].value", nil)},
	}, {
		name:  "remove the first key of an item",
		in:    "kind: Pod\nspec:\n  tolerations:\n  - value: x\n    key: a\n    operator: Exists\n",
		want:  "kind: Pod\nspec:\n  tolerations:\n  - key: a\n    operator: Exists\n",
		edits: []finding.Edit{edit("remove", "spec.tolerations[0].value", nil)},
	}, {
		name:  "remove in a flow mapping, middle and last",
		in:    "kind: Pod\nspec:\n  tolerations: [{key: a, operator: Exists, value: x}, {key: b, value: y, operator: Exists}]\n",
		want:  "kind: Pod\nspec:\n  tolerations: [{key: a, operator: Exists}, {key: b, operator: Exists}]\n",
		edits: []finding.Edit{edit("remove", "spec.tolerations[0].value", nil), edit("remove", "spec.tolerations[1].value", nil)},
	}, {
		name:  "remove an item, CRLF",
		in:    "kind: Pod\r\nspec:\r\n  tolerations:\r\n    - key: a\r\n      operator: Exists\r\n    - key: b\r\n      operator: Exists\r\n",
		want:  "kind: Pod\r\nspec:\r\n  tolerations:\r\n    - key: b\r\n      operator: Exists\r\n",
		edits: []finding.Edit{edit("remove", "spec.tolerations[0]", nil)},
	}, {
		name:  "remove every item removes the list",
		in:    "kind: Pod\nspec:\n  tolerations:\n  - key: a\n  containers: []\n",
		want:  "kind: Pod\nspec:\n  containers: []\n",
		edits: []finding.Edit{edit("remove", "spec.tolerations[0]", nil)},
	}, {
		name:  "replace keeps the quotes",
		in:    "kind: Pod\nspec:\n  tolerations:\n  - {key: a, operator: 'exists'}\n  - key: b\n    operator: \"equal\"\n    value: c\n",
		want:  "kind: Pod\nspec:\n  tolerations:\n  - {key: a, operator: 'Exists'}\n  - key: b\n    operator: \"Equal\"\n    value: c\n",
		edits: []finding.Edit{edit("replace", "spec.tolerations[0].operator", "Exists"), edit("replace", "spec.tolerations[1].operator", "Equal")},
	}, {
		name:  "quote as written",
		in:    "kind: Pod\nspec:\n  nodeSelector:\n    gpu: yes # really\n  tolerations: [{key: a, value: 0755}]\n",
		want:  "kind: Pod\nspec:\n  nodeSelector:\n    gpu: \"yes\" # really\n  tolerations: [{key: a, value: \"0755\"}]\n",
		edits: []finding.Edit{edit("quote", "spec.nodeSelector.gpu", nil), edit("quote", "spec.tolerations[0].value", nil)},
	}, {
		name:  "append to a block list in its style, no final newline",
		in:    "kind: DaemonSet\nspec:\n  template:\n    spec:\n      tolerations:\n        -   key: \"a\"\n            operator: \"Exists\"",
		want:  "kind: DaemonSet\nspec:\n  template:\n    spec:\n      tolerations:\n        -   key: \"a\"\n            operator: \"Exists\"\n        -   key: \"node-role.kubernetes.io/control-plane\"\n            operator: \"Exists\"\n            effect: \"NoSchedule\"",
		edits: []finding.Edit{edit("add", "spec.template.spec.tolerations.-", controlPlane)},
	}, {
		name:  "append to flow lists",
		in:    "kind: Pod\nspec:\n  tolerations: [{key: a, operator: Exists}]\n---\nkind: Pod\nspec:\n  tolerations: [\n    {key: a, operator: Exists}\n  ]\n",
		want:  "kind: Pod\nspec:\n  tolerations: [{key: a, operator: Exists}, {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]\n---\nkind: Pod\nspec:\n  tolerations: [\n    {key: a, operator: Exists},\n    {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}\n  ]\n",
		edits: []finding.Edit{edit("add", "spec.tolerations.-", controlPlane)},
	}, {
		name:  "create the list in the object's indentation",
		in:    "kind: Pod\nspec:\n  containers:\n  - name: a\n    image: b\n  # trailing comment\n\n",
		want:  "kind: Pod\nspec:\n  containers:\n  - name: a\n    image: b\n  tolerations:\n  - key: node-role.kubernetes.io/control-plane\n    operator: Exists\n    effect: NoSchedule\n  # trailing comment\n\n",
		edits: []finding.Edit{edit("add", "spec.tolerations.-", controlPlane)},
	}, {
		name:  "BOM kept",
		in:    "\ufeffkind: Pod\nspec:\n  tolerations:\n  - key: a\n    tolerationSeconds: 30\n",
		want:  "\ufeffkind: Pod\nspec:\n  tolerations:\n  - key: a\n",
		edits: []finding.Edit{edit("remove", "spec.tolerations[0].tolerationSeconds", nil)},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			in, want := withAPIVersion(tc.in), withAPIVersion(tc.want)
			var targets []Target
			for i, line := range strings.Split(in, "\n") {
				if strings.HasPrefix(strings.TrimPrefix(line, "\ufeff"), "apiVersion:") {
					fx := &finding.Fix{Edits: tc.edits, Line: i + 1, Column: 1}
					targets = append(targets, Target{Line: i + 1, Column: 1, Fixes: []*finding.Fix{fx}})
				}
			}
			res, err := File("x.yaml", []byte(in), targets)
			if err != nil {
				t.Fatal(err)
			}
			for _, tg := range targets {
				for _, fx := range tg.Fixes {
					if fx.Reason != "" {
						t.Errorf("not fixed: %s", fx.Reason)
					}
				}
			}
			if string(res.Data) != want {
				t.Errorf("got:\n%s\nwant:\n%s", res.Data, want)
			}
		})
	}
}

// withAPIVersion starts each object of a test's text with its apiVersion,
// in the text's line ending.
func withAPIVersion(s string) string {
	eol := "\n"
	if strings.Contains(s, "\r\n") {
		eol = "\r\n"
	}
	return strings.ReplaceAll(s, "kind: ", "apiVersion: v1"+eol+"kind: ")
}

// TestPlainString: a string is written plain only where dslint reads it
// back as the same string.
func TestPlainString(t *testing.T) {
	for s, want := range map[string]bool{
		"Exists": true, "node-role.kubernetes.io/control-plane": true, "NoSchedule": true,
		"yes": false, "On": false, "true": false, "null": false, "1.30": false, "0755": false,
		"a: b": false, "": false, "-x": false,
	} {
		if got := plainString(s); got != want {
			t.Errorf("plainString(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestFileTooLarge: a file dslint reads a part at a time is not held
// whole to be fixed.
func TestFileTooLarge(t *testing.T) {
	data := []byte(strings.Repeat("#\n", manifest.MaxFileBytes/2+1))
	res, err := File("big.yaml", data, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") || len(res.Data) != len(data) {
		t.Errorf("err = %v", err)
	}
}
