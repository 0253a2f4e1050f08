package manifest

import (
	"bytes"
	"iter"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A node inventory is one YAML document: kubectl get nodes -o yaml prints a
// List, its nodes under "items:". Parsed whole, a large cluster's List is
// bounded by MaxDocumentNodes, takes some twenty times its size in memory
// and is parsed on one core. listParts parses it a group of items at a
// time instead, on every core, each group with the List's own keys around
// it, so that each part is a List of some of the items, with the positions
// they have in the file.
//
// Cutting YAML text at the lines that start an item is exact only when no
// item's scalar or flow collection runs over such a line, and no item
// refers to an anchor of another: each part is checked against the file
// (its keys where the List's are, each item at its line). Every part is
// checked before the first is handed over, so that a List one part of
// which differs, or does not parse, is read whole by Read before anything
// of it is used.

// listLayout is where the parts of a List document are in its text.
type listLayout struct {
	header  []byte // the text up to and including the "items:" line
	trailer []byte // the text after the last item
	// groups are runs of whole items of about the part size, each from
	// its first item's "-" line (the first group from the header on) to
	// the next group's.
	groups []chunk
	indent int // the column of the items' "-", from 0
	// trailerLine is the line the trailer starts on, or the line after
	// the last one when there is no trailer.
	trailerLine int
	keys        []*yaml.Node // the List's own keys, at file-wide lines
}

// listParts reads data, when it is one List document in block style larger
// than size, a group of about size bytes of items at a time: each File
// holds one document, the List with some of its items, and as Data the
// lines of those items (the first part's also the lines before them, the
// last part's those after). ok is false when data is not such a List, or
// when a part would not read as the whole document reads. Every part is
// parsed and checked before ok is known. A List of at most keep bytes
// (keepParsedBytes) keeps its parts as they were parsed then; a larger one
// is parsed again as it is yielded, since keeping its parts would take the
// memory that reading a List in parts saves.
func listParts(name string, data []byte, size, keep int) (parts iter.Seq[*File], ok bool) {
	data, bad := utf8Text(data)
	if bad != nil || len(data) <= size {
		return nil, false
	}
	l, ok := layoutList(data, size)
	if !ok {
		return nil, false
	}
	var kept []*File
	for f := range l.parseGroups(name, data) {
		if f == nil {
			return nil, false
		}
		if len(data) <= keep {
			kept = append(kept, f)
		}
	}
	if kept != nil {
		return slices.Values(kept), true
	}
	return func(yield func(*File) bool) {
		for f := range l.parseGroups(name, data) {
			if f == nil {
				panic("a part of a List read differently when parsed again")
			}
			if !yield(f) {
				return
			}
		}
	}, true
}

// parseGroups parses the groups of items of the List ahead on every core
// and yields them in order: each as a File, or nil when it does not read
// as the whole document reads.
func (l *listLayout) parseGroups(name string, data []byte) iter.Seq[*File] {
	last := len(l.groups) - 1
	groups := func(yield func(int) bool) {
		for i := range l.groups {
			if !yield(i) {
				return
			}
		}
	}
	parse := func(i int) *File { return l.parse(name, data, l.groups[i], i == 0, i == last) }
	return func(yield func(*File) bool) {
		for _, f := range ahead(groups, parse) {
			if !yield(f) {
				return
			}
		}
	}
}

const (
	// keepParsedBytes is the largest List whose parts listParts keeps as
	// it parsed them to check them, rather than parse them twice. make
	// bench's 16 MB List of 5,000 Nodes: 0.8 s of CPU less, 40 MiB more
	// at its peak; a List this size, kept, takes about what reading it
	// whole would (MaxFileBytes).
	keepParsedBytes = MaxFileBytes
	// maxListKeysBytes is the most text a List may have outside its items
	// to be read in parts: every part parses it again.
	maxListKeysBytes = 64 << 10
	// maxItemBytes is the largest item a List read in parts may have (a
	// Node takes some 5 to 20 KiB): a part, parsed, takes some twenty
	// times its size in memory.
	maxItemBytes = 1 << 20
)

// layoutList finds the header, items and trailer of a List document in
// block style, the first line of data being line 1, groups its items into
// runs of about size bytes, and checks that its own keys parse by
// themselves.
func layoutList(data []byte, size int) (l listLayout, ok bool) {
	if bytes.Contains(data, []byte("{{")) || hasOtherLineBreaks(data) {
		return l, false
	}
	l.indent = -1
	trailerStart := len(data)
	line := 1
	for pos := 0; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := pos + end + 1
		if end < 0 {
			end, next = len(data)-pos, len(data)
		}
		text := data[pos : pos+end]
		if l.header == nil {
			if string(bytes.TrimRight(text, " \t\r")) == "items:" {
				l.header = data[:next]
			}
			pos = next
			continue
		}
		if l.indent < 0 {
			// The first item sets the column of every "-".
			if rest := bytes.TrimLeft(text, " "); !isBlankLine(rest) {
				l.indent = len(text) - len(rest)
			}
		}
		switch itemLine(text, l.indent) {
		case itemStart:
			if n := len(l.groups); n == 0 || pos-l.groups[n-1].start >= size {
				if n > 0 {
					l.groups[n-1].end = pos
				}
				l.groups = append(l.groups, chunk{start: pos, line: line})
			}
		case itemsEnd:
			trailerStart = pos
			next = len(data) // stop
		}
		pos = next
	}
	if len(l.groups) == 0 || len(l.header)+len(data)-trailerStart > maxListKeysBytes {
		return l, false
	}
	// Comments and blank lines before the first item go with it.
	l.groups[0].start, l.groups[0].line = len(l.header), lineCount(l.header)+1
	l.groups[len(l.groups)-1].end = trailerStart
	for _, g := range l.groups {
		if g.end-g.start > size+maxItemBytes {
			return l, false
		}
	}
	l.trailer = data[trailerStart:]
	l.trailerLine = lineCount(data[:trailerStart]) + 1
	return l, l.checkKeys()
}

