// Package manifest reads YAML and JSON manifests into documents whose nodes
// carry file-wide line and column numbers, finds the Kubernetes objects in
// them, and turns a field path back into a position.
package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// File is one parsed input file, or a part of one that Read yields: whole
// documents, or a List with a group of its items.
type File struct {
	Name string       // display name, slash-separated
	Data []byte       // the text as read, as UTF-8 without a BOM; never written back
	Docs []*yaml.Node // document nodes, in file order, with file-wide positions
	// SyntaxErrors are the documents that failed to parse or broke a limit,
	// at file-wide positions; the documents before and after them are
	// still in Docs.
	SyntaxErrors []Error
	// Template is set when the file holds Helm template syntax and does not
	// parse as YAML: it is skipped, not reported as broken.
	Template bool
	// Line is the line of the file that Data starts on: 1, but for the
	// parts of a file that Read yields one after the other.
	Line int
	// Helm are the documents of the file that a "# Source:" comment
	// attributes to a Helm chart's template, at file-wide lines.
	Helm HelmTemplates

	errorsLeft int  // how many more SyntaxErrors may be recorded
	stopped    bool // too many SyntaxErrors: the rest is not read
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// utf8Text returns data as UTF-8 without a byte order mark. YAML files may
// also be UTF-16 with a byte order mark (Windows PowerShell's > writes them,
// kubectl get nodes -o yaml > nodes.yaml among them); the decoder reads
// those, but splitting documents, reading comments and counting nodes take
// UTF-8, so they are converted first. UTF-16 that does not decode (a lone
// surrogate, an odd byte at the end) is an Error at the character, and
// data is returned as it is.
func utf8Text(data []byte) ([]byte, *Error) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		order = binary.BigEndian
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		order = binary.LittleEndian
	default:
		return bytes.TrimPrefix(data, utf8BOM), nil
	}
	units := data[2:]
	text := make([]byte, 0, len(units))
	bad := func(what string) ([]byte, *Error) {
		return data, &Error{Pos: positionAfter(text), Message: what + " (the file starts with a UTF-16 byte order mark)"}
	}
	for i := 0; i < len(units); i += 2 {
		if i+2 > len(units) {
			return bad("incomplete UTF-16 character")
		}
		r := rune(order.Uint16(units[i:]))
		if utf16.IsSurrogate(r) {
			if i+4 > len(units) {
				return bad("incomplete UTF-16 surrogate pair")
			}
			if r = utf16.DecodeRune(r, rune(order.Uint16(units[i+2:]))); r == utf8.RuneError {
				return bad("invalid UTF-16 surrogate pair")
			}
			i += 2
		}
		text = utf8.AppendRune(text, r)
	}
	return text, nil
}

// Parse decodes every document of data. One decoder reads the whole file so
// that line numbers are file-wide. A syntax error stops a decoder for good and
// can take the documents before it along (the decoder reads ahead), so a file
// that fails is decoded again one document at a time, each document's lines
// shifted to file-wide ones: one broken document hides no other. A document
// that breaks one of the limits (limits.go) is left out of Docs, with an
// Error that says which; after MaxSyntaxErrors of them, the rest of
// the file is not read.
func Parse(name string, data []byte) *File {
	return parse(name, data, MaxSyntaxErrors)
}

// parse is Parse recording at most maxErrors errors.
func parse(name string, data []byte, maxErrors int) *File {
	data, bad := utf8Text(data)
	f := &File{Name: name, Data: data, Line: 1, errorsLeft: maxErrors}
	if bad != nil {
		// Not decoded at all: the decoder would build every node before
		// the bad character, unbounded by the node count.
		bad.File = name
		f.SyntaxErrors = []Error{*bad}
		return f
	}
	if estimateNodes(data) <= MaxDocumentNodes {
		if docs, _, ok := decodeAll(data); ok {
			// "name: {{ .Release.Name }}" is valid YAML: a mapping whose
			// key is a mapping, which no manifest has.
			if bytes.Contains(data, []byte("{{")) && slices.ContainsFunc(docs, hasTemplateAction) {
				f.Template = true
				return f
			}
			f.add(docs)
			return f
		}
	}
	failed := false
	last := lastLine(data)
	for c := range splitDocuments(data) {
		if f.stopAt(c.line) {
			break
		}
		failed = f.parseDocument(data[c.start:c.end], c.line, last) || failed
	}
	f.Template = failed && bytes.Contains(data, []byte("{{")) && isText(data)
	return f
}

// parseDocument decodes one document that starts at line of a file whose
// last line is last, and reports whether it has a syntax error.
func (f *File) parseDocument(doc []byte, line, last int) (failed bool) {
	if n := estimateNodes(doc); n > MaxDocumentNodes {
		f.fail(Error{
			Pos: Pos{Line: line, Column: 1}, Limit: true,
			Message: fmt.Sprintf("document too large: some %s YAML nodes, more than the %s dslint parses in one document; split it into smaller documents", thousands(n), thousands(MaxDocumentNodes)),
		})
		return false
	}
	docs, serr, ok := decodeAll(doc)
	for _, d := range docs {
		shiftLines(d, line-1)
	}
	f.add(docs)
	if ok {
		return false
	}
	// An error at the end of the input is marked on the line after the
	// last one; the last line is where the user can look.
	serr.Line = min(serr.Line+line-1, last)
	if serr.Column == 0 {
		serr.Column = firstColumn(doc, serr.Line-line+1)
	}
	f.fail(serr)
	return true
}

