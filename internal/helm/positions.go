package helm

import (
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// Positions finds where the fields of one rendered document were written
// in its template. A template is not YAML, and its lines are not the
// rendered ones (conditionals, ranges and includes add and remove lines),
// so a field is found by its text: the path is followed step by step, and
// each step must be written on exactly one line of the template within
// the block of the step before. Where a step is not written there (the
// value came from .Values through toYaml, or from an include), the
// position is the last step found, marked approximate; where no step is,
// the document's start in the template.
//
// A document that a template makes by including a named template
// (`{{ include "app.pod" . }}`) is looked for in the files that define
// the names it includes, when the template itself does not write it.
type Positions struct {
	src      []string // template lines
	out      []string // rendered lines
	partials []partial
	// values finds where a value of the chart (keys below .Values) is
	// set; nil where that is not known (a subchart's template).
	values func(path []any) (manifest.Pos, bool)
}

// partial is a file that defines a named template the template includes.
type partial struct {
	file string // as reports name it
	src  []string
}

// NewPositions maps the rendered document content of the template
// source.
func NewPositions(source []byte, content string) *Positions {
	return &Positions{src: strings.Split(string(source), "\n"), out: strings.Split(content, "\n")}
}

// withPartial adds a file that defines a template the template includes.
func (m *Positions) withPartial(file string, source []byte) {
	m.partials = append(m.partials, partial{file: file, src: strings.Split(string(source), "\n")})
}

var _ manifest.TemplateMap = (*Positions)(nil)

// Locate implements manifest.TemplateMap.
func (m *Positions) Locate(obj *yaml.Node, path []any) manifest.Pos {
	if p, step := m.locateIn(m.src, obj, path); step >= 0 {
		return m.withValue(m.src, p, path[step:])
	}
	// Not written in the template: in the one partial that writes most
	// of the path, if one does.
	best, bestStep, tie := manifest.Pos{}, -1, false
	for _, part := range m.partials {
		p, step := m.locateIn(part.src, obj, path)
		switch {
		case step > bestStep:
			p = m.withValue(part.src, p, path[step:])
			p.File = part.file
			best, bestStep, tie = p, step, false
		case step == bestStep && step >= 0:
			tie = true
		}
	}
	if bestStep >= 0 && !tie {
		return best
	}
	return m.start()
}

// locateIn follows path in the template lines src: the position found
// and the deepest step of the path found, -1 for none.
func (m *Positions) locateIn(src []string, obj *yaml.Node, path []any) (manifest.Pos, int) {
	lo, hi := 0, len(src)
	var found manifest.Pos
	foundStep, deepest := -1, len(path)
	var prev manifest.Pos
	for i := 0; i <= len(path); i++ {
		r := manifest.Locate(obj, path[:i])
		if i > 0 && r == prev {
			// The path leaves the rendered document here: the finding
			// is about the parent, exact if the parent was found.
			deepest = i - 1
			break
		}
		prev = r
		_, item := stepAt(path, i)
		line, col, ok := m.find(src, r, lo, hi, item)
		if !ok {
			break
		}
		found, foundStep = manifest.Pos{Line: line + 1, Column: col + 1}, i
		if i > 0 { // the object's kind line opens no block
			lo, hi = line+1, blockEnd(src, line, hi)
		}
	}
	found.Approximate = foundStep != deepest
	return found, foundStep
}

// condition finds the template actions that test values: if, else if.
var condition = regexp.MustCompile(`\{\{-?\s*(?:if|else)\b`)

// valueRef finds a chart value a template names: .Values.a.b.
var valueRef = regexp.MustCompile(`\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)`)

// withValue adds to an approximate position p in the template lines src
// the chart value the field came from: the one value named on p's line,
// in its block, or on the template actions just above it ({{- with
// .Values.tolerations }}), and where the values files set it: the field
// itself (rest, the part of the path below p, inside the value) when a
// values file writes it, else the value's key.
func (m *Positions) withValue(src []string, p manifest.Pos, rest []any) manifest.Pos {
	if !p.Approximate || p.Line < 1 || p.Line > len(src) {
		return p
	}
	first := p.Line - 1
	for first > 0 && first > p.Line-4 && strings.HasPrefix(strings.TrimSpace(src[first-1]), "{{") {
		first--
	}
	refs := map[string]bool{}
	for _, l := range src[first:blockEnd(src, p.Line-1, len(src))] {
		if condition.MatchString(l) {
			continue // a value tested, not written
		}
		for _, r := range valueRef.FindAllStringSubmatch(l, -1) {
			refs[r[1]] = true
		}
	}
	if len(refs) != 1 {
		return p
	}
	var ref string
	for r := range refs {
		ref = r
	}
	v := &manifest.ValueRef{Ref: ".Values" + ref}
	if m.values != nil {
		var keys []any
		for _, k := range strings.Split(ref[1:], ".") {
			keys = append(keys, k)
		}
		if at, ok := m.values(append(keys, rest...)); ok {
			v.Pos = at
		} else if at, ok := m.values(keys); ok {
			v.Pos = at
		}
	}
	p.Value = v
	return p
}

// Pos implements manifest.TemplateMap: a rendered line is found by its
// text, when the template has it once; else the document's start.
func (m *Positions) Pos(line, column int) manifest.Pos {
	if l, c, ok := m.find(m.src, manifest.Pos{Line: line, Column: max(column, 1)}, 0, len(m.src), false); ok {
		return manifest.Pos{Line: l + 1, Column: c + 1}
	}
	return m.start()
}

// stepAt is step i of path (the last of path[:i]), and whether it is a
// sequence index.
func stepAt(path []any, i int) (any, bool) {
	if i == 0 {
		return nil, false
	}
	_, item := path[i-1].(int)
	return path[i-1], item
}

// find is the one template line in [lo, hi) where the rendered text at r
// (a key and its value, or a sequence item) is written, and the column it
// starts at there; an item must start its line there ("- "). A line
// written with its value templated (`image: {{ .Values.image }}`) holds
// the key; a line whose text is written elsewhere or more than once is
// not found.
func (m *Positions) find(src []string, r manifest.Pos, lo, hi int, item bool) (line, col int, ok bool) {
	if r.Line < 1 || r.Line > len(m.out) {
		return 0, 0, false
	}
	text := m.out[r.Line-1]
	if r.Column-1 > len(text) {
		return 0, 0, false
	}
	want := strings.TrimRight(text[max(r.Column-1, 0):], " \t\r")
	if want == "" {
		return 0, 0, false
	}
	// A line written twice is ambiguous, unless only one of them has
	// the rendered column: literal lines keep their indentation.
	line, same := -1, -1
	n, nSame := 0, 0
	for i := lo; i < hi && i < len(src); i++ {
		c, match := matches(src[i], want)
		if !match || (item && !strings.HasPrefix(strings.TrimLeft(src[i], " "), "-")) {
			continue
		}
		n++
		line, col = i, c
		if c == r.Column-1 {
			nSame++
			same = i
		}
	}
	switch {
	case n == 1:
		return line, col, true
	case nSame == 1:
		return same, r.Column - 1, true
	}
	return 0, 0, false
}

// matches is true when template line t writes the rendered text want, and
// the column where it does.
func matches(t, want string) (int, bool) {
	core, col := itemText(t)
	core = strings.TrimRight(core, " \t\r")
	if core == want {
		return col, true
	}
	// A key whose value is templated: the key must be the rendered one
	// and the rest hold a template action.
	key, _, isPair := strings.Cut(want, ":")
	if !isPair || key == "" || strings.Contains(key, "{{") {
		return 0, false
	}
	rest, ok := strings.CutPrefix(core, key+":")
	return col, ok && strings.Contains(rest, "{{")
}

// itemText is a template line without its indentation and the "- " of the
// sequence items it starts, and the column its text starts at.
func itemText(t string) (string, int) {
	col := len(t) - len(strings.TrimLeft(t, " "))
	s := t[col:]
	for strings.HasPrefix(s, "- ") {
		n := len(s) - len(strings.TrimLeft(s[1:], " ")) // "-" and the spaces after it
		s, col = s[n:], col+n
	}
	return s, col
}

// blockEnd is where the block of template line a ends, at most hi: the
// next line of content indented no deeper than a, but for the items of a
// sequence written at the key's own indentation. Template actions alone on
// a line and comments belong to any block.
func blockEnd(src []string, a, hi int) int {
	indent := indentOf(src[a])
	trimmed := strings.TrimSpace(src[a])
	item := strings.HasPrefix(trimmed, "- ")
	key := strings.HasSuffix(trimmed, ":")
	for j := a + 1; j < hi && j < len(src); j++ {
		s := strings.TrimSpace(src[j])
		if s == "" || strings.HasPrefix(s, "{{") || strings.HasPrefix(s, "#") {
			continue
		}
		in := indentOf(src[j])
		if in > indent {
			continue
		}
		if in == indent && key && !item && (s == "-" || strings.HasPrefix(s, "- ")) {
			continue
		}
		return j
	}
	return min(hi, len(src))
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// start is where the document starts in the template: its first line of
// content, not a comment, not a template action alone on its line.
func (m *Positions) start() manifest.Pos {
	for i, l := range m.src {
		s := strings.TrimSpace(l)
		if s == "" || s == "---" || strings.HasPrefix(s, "#") || (strings.HasPrefix(s, "{{") && strings.HasSuffix(s, "}}")) {
			continue
		}
		return manifest.Pos{Line: i + 1, Column: indentOf(l) + 1, Approximate: true}
	}
	return manifest.Pos{Line: 1, Column: 1, Approximate: true}
}

// Comment is where the rendered comment at line and column was written:
// the one line of the template, else of its partials, that ends with the
// same comment, and whether nothing but indentation comes before it there.
func (m *Positions) Comment(line, column int) (pos manifest.Pos, alone, ok bool) {
	if line < 1 || line > len(m.out) || column < 1 || column > len(m.out[line-1]) {
		return manifest.Pos{}, false, false
	}
	text := strings.TrimRight(m.out[line-1][column-1:], " \t\r")
	if pos, alone, n := commentIn(m.src, text); n == 1 {
		return pos, alone, true
	}
	var hits int
	for _, part := range m.partials {
		p, a, n := commentIn(part.src, text)
		hits += n
		if n == 1 {
			p.File = part.file
			pos, alone = p, a
		}
	}
	return pos, alone, hits == 1
}

// commentIn finds the lines of src that end with the comment text: how
// many, and the position of the last.
func commentIn(src []string, text string) (pos manifest.Pos, alone bool, n int) {
	for i, l := range src {
		l = strings.TrimRight(l, " \t\r")
		if !strings.HasSuffix(l, text) {
			continue
		}
		n++
		at := len(l) - len(text)
		pos, alone = manifest.Pos{Line: i + 1, Column: at + 1}, strings.TrimSpace(l[:at]) == ""
	}
	return pos, alone, n
}
