package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// aliasBomb is a "billion laughs" document: each of levels anchors is a
// sequence of width aliases to the one before, so the last one expands to
// width^levels scalars.
func aliasBomb(levels, width int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n")
	b.WriteString("  l0: &l0 [" + strings.TrimSuffix(strings.Repeat(`"lol",`, width), ",") + "]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), width), ","))
	}
	return b.String()
}

// nested is a flow sequence nested depth levels deep, on one line.
func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// onlyError returns the one syntax error of f, failing the test otherwise.
func onlyError(t *testing.T, f *File) Error {
	t.Helper()
	if len(f.SyntaxErrors) != 1 {
		t.Fatalf("syntax errors %+v, want one", f.SyntaxErrors)
	}
	return f.SyntaxErrors[0]
}

func TestAliasBombIsRefused(t *testing.T) {
	src := aliasBomb(9, 9) + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: after}\n"
	f := Parse("bomb.yaml", []byte(src))
	e := onlyError(t, f)
	// l0..l5 expand to 9^6 = 531,441 scalars in all; l6 adds 9 x 9^6.
	if !e.Limit || e.Line != 11 || e.Column != 12 || !strings.Contains(e.Message, "more than 1,000,000 nodes (alias *l5)") {
		t.Errorf("error %+v, want a limit at 11:12 naming alias *l5", e)
	}
	if len(f.Docs) != 1 {
		t.Errorf("%d documents kept, want the one after the bomb", len(f.Docs))
	}
}

func TestAliasesWithinTheLimit(t *testing.T) {
	f := Parse("ok.yaml", []byte(aliasBomb(5, 9)+"  merged: {<<: *l4}\n")) // 9^5 = 59,049 scalars
	if len(f.SyntaxErrors) > 0 || len(f.Docs) != 1 {
		t.Errorf("errors %+v, %d documents; want the document kept", f.SyntaxErrors, len(f.Docs))
	}
}

func TestRecursiveAliasIsRefused(t *testing.T) {
	for _, src := range []string{"a: &x [*x]\n", "a: &x {b: [1, {c: *x}]}\n", "a: &x\n  <<: *x\n"} {
		e := onlyError(t, Parse("r.yaml", []byte(src)))
		if !e.Limit || !strings.Contains(e.Message, "alias *x is inside the node its anchor &x names") {
			t.Errorf("%q: error %+v, want a recursive alias", src, e)
		}
	}
}

func TestNestingDepth(t *testing.T) {
	ok := Parse("ok.yaml", []byte("a: "+nested(MaxDepth)+"\n"))
	if len(ok.SyntaxErrors) > 0 || len(ok.Docs) != 1 {
		t.Errorf("%d levels: %+v, want the document kept", MaxDepth, ok.SyntaxErrors)
	}
	// The mapping is level 0 and its value level 1, so the bracket
	// at depth MaxDepth+1 is in column 4+MaxDepth.
	e := onlyError(t, Parse("deep.yaml", []byte("a: "+nested(MaxDepth+1)+"\n")))
	if !e.Limit || e.Line != 1 || e.Column != 4+MaxDepth || !strings.Contains(e.Message, "more than 1,000 levels") {
		t.Errorf("%d levels: %+v", MaxDepth+1, e)
	}
	// Aliases count: 600 levels under an alias 600 levels deep.
	deep := "a: &deep " + nested(600) + "\nb: " + strings.Repeat("[", 600) + "*deep" + strings.Repeat("]", 600) + "\n"
	e = onlyError(t, Parse("alias.yaml", []byte(deep)))
	if !e.Limit || e.Line != 2 || !strings.Contains(e.Message, "alias *deep nests collections more than") {
		t.Errorf("aliased depth: %+v", e)
	}
}

