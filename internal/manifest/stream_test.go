package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// streamed are the limits of a stream of documents of up to 1 MiB, so that
// tests stream inputs of a few MiB.
var streamed = Limits{Whole: 1 << 20, Stream: true, what: "file"}

// checkDocuments fails t unless documents cuts data as splitDocuments
// does, line for line, reading it 16 bytes at a time: the documents larger
// than max marked tooLarge, without their text, the others whole.
func checkDocuments(t *testing.T, data []byte, max int) {
	t.Helper()
	var want []document
	for c := range splitDocuments(data) {
		d := document{text: data[c.start:c.end], line: c.line}
		if len(d.text) > max {
			d.text, d.tooLarge = nil, true
		}
		want = append(want, d)
	}
	docs := documents{r: bufio.NewReaderSize(bytes.NewReader(data), 16), max: max}
	var got []document
	for d := range docs.all() {
		got = append(got, d)
	}
	if docs.err != nil {
		t.Fatalf("documents of %q: %v", data, docs.err)
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d documents, splitDocuments cuts %d", data, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.line != w.line || g.tooLarge != w.tooLarge || !bytes.Equal(g.text, w.text) {
			t.Fatalf("%q: document %d at line %d (too large %v) %q; want line %d (too large %v) %q", data, i, g.line, g.tooLarge, g.text, w.line, w.tooLarge, w.text)
		}
	}
}

func TestDocumentsCutAsInMemory(t *testing.T) {
	long := strings.Repeat("x", 40)
	for _, s := range []string{
		"",
		"a: 1",
		"a: 1\n",
		"---\na: 1\n---\nb: 2\n",
		"a: 1\n---\n---\n--- \n---\t# c\n---\r\n---x\n ---\n-- -\n",
		"k: |\n  ---\n---\n" + long + "\n--- " + long + "\n" + long,
		"a\r\n---\r\nb\r\n",
		"\n\n---",
		long + long + long + "\n---\n" + long,
	} {
		for _, max := range []int{1 << 20, 40, 10, 0} {
			checkDocuments(t, []byte(s), max)
		}
	}
}

// readStreamed reads data as a stream with limits, from a file on disk and
// from stdin, and fails t unless both read alike; it returns the parts and
// the error that ended them.
func readStreamed(t *testing.T, data []byte, limits Limits) ([]*File, error) {
	t.Helper()
	if len(data) <= limits.Whole {
		t.Fatalf("%d bytes: not a stream", len(data))
	}
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	parts, err := readAll(Source{Path: path, Name: "s.yaml"}, nil, limits)
	fromStdin, stdinErr := readAll(Source{Path: Stdin, Name: "s.yaml"}, onlyReader{bytes.NewReader(data)}, limits)
	if a, b := describeParts(parts, err), describeParts(fromStdin, stdinErr); a != b {
		t.Fatalf("from the file:\n%s\nfrom stdin:\n%s", a, b)
	}
	return parts, err
}

