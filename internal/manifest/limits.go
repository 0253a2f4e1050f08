package manifest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The limits dslint enforces on its inputs, so that no file, however large
// or hostile, can take the machine's memory or an unbounded time. Every
// reader of manifests (lint, --nodes, the config file, kustomize builds)
// goes through Read, or ReadFile and Parse, which enforce them here.
const (
	// MaxFileBytes is the most dslint reads whole of one file or of
	// stdin, and of one document of a stream: a larger input that is not
	// a stream of documents (ManifestLimits) is refused whole (exit 2),
	// before it is parsed.
	MaxFileBytes = 32 << 20
	// MaxNodesFileBytes is the most dslint reads of a --nodes file: a
	// kubectl get nodes -o yaml of some 8,000 nodes that list 50 images
	// each, which is parsed a group of nodes at a time (listParts).
	MaxNodesFileBytes = 128 << 20
	// MaxDocumentNodes is how many YAML nodes (scalars, collections) one
	// document may have: some 10 to 20 MiB of YAML, or 2.5 MB written
	// densely ({a,b,c,…}). A parsed node takes some 170 bytes of memory,
	// and a document is parsed whole, but for a large List in block style,
	// whose items listParts reads in parts, each within this limit. The
	// nodes are counted, high, from the text before parsing
	// (estimateNodes); a larger document is a parse-error finding, and the
	// others are still linted.
	MaxDocumentNodes = 2_500_000
	// MaxDepth is how deeply collections may nest in a document, aliases
	// followed: its top-level collection is at depth 0. The YAML parser
	// itself refuses depths beyond 10,000.
	MaxDepth = 1000
	// MaxAliasNodes is how many nodes aliases may add to a document once
	// expanded: "billion laughs" documents stop here.
	MaxAliasNodes = 1_000_000
	// MaxSyntaxErrors is how many documents of one file may fail to parse
	// or break a limit: past them the file is not YAML, and the rest of it
	// is not read, so that a file cannot make millions of findings.
	MaxSyntaxErrors = 100
)

// tooLarge is the error for an input beyond a size limit.
type tooLarge struct {
	limit int
	what  string
}

func (e tooLarge) Error() string {
	return fmt.Sprintf("larger than %d MiB; dslint reads at most %d MiB per %s", e.limit>>20, e.limit>>20, e.what)
}

// notAList is the error for a --nodes file larger than a file read whole
// (whole bytes) that is not a List in block style, which alone is read up
// to list bytes.
type notAList struct{ whole, list int }

func (e notAList) Error() string {
	return fmt.Sprintf("larger than %d MiB, and not a List in block style (kubectl get nodes -o yaml), which dslint reads up to %d MiB a group of nodes at a time", e.whole>>20, e.list>>20)
}

// errFileTooLarge is the error of ReadFile for a file beyond MaxFileBytes.
var errFileTooLarge = tooLarge{MaxFileBytes, "file"}

// ReadFile reads the file at path whole, refusing one larger than
// MaxFileBytes: a config file, or a file a kustomization reads. Special
// files are read up to the limit too: /dev/zero ends.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := regularSize(f)
	if size > MaxFileBytes {
		return nil, &os.PathError{Op: "read", Path: path, Err: errFileTooLarge}
	}
	data, err := readAtMost(f, size, MaxFileBytes)
	switch {
	case err != nil:
		return nil, &os.PathError{Op: "read", Path: path, Err: unwrapPathError(err)}
	case len(data) > MaxFileBytes:
		return nil, &os.PathError{Op: "read", Path: path, Err: errFileTooLarge}
	}
	return data, nil
}

// readAtMost reads r to its end, or to one byte more than limit, which
// tells the caller that r is larger. size is the size r is expected to
// have, if known, so that a regular file is read into one buffer.
// Otherwise (stdin) it is read in blocks, joined once at the end: a buffer
// that doubles as it grows would take three times the limit.
func readAtMost(r io.Reader, size, limit int) ([]byte, error) {
	r = io.LimitReader(r, int64(limit)+1)
	if size > 0 {
		buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	var blocks [][]byte
	for {
		block := make([]byte, 4<<20)
		n, err := io.ReadFull(r, block)
		blocks = append(blocks, block[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return bytes.Join(blocks, nil), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// measure checks one document against MaxDepth and MaxAliasNodes, and for
// aliases to a node they are inside of (the document would be infinite).
// Every anchored node is measured once, so a document that aliases expand
// exponentially is measured in time linear in its size.
type measure struct {
	anchored map[*yaml.Node]extent // anchored nodes measured
	inside   map[*yaml.Node]bool   // anchored nodes being measured
	added    int                   // nodes the aliases so far add
	problem  *Error
}

// extent is how deep and how large a node is once its aliases are expanded.
type extent struct{ height, size int }

// checkLimits returns the limit the document breaks, at the node that
// breaks it, or nil.
func checkLimits(doc *yaml.Node) *Error {
	m := measure{anchored: map[*yaml.Node]extent{}, inside: map[*yaml.Node]bool{}}
	m.node(doc, 0)
	return m.problem
}

func (m *measure) node(n *yaml.Node, depth int) extent {
	if m.problem != nil {
		return extent{}
	}
	if n.Kind == yaml.DocumentNode {
		depth-- // a document is not a level of nesting: its content is
	}
	if depth > MaxDepth {
		m.fail(n, fmt.Sprintf("collections nested more than %s levels deep; dslint reads at most %s levels", thousands(MaxDepth), thousands(MaxDepth)))
		return extent{}
	}
	if n.Kind == yaml.AliasNode {
		return m.alias(n, depth)
	}
	if e, ok := m.anchored[n]; ok {
		return e
	}
	if n.Anchor != "" {
		m.inside[n] = true
		defer delete(m.inside, n)
	}
	e := extent{height: 1, size: 1}
	for _, c := range n.Content {
		ce := m.node(c, depth+1)
		e.height = max(e.height, ce.height+1)
		e.size += ce.size
	}
	if n.Anchor != "" && m.problem == nil {
		m.anchored[n] = e
	}
	return e
}

// alias measures the node an alias names in the alias's place.
func (m *measure) alias(n *yaml.Node, depth int) extent {
	target := n.Alias
	if target == nil {
		return extent{height: 1, size: 1}
	}
	if m.inside[target] {
		m.fail(n, fmt.Sprintf("alias *%s is inside the node its anchor &%s names, so the document is infinite", n.Value, target.Anchor))
		return extent{}
	}
	e, ok := m.anchored[target]
	if !ok {
		e = m.node(target, depth)
	}
	switch {
	case m.problem != nil:
	case depth+e.height-1 > MaxDepth:
		m.fail(n, fmt.Sprintf("alias *%s nests collections more than %s levels deep; dslint reads at most %s levels", n.Value, thousands(MaxDepth), thousands(MaxDepth)))
	case e.size > MaxAliasNodes-m.added:
		m.fail(n, fmt.Sprintf("aliases expand the document by more than %s nodes (alias *%s); dslint expands at most %s", thousands(MaxAliasNodes), n.Value, thousands(MaxAliasNodes)))
	default:
		m.added += e.size
	}
	return e
}

func (m *measure) fail(n *yaml.Node, msg string) {
	m.problem = &Error{Pos: Pos{Line: max(n.Line, 1), Column: max(n.Column, 1)}, Message: msg, Limit: true}
}

// thousands writes n with thousands separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
