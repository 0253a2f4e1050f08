package manifest

import "testing"

// FuzzParse feeds arbitrary bytes to the loader: it must never panic, every
// position it reports must lie inside the input, a List read in parts must
// read as it does whole, and a stream read a document at a time must be cut
// into the documents the text in memory is cut into.
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
		"k: |\n  x: [1, 2]\nl: [1, 2]\n- k: >-\n    x\n  l: {a, b}\n",
		"{a: \"x: |\n  y\", b: [1, 2]}\n? a\n: b\n",
		"a: 1\u2028b: [&x c:, 'd':e]\u0085- \rk: |\n  x\u2029l: 2\n",
		"\xff\xfea\x00:\x00 \x00[\x00?\x00]\x00\r\x00\n\x00#\x00 \x00\x3d\xd8\x00\xde", // UTF-16LE with a surrogate pair
		"apiVersion: v1\nitems:\n- kind: Node\n  apiVersion: v1\n  a: \"x\n- y\"\n# c\n-\n  {kind: Node, apiVersion: v1}\nkind: List\n",
		"kind: List\r\napiVersion: v1\r\nitems:\r\n  - &a {kind: Node, apiVersion: v1, b: |\r\n    - x\r\n    }\r\n  - [*a]\r\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkEstimate(t, "fuzz.yaml", data)
		checkListParts(t, data, 1)
		for _, max := range []int{len(data), len(data) / 3} {
			checkDocuments(t, data, max)
		}
		file := Parse("fuzz.yaml", data)
		findHelmTemplates(data).At(2)
		text, bad := utf8Text(data) // the lines are those of the text Parse read
		last := lastLine(text)
		if bad != nil {
			last = bad.Line // the bad character's line, where reading stopped
		}
		lines := last + 1 // a field may sit on the line after the last break
		for _, e := range file.SyntaxErrors {
			if e.Line < 1 || e.Line > last || e.Column < 1 {
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

func TestLastLine(t *testing.T) {
	cases := map[string]int{"": 1, "a": 1, "a\n": 1, "a\nb": 2, "a\r\nb\r\n": 2, "a\rb": 2, "a\n\n": 2, "{": 1}
	for in, want := range cases {
		if got := lastLine([]byte(in)); got != want {
			t.Errorf("lastLine(%q) = %d, want %d", in, got, want)
		}
	}
}
