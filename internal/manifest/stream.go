package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// streamPartBytes is about how much of a stream readStream parses at a
// time. Parts are smaller than in memory (partBytes): a stream is judged
// while the parts after it are parsed, and the few parts in flight are
// most of what a run over a large stream holds.
const streamPartBytes = 256 << 10

// readStream reads an input too large to hold (a kubectl get or helm
// template of a whole cluster, many documents) from r, a part of about
// streamPartBytes of documents at a time: memory follows the part, not the
// input. Each document stays within dslint's limits: at most limits.Whole
// bytes (a larger one is a limit error, skipped unread), and those Parse
// enforces (nodes, depth, aliases).
//
// An input whose first document is larger than limits.Whole is no stream
// of documents: it is refused as too large before anything is yielded, as
// is one in UTF-16, which is converted whole. A part that turns out to be
// a Helm template ends the stream: it is yielded marked Template, and the
// rest is not read.
func readStream(name string, r io.Reader, limits Limits, yield func(*File, error) bool) {
	br := bufio.NewReaderSize(r, 64<<10)
	start, _ := br.Peek(len(utf8BOM))
	switch {
	case bytes.HasPrefix(start, utf8BOM):
		br.Discard(len(utf8BOM))
	case bytes.HasPrefix(start, []byte{0xFE, 0xFF}), bytes.HasPrefix(start, []byte{0xFF, 0xFE}):
		yield(nil, tooLarge{limits.Whole, limits.what})
		return
	}
	docs := documents{r: br, max: limits.Whole}
	refused := false // the first document is too large
	parts := func(yield func(part) bool) {
		var cur *part
		for doc := range docs.all() {
			if doc.tooLarge && doc.line == 1 {
				refused = true
				return
			}
			if cur != nil && cur.refused == nil && !doc.tooLarge && joins(len(cur.text), len(doc.text), streamPartBytes) {
				cur.text = append(cur.text, doc.text...)
				continue
			}
			if cur != nil && !yield(*cur) {
				return
			}
			cur = &part{text: doc.text, line: doc.line}
			if doc.tooLarge {
				cur.refused = &Error{
					Pos: Pos{Line: doc.line, Column: 1}, Limit: true,
					Message: fmt.Sprintf("document too large: more than %d MiB, the most dslint reads of one document; split it into smaller documents", limits.Whole>>20),
				}
			}
		}
		if cur != nil {
			yield(*cur)
		}
	}
	for f := range parseParts(name, parts) {
		if !yield(f, nil) || f.stopped || f.Template {
			return
		}
	}
	switch {
	case refused:
		yield(nil, tooLarge{limits.Whole, limits.what})
	case docs.err != nil:
		yield(nil, unwrapPathError(docs.err))
	}
}

// document is the text of one document of a stream, from its "---" line
// (if any) to the next, and the line it starts on.
type document struct {
	text []byte
	line int
	// tooLarge marks a document larger than the most documents keeps: its
	// text is not kept.
	tooLarge bool
}

// documents reads a stream a document at a time, cutting it where
// splitDocuments cuts text in memory: before every "---" line but a first
// one. Lines are counted as splitDocuments counts them, by "\n". A line is
// read a buffer at a time, so that a stream with no line break (/dev/zero)
// is cut off at max bytes like any document.
type documents struct {
	r   *bufio.Reader
	max int   // the most bytes of one document kept
	err error // why reading stopped, if not at the end of the stream
}

// all yields the documents of the stream in order. A document larger than
// max is yielded as soon as it is known to be, marked tooLarge, and the
// rest of it is skipped.
func (d *documents) all() iter.Seq[document] {
	return func(yield func(document) bool) {
		cur := document{line: 1}
		size := 0        // the bytes of cur, kept or not
		lines := 0       // the line breaks read
		midLine := false // the last bytes read did not end their line
		read := false    // anything was read: a first "---" line ends nothing
		for {
			frag, err := d.r.ReadSlice('\n')
			if len(frag) > 0 {
				if !midLine && read && isDocumentMarker(bytes.TrimSuffix(frag, []byte("\n"))) {
					if !cur.tooLarge && !yield(cur) {
						return
					}
					cur, size = document{line: lines + 1}, 0
				}
				read = true
				size += len(frag)
				switch {
				case cur.tooLarge:
				case size <= d.max:
					cur.text = append(cur.text, frag...)
				default:
					cur.text, cur.tooLarge = nil, true
					if !yield(cur) {
						return
					}
				}
				if midLine = frag[len(frag)-1] != '\n'; !midLine {
					lines++
				}
			}
			switch {
			case errors.Is(err, bufio.ErrBufferFull):
			case errors.Is(err, io.EOF):
				if !cur.tooLarge {
					yield(cur)
				}
				return
			case err != nil:
				d.err = err
				return
			}
		}
	}
}
