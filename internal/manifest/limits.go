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
// goes through Read or ReadFile and Parse, which enforce them here.
const (
	// MaxFileBytes is the most dslint reads of one file or of stdin. A
	// larger input is refused whole (exit 2), before it is parsed.
	MaxFileBytes = 32 << 20
	// MaxNodesFileBytes is the most dslint reads of a --nodes file: a
	// kubectl get nodes -o yaml of some 8,000 nodes that list 50 images
	// each, which is parsed a group of nodes at a time (ListParts).
	MaxNodesFileBytes = 128 << 20
	// MaxDocumentNodes is how many YAML nodes (scalars, collections) one
	// document may have: some 10 to 20 MiB of YAML, or 2.5 MB written
	// densely ({a,b,c,…}). A parsed node takes some 170 bytes of memory,
	// and a document is parsed whole, but for a large List in block style,
	// whose items ListParts reads in parts, each within this limit. The
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

var (
	// errFileTooLarge is the error of Read and ReadFile for an input
	// beyond MaxFileBytes.
	errFileTooLarge = tooLarge{MaxFileBytes, "file"}
	// errNodesFileTooLarge is ReadNodes's, beyond MaxNodesFileBytes.
	errNodesFileTooLarge = tooLarge{MaxNodesFileBytes, "--nodes file"}
)

// ReadFile reads the file at path, refusing one larger than MaxFileBytes.
// Special files are read up to the limit too: /dev/zero ends.
func ReadFile(path string) ([]byte, error) {
	return readFile(path, errFileTooLarge)
}

func readFile(path string, limit tooLarge) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		if info.Size() > int64(limit.limit) {
			return nil, &os.PathError{Op: "read", Path: path, Err: limit}
		}
		size = int(info.Size())
	}
	data, err := readAtMost(f, size, limit)
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: unwrapPathError(err)}
	}
	return data, nil
}

// readAtMost reads r to its end, or fails once it has more than the limit.
// size is the size r is expected to have, if known, so that a regular file
// is read into one buffer. Otherwise (stdin) it is read in blocks, joined
// once at the end: a buffer that doubles as it grows would take three times
// the limit.
func readAtMost(r io.Reader, size int, limit tooLarge) ([]byte, error) {
	r = io.LimitReader(r, int64(limit.limit)+1)
	if size > 0 {
		buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, err
		}
		if buf.Len() > limit.limit {
			return nil, limit
		}
		return buf.Bytes(), nil
	}
	var blocks [][]byte
	total := 0
	for {
		block := make([]byte, 4<<20)
		n, err := io.ReadFull(r, block)
		blocks, total = append(blocks, block[:n]), total+n
		if total > limit.limit {
			return nil, limit
		}
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
	problem  *SyntaxError
}

// extent is how deep and how large a node is once its aliases are expanded.
type extent struct{ height, size int }

// checkLimits returns the limit the document breaks, at the node that
// breaks it, or nil.
func checkLimits(doc *yaml.Node) *SyntaxError {
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
	m.problem = &SyntaxError{Line: max(n.Line, 1), Column: max(n.Column, 1), Message: msg, Limit: true}
}

// thousands writes n with thousands separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