// TestParserDepthLimit: 20,000 levels are refused by the YAML parser
// itself, block or flow, as a syntax error on the line of the document.
func TestParserDepthLimit(t *testing.T) {
	for name, src := range map[string]string{
		"flow":    "---\n" + nested(20_000) + "\n",
		"block":   "---\n" + strings.Repeat("- ", 20_000) + "x\n",
		"mapping": "---\nx: " + strings.Repeat("{a: ", 20_000) + "\n",
	} {
		e := onlyError(t, Parse(name, []byte("apiVersion: v1\nkind: Pod\n"+src)))
		if e.Limit || e.Line != 4 || !strings.Contains(e.Message, "exceeded max depth of 10000") {
			t.Errorf("%s: %+v", name, e)
		}
	}
}

func TestBinaryIsNotATemplate(t *testing.T) {
	data := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.UintN(256))
	}
	copy(data, "a: {{ x }}\n\x00")
	f := Parse("bin.yaml", data)
	if f.Template {
		t.Error("a binary file with {{ in it is taken for a Helm template")
	}
	e := onlyError(t, f)
	if e.Line != 2 || e.Column != 1 || e.Message != "control characters are not allowed (byte 0x00)" {
		t.Errorf("%+v", e)
	}
}

func TestInvalidUTF8NamesTheByte(t *testing.T) {
	src := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n"
	e := onlyError(t, Parse("latin1.yaml", []byte(src)))
	if e.Line != 4 || e.Column != 12 || e.Message != "invalid trailing UTF-8 octet (byte 0xe9)" && e.Message != "incomplete UTF-8 octet sequence (byte 0xe9)" {
		t.Errorf("%+v", e)
	}
}

func TestLargeDocumentIsRefused(t *testing.T) {
	dense := "---\nbig: {" + strings.Repeat("a,", MaxDocumentNodes/2) + "a}\n" // a node every byte
	src := "a: 1\n" + dense + "---\nb: 2\n"
	f := Parse("big.yaml", []byte(src))
	e := onlyError(t, f)
	if !e.Limit || e.Line != 2 || !strings.Contains(e.Message, "document too large: some 2,500,0") || !strings.Contains(e.Message, "YAML nodes, more than the 2,500,000 dslint parses in one document") {
		t.Errorf("%+v", e)
	}
	if len(f.Docs) != 2 || f.Docs[1].Content[0].Line != 5 {
		t.Errorf("%d documents kept, want the two small ones at file-wide lines", len(f.Docs))
	}
	// Large block scalars (scripts in ConfigMaps) are one node each, up to
	// the first line with a quote; from there on their words are counted,
	// which still takes a JSON dashboard of several MB.
	text := "data:\n  run.sh: |\n" + strings.Repeat("    [ -d /x ] && { a, b, c: d, e: [1, 2, 3] }\n", MaxDocumentNodes/8)
	if f := Parse("cm.yaml", []byte(text)); len(f.SyntaxErrors) > 0 {
		t.Errorf("a large block scalar: %+v", f.SyntaxErrors)
	}
	panel := `
        {
          "datasource": "$datasource",
          "fieldConfig": {"defaults": {"unit": "bytes"}},
          "gridPos": {"h": 8, "w": 12, "x": 0, "y": 0},
          "targets": [{"expr": "sum(rate(node_cpu_seconds_total{mode!=\"idle\"}[5m]))", "refId": "A"}],
          "title": "CPU"
        },`
	dashboard := "data:\n  dashboard.json: |\n    {\"panels\": [" + strings.Repeat(panel, 12000) + "\n    {}]}\n"
	if f := Parse("dashboard.yaml", []byte(dashboard)); len(f.SyntaxErrors) > 0 || len(dashboard) < 3<<20 {
		t.Errorf("a %.1f MB dashboard: %+v", float64(len(dashboard))/(1<<20), f.SyntaxErrors)
	}
}

// countNodes counts the nodes of a document as decoded.
func countNodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += countNodes(k)
	}
	return c
}

