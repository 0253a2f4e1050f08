package fix

import (
	"bytes"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// text is a file's text as the parser read it (UTF-8, without a byte
// order mark), indexed by line: the parser's positions become byte offsets
// here, and the edits are regions of it.
type text struct {
	data  []byte
	lines []int  // the offset each line starts at; lines[0] is line 1
	eol   string // the line ending the file uses: "\r\n" or "\n"
}

func newText(data []byte) *text {
	t := &text{data: data, lines: []int{0}, eol: "\n"}
	for i, b := range data {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		t.eol = "\r\n"
	}
	return t
}

// lineStart is the offset of the first byte of line (1-based).
func (t *text) lineStart(line int) int {
	if line < 1 {
		return 0
	}
	if line > len(t.lines) {
		return len(t.data)
	}
	return t.lines[line-1]
}

// lineEnd is the offset just past line's line break (the end of the text
// on the last line).
func (t *text) lineEnd(line int) int {
	if line >= len(t.lines) {
		return len(t.data)
	}
	return t.lines[line]
}

// line is the text of line without its line break.
func (t *text) line(line int) []byte {
	b := t.data[t.lineStart(line):t.lineEnd(line)]
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lineCount is the number of lines; a final line break starts no line.
func (t *text) lineCount() int {
	n := len(t.lines)
	if n > 1 && t.lines[n-1] == len(t.data) {
		n--
	}
	return n
}

// offset is where the parser's line and column (1-based, in characters)
// are; false when they are outside the text.
func (t *text) offset(line, column int) (int, bool) {
	if line < 1 || line > len(t.lines) || column < 1 {
		return 0, false
	}
	text := t.line(line)
	at := 0
	for c := 1; c < column; c++ {
		if at >= len(text) {
			return 0, false
		}
		_, size := utf8.DecodeRune(text[at:])
		at += size
	}
	return t.lineStart(line) + at, true
}

// at is the offset where node n starts.
func (t *text) at(n *yaml.Node) (int, bool) { return t.offset(n.Line, n.Column) }

// position is the line and column (1-based, in characters) of offset.
func (t *text) position(offset int) (line, column int) {
	lo, hi := 0, len(t.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lines[mid] <= offset {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, utf8.RuneCount(t.data[t.lines[lo]:offset]) + 1
}

// indent is how many spaces line starts with, and false when the line is
// blank or holds only a comment: such lines belong to no block.
func (t *text) indent(line int) (int, bool) {
	text := t.line(line)
	n := 0
	for n < len(text) && text[n] == ' ' {
		n++
	}
	if n == len(text) || text[n] == '#' || text[n] == '\t' && len(bytes.TrimSpace(text)) == 0 {
		return n, false
	}
	return n, true
}

// onlySpaceBefore is true when nothing but spaces precedes offset on its
// line.
func (t *text) onlySpaceBefore(offset int) bool {
	line, _ := t.position(offset)
	return len(bytes.Trim(t.data[t.lineStart(line):offset], " ")) == 0
}

// blockEnd is the offset past the last line of a block that starts on
// line and whose own indentation is indent: the lines after it indented
// deeper (and, for a sequence written at its key's indentation, the
// further "- " items at that indentation) are part of it; blank and
// comment lines at its end are not.
func (t *text) blockEnd(line, indent int, indentless bool) int {
	last := line
	for l := line + 1; l <= t.lineCount(); l++ {
		n, content := t.indent(l)
		if !content {
			continue
		}
		text := t.line(l)
		if n > indent || indentless && n == indent && isDash(text[n:]) {
			last = l
			continue
		}
		break
	}
	return t.lineEnd(last)
}

func isDash(b []byte) bool {
	return len(b) > 0 && b[0] == '-' && (len(b) == 1 || b[1] == ' ')
}

// scalarEnd is the offset past the scalar n, which starts at start, when
// it is written on one line: a plain scalar is its value as written, a
// quoted one runs to its closing quote. Multi-line and block scalars have
// no end here.
func (t *text) scalarEnd(n *yaml.Node, start int) (int, bool) {
	d := t.data
	switch n.Style {
	case 0, yaml.FlowStyle:
		end := start + len(n.Value)
		if n.Value == "" || end > len(d) || string(d[start:end]) != n.Value {
			return 0, false
		}
		return end, true
	case yaml.DoubleQuotedStyle:
		for i := start + 1; i < len(d); i++ {
			switch d[i] {
			case '\\':
				i++
			case '"':
				return i + 1, true
			case '\n':
				return 0, false
			}
		}
	case yaml.SingleQuotedStyle:
		for i := start + 1; i < len(d); i++ {
			switch {
			case d[i] == '\'' && i+1 < len(d) && d[i+1] == '\'':
				i++
			case d[i] == '\'':
				return i + 1, true
			case d[i] == '\n':
				return 0, false
			}
		}
	}
	return 0, false
}

// flowEnd is the offset past the flow collection ({...} or [...]) that
// starts at start: its closing bracket, found by counting brackets
// outside quotes and comments.
func (t *text) flowEnd(start int) (int, bool) {
	d := t.data
	depth := 0
	for i := start; i < len(d); i++ {
		switch c := d[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case '"', '\'':
			end, ok := t.quotedEnd(i)
			if !ok {
				return 0, false
			}
			i = end - 1
		case '#':
			if i > 0 && (d[i-1] == ' ' || d[i-1] == '\t' || d[i-1] == '\n') {
				for i < len(d) && d[i] != '\n' {
					i++
				}
			}
		}
	}
	return 0, false
}

// quotedEnd is the offset past a quoted scalar starting at start, which
// may span lines in a flow collection.
func (t *text) quotedEnd(start int) (int, bool) {
	d := t.data
	q := d[start]
	for i := start + 1; i < len(d); i++ {
		switch {
		case q == '"' && d[i] == '\\':
			i++
		case q == '\'' && d[i] == '\'' && i+1 < len(d) && d[i+1] == '\'':
			i++
		case d[i] == q:
			return i + 1, true
		}
	}
	return 0, false
}

// nodeEnd is the offset past a node written in flow style or as a
// one-line scalar.
func (t *text) nodeEnd(n *yaml.Node) (int, bool) {
	start, ok := t.at(n)
	if !ok {
		return 0, false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return t.scalarEnd(n, start)
	case yaml.MappingNode, yaml.SequenceNode:
		if n.Style&yaml.FlowStyle != 0 && start < len(t.data) && (t.data[start] == '{' || t.data[start] == '[') {
			return t.flowEnd(start)
		}
	}
	return 0, false
}

// trimSpaceBefore is the offset after the last byte before i that is not
// white space (line breaks included).
func (t *text) trimSpaceBefore(i int) int {
	for i > 0 && (t.data[i-1] == ' ' || t.data[i-1] == '\t' || t.data[i-1] == '\n' || t.data[i-1] == '\r') {
		i--
	}
	return i
}
