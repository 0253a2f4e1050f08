package manifest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// nodeList is a kubectl get nodes -o yaml List of n nodes, with lineBreak
// for line breaks, its items at column indent.
func nodeList(n, indent int, lineBreak string) []byte {
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString("# kubectl get nodes -o yaml\napiVersion: v1\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "%s- apiVersion: v1\n%s  kind: Node\n%s  metadata:\n%s    name: node-%d\n", pad, pad, pad, pad, i)
		fmt.Fprintf(&b, "%s    labels: {pool: p%d, kubernetes.io/hostname: node-%d}\n", pad, i%3, i)
		if i%4 == 1 {
			// A comment between items: the whole document has it as the
			// next item's head comment, a part may as a foot comment.
			fmt.Fprintf(&b, "# dslint:ignore all node %d\n", i)
		}
		fmt.Fprintf(&b, "%s  spec:\n%s    taints:\n%s    - {key: dedicated, value: \"p%d\", effect: NoSchedule}\n", pad, pad, pad, i%3)
		fmt.Fprintf(&b, "%s    podCIDR: |\n%s      10.0.%d.0/24\n", pad, pad, i)
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return []byte(strings.ReplaceAll(b.String(), "\n", lineBreak))
}

func TestListPartsReadAsTheWholeDocument(t *testing.T) {
	cases := map[string][]byte{
		"kubectl":           nodeList(40, 0, "\n"),
		"items indented":    nodeList(40, 2, "\n"),
		"CRLF":              nodeList(40, 0, "\r\n"),
		"no final newline":  bytes.TrimSuffix(nodeList(10, 0, "\n"), []byte("\n")),
		"no trailer":        append([]byte("kind: NodeList\n"), bytes.TrimSuffix(nodeList(10, 0, "\n"), []byte("kind: List\nmetadata:\n  resourceVersion: \"\"\n"))...),
		"empty dash line":   []byte("apiVersion: v1\nkind: List\nitems:\n-\n  kind: Node\n  apiVersion: v1\n- kind: Node\n  apiVersion: v1\n"),
		"anchor in an item": []byte("apiVersion: v1\nkind: List\nitems:\n- &n {kind: Node, apiVersion: v1}\n- kind: Node\n  apiVersion: v1\n  x: [&a 1, *a]\n"),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			for _, size := range []int{1, 200, 1000} {
				if size >= len(data) {
					continue
				}
				if !checkListParts(t, data, size) {
					t.Fatalf("parts of %d bytes: the List was not read in parts", size)
				}
			}
		})
	}
}

// TestListPartsGiveUp: a document that is not a List in block style, or
// whose parts would not read as the whole does, is not read in parts.
func TestListPartsGiveUp(t *testing.T) {
	cases := map[string]string{
		"not a List":                        "apiVersion: v1\nkind: ConfigMap\nitems:\n- a\n- b\n",
		"flow items":                        "apiVersion: v1\nkind: List\nitems: [{a: 1}, {b: 2}]\n",
		"JSON":                              `{"apiVersion": "v1", "kind": "List", "items": [{"a": 1}, {"b": 2}]}`,
		"an alias to an item":               "apiVersion: v1\nkind: List\nitems:\n- &n {kind: Node, apiVersion: v1}\n- *n\n",
		"an anchor in the List":             "apiVersion: v1\nkind: List\nx: &k {kind: Node, apiVersion: v1}\nitems:\n- *k\n- *k\n",
		"two items keys":                    "apiVersion: v1\nkind: List\nitems:\n- {kind: Node, apiVersion: v1}\n- {kind: Node, apiVersion: v1}\nitems: []\n",
		"a quoted scalar over an item line": "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  apiVersion: v1\n  a: \"x\n- y\"\n- {kind: Node, apiVersion: v1}\n",
		"a flow sequence over an item line": "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  apiVersion: v1\n  a: [1,\n- 2]\n- {kind: Node, apiVersion: v1}\n",
		"a lone CR":                         "apiVersion: v1\rkind: List\nitems:\n- {kind: Node, apiVersion: v1}\n- {kind: Node, apiVersion: v1}\n",
		"two documents":                     "apiVersion: v1\nkind: List\nitems:\n- {kind: Node, apiVersion: v1}\n- {kind: Node, apiVersion: v1}\n---\na: 1\n",
		"a syntax error":                    "apiVersion: v1\nkind: List\nitems:\n- {kind: Node, apiVersion: v1}\n- {kind: Node, apiVersion: v1\n",
		"a template":                        "apiVersion: v1\nkind: List\nitems:\n- {kind: Node, apiVersion: v1, name: {{ .x }}}\n- {kind: Node, apiVersion: v1}\n",
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if checkListParts(t, []byte(data), 1) {
				t.Fatalf("read in parts:\n%s", data)
			}
		})
	}
	// Small enough to parse whole.
	if checkListParts(t, nodeList(3, 0, "\n"), partBytes) {
		t.Fatal("a small List was read in parts")
	}
}

