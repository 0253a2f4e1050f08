package manifest

import (
	"bytes"
	"testing"
)

// yamlLines counts lines the way a YAML parser does: CR LF, a lone CR, LF,
// NEL, LS and PS each end a line.
func yamlLines(data []byte) int {
	s := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	n := 1
	for _, r := range s {
		switch r {
		case '\n', '\r', '\u0085', '\u2028', '\u2029':
			n++
		}
	}
	return n
}

// FuzzParse feeds arbitrary bytes to the loader: it must never panic, and
// every position it reports must lie inside the input.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  tolerations:\n    - operator: Exists\n",
		"---\na: 1\n---\nkind: [\n---\napiVersion: v1\nkind: List\nitems:\n  - {apiVersion: v1, kind: Pod}\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}}",
		"\xef\xbb\xbfapiVersion: v1\r\nkind: Pod\r\n",
		"a: &x [*x]\n",
		"a: &a {b: *a}\n<<: *a\n",
		"{{ .Values.x }}\n",
		"\tkind: Pod\n",
		"- a\n- b\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Parse("fuzz.yaml", data)
		lines := yamlLines(data)
		for _, e := range file.SyntaxErrors {
			if e.Line < 1 || e.Line > lines || e.Column < 1 {
				t.Fatalf("syntax error at %d:%d outside %d lines", e.Line, e.Column, lines)
			}
		}
		for _, d := range file.Docs {
			objs, _ := Objects(d)
			for _, o := range objs {
				for _, path := range [][]any{nil, {"metadata", "name"}, {"spec", "template", "spec", "tolerations", 0, "key"}, {"items", 3}} {
					if p := Locate(o.Node, path); p.Line < 1 || p.Line > lines {
						t.Fatalf("Locate(%v) = %d:%d outside %d lines", path, p.Line, p.Column, lines)
					}
				}
			}
		}
	})
}