// onlyReader hides everything of a reader but Read: stdin is no file.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// describeParts writes what a reader yielded: each part's place, its
// documents and errors (describeDocs).
func describeParts(parts []*File, err error) string {
	var b strings.Builder
	for _, f := range parts {
		fmt.Fprintf(&b, "part %s at line %d, %d bytes, template %v\n", f.Name, f.Line, len(f.Data), f.Template)
		b.WriteString(describeDocs([]*File{f}))
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// describeDocs writes the documents of parts node for node, each with the
// Helm template it names, and their errors, whatever the parts.
func describeDocs(parts []*File) string {
	var b strings.Builder
	for _, f := range parts {
		for _, d := range f.Docs {
			b.WriteString(dumpNode(d))
			file, shift, ok := f.Helm.At(d.Line)
			fmt.Fprintf(&b, "helm %q %d %v\n", file, shift, ok)
		}
		for _, e := range f.SyntaxErrors {
			fmt.Fprintf(&b, "error %s (limit %v)\n", e.Error(), e.Limit)
		}
	}
	return b.String()
}

// TestStreamReadsAsInMemory: a stream of documents is read with the
// documents, errors, positions and Helm templates that reading it in memory
// gives, a part of whole documents at a time.
func TestStreamReadsAsInMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf# a stream\n")
	for i := 0; b.Len() < 3*partBytes; i++ {
		fmt.Fprintf(&b, "---\n# Source: chart/templates/p%d.yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  tolerations:\n  - operator: Exists # dslint:ignore wildcard-toleration because %d\n", i%7, i, i)
		switch i % 5000 {
		case 7:
			b.WriteString("---\nkind: [\n")
		case 11:
			fmt.Fprintf(&b, "---\ndata:\n  big: |\n%s", strings.Repeat("    "+strings.Repeat("x", 60)+"\n", partBytes/64))
		}
	}
	data := []byte(b.String())
	parts, err := readStreamed(t, data, Limits{Whole: 2 << 20, Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	var inMemory []*File
	helm := findHelmTemplates(data)
	for f := range documentParts("s.yaml", data) {
		f.Helm = helm
		inMemory = append(inMemory, f)
	}
	if got, want := describeDocs(parts), describeDocs(inMemory); got != want {
		t.Fatalf("streamed:\n%.2000s\nin memory:\n%.2000s", got, want)
	}
	for _, f := range parts {
		if len(f.Data) > 2*streamPartBytes && len(f.Docs) > 1 {
			t.Errorf("part at line %d: %d bytes, %d documents; want parts of about %d bytes", f.Line, len(f.Data), len(f.Docs), streamPartBytes)
		}
	}
	text, _ := utf8Text(data)
	var joined []byte
	for _, f := range parts {
		if line := 1 + bytes.Count(joined, []byte("\n")); f.Line != line {
			t.Fatalf("part at line %d, its Data at line %d", f.Line, line)
		}
		joined = append(joined, f.Data...)
	}
	if !bytes.Equal(joined, text) {
		t.Errorf("the parts' Data are not the text")
	}
}

// TestStreamHelmTemplates: the "# Source:" comments of a stream are found
// part by part, at the stream's lines.
func TestStreamHelmTemplates(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 2*partBytes; i++ {
		fmt.Fprintf(&b, "---\n# Source: chart/templates/p%d.yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\n", i, i)
	}
	data := []byte(b.String())
	parts, err := readStreamed(t, data, streamed)
	if err != nil || len(parts) < 2 {
		t.Fatalf("%d parts, %v", len(parts), err)
	}
	lines := bytes.Split(data, []byte("\n"))
	for _, f := range parts {
		for _, d := range f.Docs {
			line := d.Content[0].Line // apiVersion, the line after the comment
			name := lines[line-2][len("# Source: "):]
			if file, shift, ok := f.Helm.At(line); !ok || file != string(name) || shift != line-1 {
				t.Fatalf("part at line %d: At(%d) = %q, %d, %v; want %q, %d", f.Line, line, file, shift, ok, name, line-1)
			}
		}
	}
}

// TestStreamLimits: a stream keeps the limits of its documents, and one
// that is not a stream of documents is refused as too large before
// anything of it is read.
func TestStreamLimits(t *testing.T) {
	pod := "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
	many := strings.Repeat(pod, 2*streamed.Whole/len(pod))
	big := "---\ndata:\n  a: |\n" + strings.Repeat("    x\n", streamed.Whole/6) + "b: [\n"
	tooLarge := "larger than 1 MiB; dslint reads at most 1 MiB per file"

	// The first document is too large: refused whole, nothing read.
	for name, data := range map[string]string{
		"one large document": big[len("---\n"):] + many,
		"no line break":      strings.Repeat("\x00", 2*streamed.Whole),
		"UTF-16":             "\xff\xfe" + strings.Repeat("a\x00:\x00 \x001\x00\n\x00", streamed.Whole),
	} {
		parts, err := readStreamed(t, []byte(data), streamed)
		if len(parts) > 0 || err == nil || err.Error() != tooLarge {
			t.Errorf("%s: %d parts, error %v; want none and %q", name, len(parts), err, tooLarge)
		}
	}

	// A later one is a limit error at its line, and the stream goes on.
	data := many + big + pod
	parts, err := readStreamed(t, []byte(data), streamed)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	var last int
	for _, f := range parts {
		for _, e := range f.SyntaxErrors {
			errs = append(errs, e.Error())
		}
		for _, d := range f.Docs {
			last = d.Content[0].Line
		}
	}
	bigLine := strings.Count(many, "\n") + 1
	want := fmt.Sprintf("s.yaml:%d:1: document too large: more than 1 MiB, the most dslint reads of one document; split it into smaller documents", bigLine)
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors %q, want %q", errs, want)
	}
	if wantLast := strings.Count(many+big, "\n") + 2; last != wantLast {
		t.Errorf("the last document at line %d, want %d", last, wantLast)
	}

	// Past MaxSyntaxErrors broken documents, the rest is not read.
	parts, err = readStreamed(t, []byte(strings.Repeat("---\n[\n", 2*streamed.Whole/6)+pod), streamed)
	errs = nil
	docs := 0
	for _, f := range parts {
		docs += len(f.Docs)
		for _, e := range f.SyntaxErrors {
			errs = append(errs, e.Message)
		}
	}
	if err != nil || docs != 0 || len(errs) != MaxSyntaxErrors+1 || !strings.Contains(errs[MaxSyntaxErrors], "dslint reads no further") {
		t.Errorf("%d documents, %d errors (%v); want %d errors, the last one saying reading stopped", docs, len(errs), err, MaxSyntaxErrors+1)
	}
}

// TestStreamTemplate: a part of a stream that is a Helm template ends the
// stream, marked Template.
func TestStreamTemplate(t *testing.T) {
	pod := "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
	data := strings.Repeat(pod, 3*partBytes/2/len(pod)) + "---\nname: {{ .Release.Name }}\nx: {\n" + strings.Repeat(pod, partBytes/len(pod))
	parts, err := readStreamed(t, []byte(data), streamed)
	if err != nil || len(parts) < 2 {
		t.Fatalf("%d parts, %v", len(parts), err)
	}
	for i, f := range parts {
		if f.Template != (i == len(parts)-1) {
			t.Errorf("part %d of %d at line %d: template %v", i, len(parts), f.Line, f.Template)
		}
	}
	if last := parts[len(parts)-1]; last.Line+lineCount(last.Data) >= lineCount([]byte(data)) {
		t.Errorf("the template part ends at line %d: the stream was read to its end", last.Line+lineCount(last.Data))
	}
}

// TestStreamReadError: a stream that fails in the middle yields the parts
// before the failure, then the error.
func TestStreamReadError(t *testing.T) {
	pod := "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
	data := strings.Repeat(pod, 3*partBytes/len(pod))
	failure := errors.New("input/output error")
	r := io.MultiReader(strings.NewReader(data), failingReader{failure})
	parts, err := readAll(Source{Path: Stdin, Name: "s.yaml"}, r, streamed)
	if !errors.Is(err, failure) || len(parts) < 3 {
		t.Fatalf("%d parts, error %v; want the parts read and %v", len(parts), err, failure)
	}
}

type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// TestListIsCheckedBeforeItIsYielded: a List that reads in parts but for
// its last is read whole, as one File, by Read: nothing of its parts is
// handed over first. One that reads in parts is handed over in parts.
func TestListIsCheckedBeforeItIsYielded(t *testing.T) {
	list := nodeList(16000, 0, "\n")
	if len(list) < 3*partBytes {
		t.Fatalf("the List has %d bytes, want several parts", len(list))
	}
	anchored := bytes.Replace(list, []byte("name: node-0\n"), []byte("name: &first node-0\n"), 1)
	aliased := bytes.Replace(anchored, []byte("name: node-15999\n"), []byte("name: *first\n"), 1)
	for name, c := range map[string]struct {
		data  []byte
		parts bool
	}{
		"in parts":                    {anchored, true},
		"the last item aliases first": {aliased, false},
	} {
		parts, err := readAll(Source{Path: Stdin, Name: "list.yaml"}, bytes.NewReader(c.data), ManifestLimits)
		if err != nil {
			t.Fatal(err)
		}
		if inParts := len(parts) > 1; inParts != c.parts {
			t.Errorf("%s: %d parts", name, len(parts))
		}
		var objs int
		for _, f := range parts {
			for _, d := range f.Docs {
				o, _ := Objects(d)
				objs += len(o)
			}
		}
		if objs != 16000 {
			t.Errorf("%s: %d objects, want each item once", name, objs)
		}
	}
}