// What a line after "items:" is to a List whose items' "-" are at indent.
const (
	itemStart = iota // an item's "-" line
	itemsEnd         // the first line after the items
	itemMore         // a line inside an item, a blank line or a comment
)

func itemLine(text []byte, indent int) int {
	text = bytes.TrimRight(text, "\r\n")
	rest := bytes.TrimLeft(text, " ")
	if isBlankLine(rest) {
		return itemMore
	}
	at := len(text) - len(rest)
	dash := rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t')
	switch {
	case at == indent && dash:
		return itemStart
	case at <= indent:
		return itemsEnd
	}
	return itemMore
}

// isBlankLine is true for a line (its indentation cut) with nothing but
// blanks or a comment.
func isBlankLine(rest []byte) bool {
	rest = bytes.TrimSpace(rest)
	return len(rest) == 0 || rest[0] == '#'
}

// hasOtherLineBreaks is true when data breaks a line other than with LF or
// CR LF: a lone CR, NEL, LS or PS, which YAML counts and layoutList does not.
func hasOtherLineBreaks(data []byte) bool {
	return bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029")) ||
		bytes.Count(data, []byte("\r")) != bytes.Count(data, []byte("\r\n"))
}

// lineCount is the number of lines of text, a last line without a line
// break counted.
func lineCount(text []byte) int {
	n := bytes.Count(text, []byte("\n"))
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// checkKeys parses the List without its items. It must be a List (as
// Objects reads one) whose one "items" key is the header's last line, with
// no anchor an item could refer to; its keys are kept to check each part by.
func (l *listLayout) checkKeys() bool {
	text := append(append([]byte{}, l.header...), l.trailer...)
	docs, _, ok := decodeAll(text)
	if !ok || len(docs) != 1 {
		return false
	}
	l.remap(docs[0], text, nil)
	obj, ok := asObject(docs[0].Content[0])
	if !ok || !strings.HasSuffix(obj.Kind, "List") || hasAnchor(obj.Node) {
		return false
	}
	itemsKeys := 0
	for i := 0; i < len(obj.Node.Content); i += 2 {
		k, v := obj.Node.Content[i], obj.Node.Content[i+1]
		if k.Value == "items" {
			itemsKeys++
			if k.Line != lineCount(l.header) || k.Column != 1 || v.Kind != yaml.ScalarNode || v.Tag != "!!null" {
				return false
			}
		}
		l.keys = append(l.keys, k)
	}
	return itemsKeys == 1
}

func hasAnchor(n *yaml.Node) bool {
	if n.Anchor != "" {
		return true
	}
	for _, c := range n.Content {
		if hasAnchor(c) {
			return true
		}
	}
	return false
}

// parse parses the List with the items of g, or returns nil when it does
// not read as the whole document would: a syntax error, a limit, a key of
// the List's moved, or an item missing or not at its line.
func (l *listLayout) parse(name string, data []byte, g chunk, first, last bool) *File {
	items := data[g.start:g.end]
	text := make([]byte, 0, len(l.header)+len(items)+len(l.trailer))
	text = append(append(append(text, l.header...), items...), l.trailer...)
	if estimateNodes(text) > MaxDocumentNodes {
		return nil
	}
	docs, _, ok := decodeAll(text)
	if !ok || len(docs) != 1 || checkLimits(docs[0]) != nil {
		return nil
	}
	l.remap(docs[0], text, &g)
	root := docs[0].Content[0]
	if root.Kind != yaml.MappingNode || len(root.Content) != 2*len(l.keys) {
		return nil
	}
	var seq *yaml.Node
	for i, want := range l.keys {
		k := root.Content[2*i]
		if k.Value != want.Value || k.Line != want.Line || k.Column != want.Column {
			return nil
		}
		if k.Value == "items" {
			seq = root.Content[2*i+1]
		}
	}
	if seq == nil || seq.Kind != yaml.SequenceNode || seq.Style&yaml.FlowStyle != 0 {
		return nil
	}
	var want []int // the lines of the items' "-"
	line := g.line
	for text := range bytes.Lines(items) {
		if itemLine(text, l.indent) == itemStart {
			want = append(want, line)
		}
		line++
	}
	if len(seq.Content) != len(want) {
		return nil
	}
	for i, it := range seq.Content {
		// An item's node is its content, one column after its "- ", or,
		// for an item with nothing on the "-" line, further down.
		if it.Line < want[i] || (it.Line == want[i] && it.Column <= l.indent+1) {
			return nil
		}
		if i+1 < len(want) && it.Line >= want[i+1] {
			return nil
		}
	}
	f := &File{Name: name, Docs: docs, Line: g.line}
	start, end := g.start, g.end
	if first {
		start, f.Line = 0, 1
	}
	if last {
		end = len(data)
	}
	f.Data = data[start:end]
	return f
}

// remap moves the nodes of a document parsed from text (the header, the
// items of g when g is not nil, the trailer) to the lines of the file.
func (l *listLayout) remap(doc *yaml.Node, text []byte, g *chunk) {
	headerLines := lineCount(l.header)
	itemLines, itemsLine := 0, 0
	if g != nil {
		itemLines = lineCount(text[len(l.header) : len(text)-len(l.trailer)])
		itemsLine = g.line
	}
	remapLines(doc, func(line int) int {
		switch {
		case line <= headerLines:
			return line
		case line <= headerLines+itemLines:
			return itemsLine + line - headerLines - 1
		default:
			return l.trailerLine + line - headerLines - itemLines - 1
		}
	})
}