// TestListPartsOfManifestsAtHand: every manifest at hand read in parts (of
// one item each) reads as it does whole; the Lists among them (the example
// cluster's nodes) are read in parts.
func TestListPartsOfManifestsAtHand(t *testing.T) {
	var lists []string
	forManifestsAtHand(t, func(path string, data []byte) {
		if checkListParts(t, data, 1) {
			lists = append(lists, path)
		}
	})
	if !slices.Contains(lists, "../../examples/nodes.yaml") {
		t.Errorf("read in parts: %q; want examples/nodes.yaml among them", lists)
	}
	t.Logf("read in parts: %q", lists)
}

// checkListParts reads data with listParts and, when it reads it in parts,
// fails t unless they hold what parsing data whole gives: the same items,
// node for node at the same positions, the same comments, and every line
// of data in one part's Data, at the part's Line, whether the parts are
// kept as checked or parsed again. It reports whether data was read in
// parts.
func checkListParts(t *testing.T, data []byte, size int) bool {
	t.Helper()
	for _, keep := range []int{len(data), len(data) - 1} {
		if !checkListPartsKept(t, data, size, keep) {
			return false
		}
	}
	return true
}

func checkListPartsKept(t *testing.T, data []byte, size, keep int) bool {
	t.Helper()
	read, ok := listParts("list.yaml", data, size, keep)
	if !ok {
		return false
	}
	var parts []*File
	for f := range read {
		parts = append(parts, f)
	}
	text, _ := utf8Text(data)
	whole := Parse("list.yaml", text)
	if len(whole.SyntaxErrors) > 0 || len(whole.Docs) != 1 {
		t.Fatalf("read in %d parts, but whole it has %d documents, errors %v", len(parts), len(whole.Docs), whole.SyntaxErrors)
	}
	want, _ := Objects(whole.Docs[0])
	var got []Object
	var data2 []byte
	var comments []string
	for i, f := range parts {
		if len(f.Docs) != 1 {
			t.Fatalf("part %d has %d documents", i, len(f.Docs))
		}
		objs, _ := Objects(f.Docs[0])
		got = append(got, objs...)
		if line := 1 + bytes.Count(data2, []byte("\n")); f.Line != line {
			t.Fatalf("part %d starts at line %d, its Data at line %d", i, f.Line, line)
		}
		data2 = append(data2, f.Data...)
		comments = append(comments, commentLines(f.Docs[0])...)
	}
	if !bytes.Equal(data2, text) {
		t.Fatalf("the parts' Data are not the text:\n%q\n%q", data2, text)
	}
	if len(got) != len(want) {
		t.Fatalf("%d objects in parts, %d whole", len(got), len(want))
	}
	for i := range want {
		if g, w := dumpNode(got[i].Node), dumpNode(want[i].Node); g != w {
			t.Fatalf("object %d in parts:\n%s\nwhole:\n%s", i, g, w)
		}
	}
	slices.Sort(comments)
	wantComments := slices.Sorted(slices.Values(commentLines(whole.Docs[0])))
	if !slices.Equal(slices.Compact(comments), slices.Compact(wantComments)) {
		t.Fatalf("comments in parts %q, whole %q", comments, wantComments)
	}
	return true
}

// dumpNode writes a node and everything under it, with positions, but not
// its comments, which the parser attaches to the nodes nearby.
func dumpNode(n *yaml.Node) string {
	var b strings.Builder
	var walk func(*yaml.Node, int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%*s%d %s %q &%s style %d at %d:%d\n", 2*depth, "", n.Kind, n.Tag, n.Value, n.Anchor, n.Style, n.Line, n.Column)
		if n.Kind == yaml.AliasNode {
			return
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// commentLines are the comment lines of a document, trimmed.
func commentLines(n *yaml.Node) []string {
	var out []string
	for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
		for l := range strings.SplitSeq(c, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
	}
	for _, c := range n.Content {
		out = append(out, commentLines(c)...)
	}
	return out
}