// TestEstimateNodesIsHigh: the estimate a document's size is checked
// against is never below the nodes the decoder makes, on every manifest at
// hand (FuzzParse checks it on the rest).
func TestEstimateNodesIsHigh(t *testing.T) {
	forManifestsAtHand(t, func(path string, data []byte) { checkEstimate(t, path, data) })
	for _, s := range []string{"{a,b,c}", "[a: , b: ]", "- - - x", "a:\n  - \n  - ", "? a\n? b", "&a [*a]", "k: |\n  x\nl: [1, 2]", "- k: |\n    x\n  l: [1, 2]",
		"k: [\"a\n  b: |\n   x\", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n", "k: |\n  x\u2028l: [1, 2, 3, 4]", "k: |\n  x\rl: [1, 2, 3, 4]"} {
		checkEstimate(t, s, []byte(s))
	}
}

// forManifestsAtHand calls check with every file of the project's fixtures,
// examples and test data, and of the shared corpus of real manifests when it
// is there.
func forManifestsAtHand(t *testing.T, check func(path string, data []byte)) {
	t.Helper()
	dirs := []string{"../../fixtures", "../../examples", "../../testdata", "../../../shared/corpus/real"}
	files := 0
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			check(path, data)
			files++
			return nil
		})
	}
	if files < 50 {
		t.Errorf("%d files checked: fixtures missing?", files)
	}
	t.Logf("%d files checked", files)
}

