// Package manifest reads YAML and JSON manifests into documents whose nodes
// carry file-wide line and column numbers, finds the Kubernetes objects in
// them, and turns a field path back into a position.
package manifest

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// File is one parsed input file.
type File struct {
	Name string       // display name, slash-separated
	Data []byte       // the bytes as read (BOM removed); never written back
	Docs []*yaml.Node // document nodes, in file order, with file-wide positions
	// SyntaxErrors are the documents that failed to parse; the documents
	// before and after them are still in Docs.
	SyntaxErrors []SyntaxError
	// Template is set when the file holds Helm template syntax and does not
	// parse as YAML: it is skipped, not reported as broken.
	Template bool
}

// SyntaxError is a YAML or JSON syntax error at a file-wide position.
type SyntaxError struct {
	Line, Column int
	Message      string
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse decodes every document of data. One decoder reads the whole file so
// that line numbers are file-wide. A syntax error stops a decoder for good and
// can take the documents before it along (the decoder reads ahead), so a file
// that fails is decoded again one document at a time, each document's lines
// shifted to file-wide ones: one broken document hides no other.
func Parse(name string, data []byte) *File {
	data = bytes.TrimPrefix(data, utf8BOM)
	f := &File{Name: name, Data: data}
	if docs, _, ok := decodeAll(data); ok {
		f.Docs = docs
		return f
	}
	for _, c := range splitDocuments(data) {
		docs, serr, ok := decodeAll(data[c.start:c.end])
		for _, d := range docs {
			shiftLines(d, c.line-1)
		}
		f.Docs = append(f.Docs, docs...)
		if !ok {
			// An error at the end of the input is marked on the line after
			// the last one; the last line is where the user can look.
			serr.Line = min(serr.Line+c.line-1, lastLine(data))
			serr.Column = firstColumn(data, serr.Line)
			f.SyntaxErrors = append(f.SyntaxErrors, serr)
		}
	}
	f.Template = len(f.SyntaxErrors) > 0 && bytes.Contains(data, []byte("{{"))
	return f
}

// chunk is one document's bytes [start, end) beginning at a 1-based line.
type chunk struct{ start, end, line int }

// splitDocuments cuts data before every "---" marker line. A marker at the
// start of a line always ends a document in YAML, even a block scalar.
func splitDocuments(data []byte) []chunk {
	var out []chunk
	cur := chunk{line: 1}
	pos := 0
	for line := 1; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data) - pos
		}
		if pos > 0 && isDocumentMarker(data[pos:pos+end]) {
			cur.end = pos
			out = append(out, cur)
			cur = chunk{start: pos, line: line}
		}
		pos += end + 1
	}
	cur.end = len(data)
	return append(out, cur)
}

// decodeAll decodes documents until the end of the stream or the first
// syntax error; the error's line is relative to b.
func decodeAll(b []byte) (docs []*yaml.Node, serr SyntaxError, ok bool) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, serr, true
		}
		if err != nil {
			return docs, syntaxError(b, err), false
		}
		if !isEmptyDocument(&n) {
			docs = append(docs, &n)
		}
	}
}

var errLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the errors libyaml's parser (not its scanner) raises.
// Their marks are 0-based and the decoder adds 1 only for scanner errors, so
// these arrive one line early.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// syntaxError turns the decoder's "yaml: line N: msg" into a position. Reader
// errors (invalid UTF-8, control characters) carry no line: the offending byte
// is located instead.
func syntaxError(b []byte, err error) SyntaxError {
	msg := err.Error()
	if m := errLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++
		}
		return SyntaxError{Line: max(line, 1), Message: m[2]}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line, _ := firstBadByte(b)
	return SyntaxError{Line: line, Message: msg}
}

// lastLine is the number of the last line of data that holds anything, with
// lines broken as YAML breaks them: CR LF, a lone CR, LF, NEL, LS and PS.
func lastLine(data []byte) int {
	n, atBreak := 1, false
	for i, r := range string(data) {
		atBreak = false
		switch r {
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				continue
			}
			n, atBreak = n+1, true
		case '\n', '\u0085', '\u2028', '\u2029':
			n, atBreak = n+1, true
		}
	}
	if atBreak && n > 1 {
		n--
	}
	return n
}

// firstBadByte finds the first byte a YAML reader refuses: invalid UTF-8 or a
// control character other than tab, line feed and carriage return.
func firstBadByte(b []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size <= 1) || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return 1, 1
}

// isEmptyDocument is true for a document with nothing in it (only comments,
// or an empty document between two markers).
func isEmptyDocument(n *yaml.Node) bool {
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return true
	}
	c := n.Content[0]
	return c.Kind == yaml.ScalarNode && c.Tag == "!!null" && c.Value == ""
}

func isDocumentMarker(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r'
}

// firstColumn is the column of the first non-blank character of line, the
// best column there is for an error the parser reports by line only.
func firstColumn(data []byte, line int) int {
	text := lineText(data, line)
	return len(text) - len(bytes.TrimLeft(text, " \t")) + 1
}

// lineText returns the bytes of a 1-based line, without its line break.
func lineText(data []byte, line int) []byte {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	return bytes.TrimRight(data, "\r")
}

// shiftLines moves every node of a document decoded from the middle of a file
// down by offset lines, so its positions are file-wide.
func shiftLines(n *yaml.Node, offset int) {
	if offset == 0 {
		return
	}
	seen := map[*yaml.Node]bool{}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		n.Line += offset
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
}
