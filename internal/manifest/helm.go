package manifest

import (
	"bytes"
	"regexp"
)

// HelmTemplates are the documents of a `helm template` stream that name the
// chart template they were rendered from: Helm writes "# Source:
// chart/templates/x.yaml" as the first line after the "---" of each
// document. Findings in such a document name the template. A rendered line
// cannot be traced back to its template line (templates loop, include and
// indent), so a document is numbered from the line after its comment: its
// first rendered line is line 1, as in `helm template --show-only`.
type HelmTemplates []helmTemplate

type helmTemplate struct {
	file    string // the path of the # Source: comment
	comment int    // the comment's line in the stream
	end     int    // the first line of the next document; 0 for the last
}

var helmSource = regexp.MustCompile(`^#\s*Source:\s*(\S(?:.*\S)?)\s*$`)

// findHelmTemplates finds the documents of data that carry a "# Source:"
// comment.
func findHelmTemplates(data []byte) HelmTemplates {
	data, _ = utf8Text(data)
	if !bytes.Contains(data, []byte("Source:")) {
		return nil // as nearly every file
	}
	var out HelmTemplates
	open := false // the last template found ends where the next document starts
	for c := range splitDocuments(data) {
		if open {
			out[len(out)-1].end, open = c.line, false
		}
		line, ok := sourceComment(data[c.start:c.end])
		if !ok {
			continue
		}
		out = append(out, helmTemplate{file: line.file, comment: c.line + line.offset})
		open = true
	}
	return out
}

type sourceLine struct {
	file   string
	offset int // lines after the document's first line
}

// sourceComment finds the "# Source:" comment of one document: the first
// line that is not blank, after the "---" marker if there is one.
func sourceComment(doc []byte) (sourceLine, bool) {
	for offset := 0; len(doc) > 0; offset++ {
		text := doc
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			text, doc = doc[:i], doc[i+1:]
		} else {
			doc = nil
		}
		text = bytes.TrimRight(text, " \t\r")
		switch {
		case offset == 0 && isDocumentMarker(text), len(text) == 0:
			continue
		}
		if m := helmSource.FindSubmatch(text); m != nil {
			return sourceLine{file: string(m[1]), offset: offset}, true
		}
		return sourceLine{}, false
	}
	return sourceLine{}, false
}

// At attributes a line of the stream: the template its document was
// rendered from and the line of the "# Source:" comment, which findings
// subtract from their lines. ok is false outside such documents.
func (t HelmTemplates) At(line int) (file string, shift int, ok bool) {
	for _, h := range t {
		if line > h.comment && (h.end == 0 || line < h.end) {
			return h.file, h.comment, true
		}
	}
	return "", 0, false
}

// shift moves the templates found in a part of a stream that starts at
// line offset+1 to the lines of the stream.
func (t HelmTemplates) shift(offset int) {
	for i := range t {
		t[i].comment += offset
		if t[i].end != 0 {
			t[i].end += offset
		}
	}
}