// TestEstimateShortTexts: every text of up to four of YAML's indicators,
// line breaks (the Unicode ones too), quotes and a word is counted no lower
// than it decodes. A fuzzer in CI found one text counted low after
// thousands of runs; trying them all found more, such as "a:\u2028" and
// "[&a:]".
func TestEstimateShortTexts(t *testing.T) {
	alphabet := []string{":", " ", "-", "?", "{", "}", "[", "]", ",", "a", "0", "\n", "\r", "\t", "\u0085", "\u2028", "\u2029",
		"\ufeff", "|", ">", "&", "*", "!", "#", "'", `"`, "%", ".", `\`, "<"}
	var try func(text string, more int)
	try = func(text string, more int) {
		checkEstimate(t, text, []byte(text))
		if more == 0 || t.Failed() {
			return
		}
		for _, s := range alphabet {
			try(text+s, more-1)
		}
	}
	try("", 4)
}

func checkEstimate(t *testing.T, name string, data []byte) {
	t.Helper()
	data, bad := utf8Text(data) // as Parse counts and decodes it
	if bad != nil {
		return
	}
	for c := range splitDocuments(data) {
		doc := data[c.start:c.end]
		docs, _, ok := decodeAll(doc)
		if !ok {
			continue
		}
		nodes := 0
		for _, d := range docs {
			nodes += countNodes(d)
		}
		// The scan itself, whatever the size: small documents skip it.
		if est := scanNodes(doc); est < nodes {
			t.Errorf("%s:%d: estimated %d nodes, decoded %d", name, c.line, est, nodes)
		}
		if est := estimateNodes(doc); est < nodes {
			t.Errorf("%s:%d: estimateNodes gives %d nodes, decoded %d", name, c.line, est, nodes)
		}
	}
}

func TestTooManySyntaxErrors(t *testing.T) {
	src := strings.Repeat("---\n[\n", 150) + "---\nok: 1\n"
	f := Parse("broken.yaml", []byte(src))
	if len(f.SyntaxErrors) != MaxSyntaxErrors+1 || len(f.Docs) != 0 {
		t.Fatalf("%d errors and %d documents, want %d errors and nothing read past them", len(f.SyntaxErrors), len(f.Docs), MaxSyntaxErrors+1)
	}
	last := f.SyntaxErrors[MaxSyntaxErrors]
	if !last.Limit || last.Line != 2*MaxSyntaxErrors+1 || !strings.Contains(last.Message, "more than 100 documents") {
		t.Errorf("last error %+v", last)
	}
}

// TestPartsAreParse: a file parsed in parts has the documents and syntax
// errors, at the same lines, that Parse finds in it whole; each part's Line
// is where its Data starts in the file.
func TestPartsAreParse(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*partBytes; i++ {
		fmt.Fprintf(&b, "---\n# dslint:ignore x because %d\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\n", i, i)
		if i%5000 == 7 {
			b.WriteString("---\nkind: [\n")
		}
	}
	data := []byte(b.String())
	whole := Parse("f.yaml", data)
	var docs []int
	var errs []Error
	parts := 0
	for p := range documentParts("f.yaml", data) {
		parts++
		if got := lineText(data, p.Line); !bytes.Equal(got, lineText(p.Data, 1)) {
			t.Fatalf("part %d: Line %d is %q, Data starts with %q", parts, p.Line, got, lineText(p.Data, 1))
		}
		for _, d := range p.Docs {
			docs = append(docs, d.Content[0].Line)
		}
		errs = append(errs, p.SyntaxErrors...)
	}
	if parts < 3 {
		t.Errorf("%d parts, want the file cut", parts)
	}
	if len(docs) != len(whole.Docs) || fmt.Sprint(errs) != fmt.Sprint(whole.SyntaxErrors) {
		t.Fatalf("parts: %d documents, errors %v; whole: %d documents, errors %v", len(docs), errs, len(whole.Docs), whole.SyntaxErrors)
	}
	for i, d := range whole.Docs {
		if docs[i] != d.Content[0].Line {
			t.Fatalf("document %d at line %d in parts, %d whole", i, docs[i], d.Content[0].Line)
		}
	}
}

func TestLargeTemplateIsOnePart(t *testing.T) {
	data := []byte(strings.Repeat("---\na: 1\n", partBytes/8) + "---\nname: {{ .Release.Name }}-web\n")
	var parts []*File
	for p := range documentParts("t.yaml", data) {
		parts = append(parts, p)
	}
	if len(parts) != 1 || !parts[0].Template {
		t.Errorf("%d parts, template %v; want one, a template", len(parts), len(parts) > 0 && parts[0].Template)
	}
}

func TestFileSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, MaxFileBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	// One document larger than the limit: no stream, refused whole.
	_, err := readAll(Source{Path: path}, nil, ManifestLimits)
	if !errors.Is(err, errFileTooLarge) || err.Error() != "larger than 32 MiB; dslint reads at most 32 MiB per file" {
		t.Errorf("file: %v", err)
	}
	if _, err := ReadFile(path); !errors.Is(err, errFileTooLarge) {
		t.Errorf("ReadFile: %v", err)
	}
	// A reader that never ends (stdin from /dev/zero) stops at the limit.
	_, err = readAll(Source{Path: Stdin}, zeros{}, ManifestLimits)
	if !errors.Is(err, errFileTooLarge) {
		t.Errorf("stdin: %v", err)
	}
	if _, err := readAll(Source{Path: Stdin}, io.LimitReader(zeros{}, MaxFileBytes), ManifestLimits); err != nil {
		t.Errorf("stdin of exactly the limit: %v", err)
	}
	// A --nodes file may be larger when it is a List in block style; it
	// is not streamed.
	_, err = readAll(Source{Path: path}, nil, NodesLimits)
	if err == nil || err.Error() != "larger than 32 MiB, and not a List in block style (kubectl get nodes -o yaml), which dslint reads up to 128 MiB a group of nodes at a time" {
		t.Errorf("--nodes file of %d bytes: %v", MaxFileBytes+1, err)
	}
	_, err = readAll(Source{Path: Stdin}, zeros{}, NodesLimits)
	if err == nil || err.Error() != "larger than 128 MiB; dslint reads at most 128 MiB per --nodes file" {
		t.Errorf("--nodes stdin: %v", err)
	}
}

// readAll collects what Read yields: the parts, or the error that ends
// them.
func readAll(src Source, stdin io.Reader, limits Limits) ([]*File, error) {
	var parts []*File
	for f, err := range Read(src, stdin, limits) {
		if err != nil {
			return parts, err
		}
		parts = append(parts, f)
	}
	return parts, nil
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