// add keeps the documents within dslint's limits and reports the others.
func (f *File) add(docs []*yaml.Node) {
	for _, d := range docs {
		if f.stopAt(d.Line) {
			return
		}
		if problem := checkLimits(d); problem != nil {
			f.fail(*problem)
			continue
		}
		f.Docs = append(f.Docs, d)
	}
}

// fail records a syntax error, one of the file's MaxSyntaxErrors.
func (f *File) fail(e Error) {
	e.File = f.Name
	f.SyntaxErrors = append(f.SyntaxErrors, e)
	f.errorsLeft--
}

// stopAt is true once the file has had all the syntax errors it may have;
// the first time, it records that reading stopped at line.
func (f *File) stopAt(line int) bool {
	if f.errorsLeft > 0 {
		return false
	}
	if !f.stopped {
		f.stopped = true
		f.SyntaxErrors = append(f.SyntaxErrors, Error{
			Pos: Pos{File: f.Name, Line: max(line, 1), Column: 1}, Limit: true,
			Message: fmt.Sprintf("more than %d documents of this file do not parse or break a limit; dslint reads no further", MaxSyntaxErrors),
		})
	}
	return true
}

// hasTemplateAction is true when a Go template action ("{{ x }}") was read
// as YAML: a flow mapping whose key is a flow mapping.
func hasTemplateAction(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0 {
		for i := 0; i < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.MappingNode && k.Style&yaml.FlowStyle != 0 {
				return true
			}
		}
	}
	return slices.ContainsFunc(n.Content, hasTemplateAction)
}

// splitDocuments cuts data before every "---" marker line. A marker at the
// start of a line always ends a document in YAML, even a block scalar.
func splitDocuments(data []byte) iter.Seq[chunk] {
	return func(yield func(chunk) bool) {
		cur := chunk{line: 1}
		pos := 0
		for line := 1; pos < len(data); line++ {
			end := bytes.IndexByte(data[pos:], '\n')
			if end < 0 {
				end = len(data) - pos
			}
			if pos > 0 && isDocumentMarker(data[pos:pos+end]) {
				cur.end = pos
				if !yield(cur) {
					return
				}
				cur = chunk{start: pos, line: line}
			}
			pos += end + 1
		}
		cur.end = len(data)
		yield(cur)
	}
}

// decodeAll decodes documents until the end of the stream or the first
// syntax error; the error's line is relative to b.
func decodeAll(b []byte) (docs []*yaml.Node, serr Error, ok bool) {
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
// is located and named instead. The decoder leaves out the line of errors on
// the first line.
func syntaxError(b []byte, err error) Error {
	msg := err.Error()
	if m := errLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++
		}
		return Error{Pos: Pos{Line: max(line, 1)}, Message: m[2]}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	at, bad, found := firstBadByte(b)
	if !found || !readerProblems[msg] {
		return Error{Pos: Pos{Line: 1}, Message: msg}
	}
	return Error{Pos: at, Message: fmt.Sprintf("%s (byte 0x%02x)", msg, bad)}
}

// readerProblems are the errors of libyaml's reader about the bytes of a
// UTF-8 input: they carry no position, so the offending byte is found.
var readerProblems = map[string]bool{
	"invalid leading UTF-8 octet":        true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid trailing UTF-8 octet":       true,
	"invalid length of a UTF-8 sequence": true,
	"invalid Unicode character":          true,
	"control characters are not allowed": true,
}

// positionAfter is the line and column of a character that would follow
// text, with lines broken as YAML breaks them: CR LF, a lone CR, LF, NEL, LS
// and PS.
func positionAfter(text []byte) Pos {
	line, column := 1, 1
	for i, r := range string(text) {
		switch r {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				continue // the "\n" breaks the line
			}
			line, column = line+1, 1
		case '\n', '\u0085', '\u2028', '\u2029':
			line, column = line+1, 1
		default:
			column++
		}
	}
	return Pos{Line: line, Column: column}
}

// lastLine is the number of the last line of data that holds anything.
func lastLine(data []byte) int {
	p := positionAfter(data)
	if p.Column == 1 && p.Line > 1 {
		p.Line-- // data ends with a line break
	}
	return p.Line
}

// firstBadByte finds the first byte a YAML reader refuses: invalid UTF-8 or a
// control character other than tab, line feed and carriage return. found is
// false when there is none (line 1, column 1).
func firstBadByte(b []byte) (at Pos, bad byte, found bool) {
	at = Pos{Line: 1, Column: 1}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size <= 1) || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return at, b[i], true
		}
		if r == '\n' {
			at.Line, at.Column = at.Line+1, 1
		} else {
			at.Column++
		}
		i += size
	}
	return Pos{Line: 1, Column: 1}, 0, false
}

// isText is true for data a YAML reader reads whole: a binary file is
// broken YAML, never a Helm template.
func isText(data []byte) bool {
	_, _, found := firstBadByte(data)
	return !found
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
	if offset != 0 {
		remapLines(n, func(line int) int { return line + offset })
	}
}

// remapLines moves every node of a document to line to(its line). The
// decoder makes a tree: an alias is a node of its own, which points at the
// anchored node without holding it.
func remapLines(n *yaml.Node, to func(int) int) {
	n.Line = to(n.Line)
	for _, c := range n.Content {
		remapLines(c, to)
	}
}
