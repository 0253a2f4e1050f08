package manifest

import (
	"bytes"
	"io"
	"iter"
	"os"
)

// Limits are how much of one input Read takes.
type Limits struct {
	// Whole is the most Read holds of an input at once: an input of at
	// most Whole bytes is read into memory, then parsed a part at a time.
	// A larger one is read as a stream of documents when Stream allows
	// it, each document within Whole bytes, and refused otherwise.
	Whole int
	// List, when larger than Whole, is the most Read holds of an input
	// that is one List in block style (kubectl get nodes -o yaml), which
	// it parses a group of items at a time.
	List int
	// Stream lets Read read an input larger than Whole a document at a
	// time, whatever its size.
	Stream bool
	what   string // how a refusal names the input: "file"
}

var (
	// ManifestLimits are the limits of a manifest to lint: up to 32 MiB
	// read whole; a larger stream of documents (a kubectl get or helm
	// template of a whole cluster) read a part at a time.
	ManifestLimits = Limits{Whole: MaxFileBytes, Stream: true, what: "file"}
	// NodesLimits are the limits of a --nodes file: up to 32 MiB read
	// whole, up to 128 MiB when it is a List in block style. It is not
	// streamed: the inventory is held whole anyway, and kubectl writes
	// one List, which a stream of documents would not help.
	NodesLimits = Limits{Whole: MaxFileBytes, List: MaxNodesFileBytes, what: "--nodes file"}
)

// most is the most Read reads into memory of an input.
func (l Limits) most() int { return max(l.Whole, l.List) }

// Read reads one input, a file or stdin, and yields its documents a part
// at a time: each File holds whole documents, or a large List with a group
// of its items, with file-wide positions and its own text as Data, so that
// only the part being looked at is parsed in memory. How to read is Read's
// choice, by the input's size and shape:
//
//   - an input of at most limits.Whole bytes (or limits.List for a List)
//     is read into memory: a List in block style larger than a part a
//     group of items at a time (listParts), anything else about partBytes
//     of documents at a time, or whole when it is smaller (readText);
//   - a larger input is read from the file a document at a time when
//     limits.Stream allows it (readStream), and refused otherwise.
//
// What Read yields is final: a List is read in parts only once every part
// is known to read as the whole List does, so a caller never takes back
// what it was given. An input that cannot be read is one error, yielded
// before anything else; a failure in the middle of a stream (the disk
// fails) is an error after the parts before it. Errors are the bare cause
// (permission denied), since callers name the input themselves.
func Read(src Source, stdin io.Reader, limits Limits) iter.Seq2[*File, error] {
	return func(yield func(*File, error) bool) {
		if src.Unreadable != nil {
			yield(nil, src.Unreadable)
			return
		}
		r, size := stdin, 0
		switch {
		case src.Text != nil:
			r, size = bytes.NewReader(*src.Text), len(*src.Text)
		case src.Path != Stdin:
			f, err := os.Open(src.Path)
			if err != nil {
				yield(nil, unwrapPathError(err))
				return
			}
			defer f.Close()
			r, size = f, regularSize(f)
		}
		most := limits.most()
		var head []byte
		if size <= most {
			var err error
			if head, err = readAtMost(r, size, most); err != nil {
				yield(nil, unwrapPathError(err))
				return
			}
			if len(head) <= most {
				readText(src.Name, head, limits, yield)
				return
			}
		}
		if !limits.Stream {
			yield(nil, tooLarge{most, limits.what})
			return
		}
		readStream(src.Name, io.MultiReader(bytes.NewReader(head), r), limits, yield)
	}
}

// regularSize is the size of f when it is a regular file, 0 otherwise (a
// pipe, a device: their size is known only once read).
func regularSize(f *os.File) int {
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		return int(min(info.Size(), 1<<62))
	}
	return 0
}

// readText reads an input held in memory: a List in block style larger
// than a part a group of items at a time, when it can be cut; anything else
// a part of whole documents at a time, when it is within limits.Whole.
func readText(name string, data []byte, limits Limits, yield func(*File, error) bool) {
	helm := findHelmTemplates(data)
	if parts, ok := listParts(name, data, partBytes, keepParsedBytes); ok {
		for f := range parts {
			f.Helm = helm
			if !yield(f, nil) {
				return
			}
		}
		return
	}
	if len(data) > limits.Whole {
		yield(nil, notAList{limits.Whole, limits.List})
		return
	}
	for f := range documentParts(name, data) {
		f.Helm = helm
		if !yield(f, nil) {
			return
		}
	}
}

// partBytes is about how much of a large input Read parses at a time: a
// parsed document takes some twenty times its size in memory.
const partBytes = 1 << 20

// documentParts parses data as Parse does, a part at a time: each part is
// a File of whole documents, about partBytes of them, with file-wide
// positions and its own bytes as Data. Only the part being looked at is
// parsed, so a large file of many documents costs little more than its
// bytes. A Helm template is one File, marked Template.
func documentParts(name string, data []byte) iter.Seq[*File] {
	return func(yield func(*File) bool) {
		data, bad := utf8Text(data)
		if len(data) <= partBytes || bad != nil {
			yield(Parse(name, data))
			return
		}
		parts := cutParts(data)
		if bytes.Contains(data, []byte("{{")) && isText(data) && anyFails(data, parts) {
			yield(&File{Name: name, Data: data, Line: 1, Template: true})
			return
		}
		texts := func(yield func(part) bool) {
			for _, p := range parts {
				if !yield(part{text: data[p.start:p.end], line: p.line}) {
					return
				}
			}
		}
		for f := range parseParts(name, texts) {
			f.Template = false // decided for the whole file above
			if !yield(f) {
				return
			}
		}
	}
}

// cutParts groups the documents of data into parts of about partBytes; a
// larger document is a part of its own.
func cutParts(data []byte) []chunk {
	var parts []chunk
	for c := range splitDocuments(data) {
		if n := len(parts); n > 0 && joins(parts[n-1].end-parts[n-1].start, c.end-c.start, partBytes) {
			parts[n-1].end = c.end
			continue
		}
		parts = append(parts, c)
	}
	return parts
}

// joins is true when a document of size bytes goes into the part before
// it, of part bytes, in parts of about most bytes: both are smaller.
func joins(part, size, most int) bool { return part < most && size < most }

// anyFails is true when one of the parts has a syntax error.
func anyFails(data []byte, parts []chunk) bool {
	for _, p := range parts {
		if estimateNodes(data[p.start:p.end]) > MaxDocumentNodes {
			continue // refused unparsed
		}
		if _, _, ok := decodeAll(data[p.start:p.end]); !ok {
			return true
		}
	}
	return false
}

// shift moves a part that starts at line offset+1 of its file to
// file-wide positions.
func (f *File) shift(offset int) {
	f.Line += offset
	for _, d := range f.Docs {
		shiftLines(d, offset)
	}
	for i := range f.SyntaxErrors {
		f.SyntaxErrors[i].Line += offset
	}
	f.Helm.shift(offset)
}

// chunk is one document's bytes [start, end) beginning at a 1-based line.
type chunk struct{ start, end, line int }
