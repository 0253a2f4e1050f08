package manifest

import (
	"bytes"
	"regexp"
)

// estimateNodes is an upper estimate of how many nodes decoding doc makes,
// found without decoding it, in one pass: decoding takes some 170 bytes a
// node, and a dense document ("{a,b,c,…}") has a node every byte. It counts
// every place a node can start (a word, a flow collection, a quote) and
// twice each indicator that can also make a collection or an empty value
// (": ", "- ", "{"), three times one that can make an empty key too ("?",
// ": " after no key, or after an anchor, alias, tag or quote, where ":" is
// an indicator even before a non-blank), so that it never counts fewer
// nodes than the decoder makes (FuzzParse checks it, and a test tries every
// short text of YAML's indicators). Only the text of block scalars (| and >)
// is skipped, one node whatever its length, since ConfigMaps carry large
// ones; quoted scalars and comments are counted word by word, since telling
// where they end takes a parser.
func estimateNodes(doc []byte) int {
	if len(doc) < smallDocument {
		return min(len(doc)*maxNodesPerByte+1, MaxDocumentNodes)
	}
	return scanNodes(doc)
}

// maxNodesPerByte bounds what scanNodes adds for one byte (":" or "?" not
// in a word add 3), so a text shorter than smallDocument cannot reach
// MaxDocumentNodes and needs no count: most files are far smaller.
const (
	maxNodesPerByte = 3
	smallDocument   = MaxDocumentNodes / maxNodesPerByte
)

// scanNodes is estimateNodes' count, byte by byte.
func scanNodes(doc []byte) int {
	doc = plainBreaks(doc)
	n := 1 // the document
	inWord := false
	plain := false // the word can be a plain scalar, where ":x" is text
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '\n':
			inWord = false
			if end, ok := blockScalarEnd(doc, i); ok {
				i = end - 1
			}
		case c == ' ' || c == '\t' || c == '\r':
			inWord = false
		case c == '{':
			n += 2
			inWord = false
		case c == '[' || c == ',':
			n++
			inWord = false
		case c == ']' || c == '}':
			inWord = false
		case c == ':' || c == '-' || c == '?':
			if i+1 == len(doc) || isBlank(doc[i+1]) || !inWord || !plain {
				n += 2 // an indicator, or a word it starts
				if c != '-' && !inWord {
					n++ // an empty key: ": x", "?"
				}
				inWord = false
			}
		case !inWord:
			n++
			inWord = true
			plain = c != '&' && c != '*' && c != '!' && c != '"' && c != '\''
		}
	}
	return n
}

// plainBreaks returns doc with each of YAML's other line breaks (a lone
// "\r", NEL, the Unicode line and paragraph separators) written as "\n",
// after spaces that keep every byte where it was, so that the count, which
// knows lines by "\n", sees the lines the decoder sees. doc itself is
// returned when it has none, as nearly every document.
func plainBreaks(doc []byte) []byte {
	if bytes.IndexByte(doc, '\r') < 0 && bytes.IndexByte(doc, 0xc2) < 0 && bytes.IndexByte(doc, 0xe2) < 0 {
		return doc // none of them can start here
	}
	var out []byte
	for i := 0; i < len(doc); i++ {
		n := otherBreak(doc[i:])
		if n == 0 {
			continue
		}
		if out == nil {
			out = bytes.Clone(doc)
		}
		copy(out[i:i+n-1], "  ")
		out[i+n-1] = '\n'
		i += n - 1
	}
	if out == nil {
		return doc
	}
	return out
}

// otherBreak is the length of the line break b starts with when it is one
// YAML knows besides "\n" and "\r\n", and 0 when it is not.
func otherBreak(b []byte) int {
	switch {
	case b[0] == '\r' && (len(b) == 1 || b[1] != '\n'):
		return 1
	case bytes.HasPrefix(b, []byte("\u0085")):
		return 2
	case bytes.HasPrefix(b, []byte("\u2028")), bytes.HasPrefix(b, []byte("\u2029")):
		return 3
	}
	return 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// blockHeader is a line that opens a block scalar in block context: a key
// or a sequence entry (or nothing) then | or >. Lines with quotes or flow
// indicators are never taken for one: inside a quoted or flow collection
// the rest is YAML to count, and a missed block scalar only counts high.
var blockHeader = regexp.MustCompile(`^( *)((?:- +|\? +)*)(?:[^\s#"'\[\]{},][^#"'\[\]{},]*:[ \t]+)?(?:[&!][^\s"'\[\]{},]*[ \t]+)*[|>][-+1-9]*[ \t]*(?:[ \t]#.*)?\r?$`)

// blockScalarEnd: when the line that ends at the line break nl is a block
// scalar header, the scalar's text is the lines after it indented deeper
// than the header's key or entry, and blank lines; blockScalarEnd returns
// where they end, or where the first of them with a quote starts: the
// "header" may be a line of a quoted scalar that the quote closes, with YAML
// after it to count.
func blockScalarEnd(doc []byte, nl int) (int, bool) {
	start := bytes.LastIndexByte(doc[:nl], '\n') + 1
	line := doc[start:nl]
	if bytes.IndexByte(line, '|') < 0 && bytes.IndexByte(line, '>') < 0 {
		return 0, false
	}
	m := blockHeader.FindSubmatchIndex(line)
	if m == nil {
		return 0, false
	}
	column := m[5] // after the indentation and any "- " and "? "
	i := nl + 1
	for i < len(doc) {
		j := i
		for j < len(doc) && doc[j] == ' ' {
			j++
		}
		if j < len(doc) && doc[j] != '\n' && doc[j] != '\r' && j-i <= column {
			break
		}
		end := len(doc)
		if k := bytes.IndexByte(doc[j:], '\n'); k >= 0 {
			end = j + k + 1
		}
		if bytes.ContainsAny(doc[j:end], `"'`) {
			break
		}
		i = end
	}
	return i, true
}
