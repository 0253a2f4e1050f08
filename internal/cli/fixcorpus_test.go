package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/dslint/dslint/internal/manifest"
)

// jsonFinding is what the fix property test reads of a JSON report.
type jsonFinding struct {
	Rule    string         `json:"rule"`
	Message string         `json:"message"`
	File    string         `json:"file"`
	Line    int            `json:"line"`
	Object  map[string]any `json:"object"`
	Fix     *struct {
		Note string `json:"note"`
	} `json:"fix"`
	Suppressed bool `json:"suppressed"`
}

// key is the finding's rule and object: messages and paths may change
// when another field of the object does.
func (f jsonFinding) key() string { return f.File + "|" + f.Rule + "|" + f.object() }

// object is kind/namespace/name, as objectSpans names objects.
func (f jsonFinding) object() string {
	s := func(k string) string { v, _ := f.Object[k].(string); return v }
	return s("kind") + "/" + s("namespace") + "/" + s("name")
}

// fixable is true for a finding dslint fix makes.
func (f jsonFinding) fixable() bool { return f.Fix != nil && f.Fix.Note == "" && !f.Suppressed }

// lintJSON lints dir and returns the findings of the JSON report.
func lintJSON(t *testing.T, dir string) []jsonFinding {
	t.Helper()
	code, out, stderr := run(t, "", "lint", "-f", "json", "--fail-on", "none", dir)
	if code != ExitOK {
		t.Fatalf("lint %s: exit %d\n%s", dir, code, stderr)
	}
	var rep struct{ Findings []jsonFinding }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep.Findings
}

// objectSpans are the line ranges of the objects of a file, by
// "kind/namespace/name": from an object's first line to the next one's.
func objectSpans(data []byte) map[string][][2]int {
	f := manifest.Parse("f", data)
	type start struct {
		key  string
		line int
	}
	var starts []start
	for _, d := range f.Docs {
		objs, _ := manifest.Entries(d)
		for _, o := range objs {
			starts = append(starts, start{o.Kind + "/" + o.Namespace + "/" + o.Name, o.Node.Line})
		}
	}
	out := map[string][][2]int{}
	for i, s := range starts {
		end := 1 << 30
		if i+1 < len(starts) {
			end = starts[i+1].line - 1
		}
		out[s.key] = append(out[s.key], [2]int{s.line, end})
	}
	return out
}

// TestFixCorpora runs dslint fix on copies of the real corpora, the
// fixtures and the examples. Afterwards no finding that has a fix is left
// (but those whose fix cannot be made, with a note), no finding is new
// (but on an object whose rejected toleration or selector was fixed),
// every file still parses, only the lines of objects with a fixed finding
// changed, and a second fix changes nothing.
func TestFixCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("lints the corpora several times")
	}
	dirs := []string{filepath.Join("..", "..", "fixtures"), filepath.Join("..", "..", "examples")}
	for _, c := range []string{"real", "real-more"} {
		dir := filepath.Join("..", "..", "..", "shared", "corpus", c)
		if _, err := os.Stat(dir); err != nil {
			t.Logf("corpus %s not found beside the clone: left out", dir)
			continue
		}
		dirs = append(dirs, dir)
	}
	for _, src := range dirs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, src, dir)
			before := lintJSON(t, dir)
			files := readTree(t, dir)
			fixedObjects := map[string]map[string]bool{} // file -> objects with a fixable finding
			count := map[string]int{}
			fixable := 0
			// A toleration or node selector the API server rejects is
			// judged by its invalid-* rule alone: once fixed, the other
			// rules judge it too, and may find what it hid.
			unveiled := map[string]bool{}
			for _, f := range before {
				if f.fixable() && strings.HasPrefix(f.Rule, "invalid-") {
					unveiled[f.File+"|"+f.object()] = true
				}
				count[f.key()]++
				if f.fixable() {
					fixable++
					if fixedObjects[f.File] == nil {
						fixedObjects[f.File] = map[string]bool{}
					}
					fixedObjects[f.File][f.object()] = true
				}
			}
			if code, _, stderr := run(t, "", "fix", "-q", "--fail-on", "none", dir); code != ExitOK {
				t.Fatalf("fix: exit %d\n%s", code, stderr)
			}
			after := lintJSON(t, dir)
			for _, f := range after {
				if f.fixable() {
					t.Errorf("still fixable after fix: %s:%d %s: %s", f.File, f.Line, f.Rule, f.Message)
				}
				if count[f.key()]--; count[f.key()] < 0 && !unveiled[f.File+"|"+f.object()] {
					t.Errorf("new finding after fix: %s:%d %s: %s", f.File, f.Line, f.Rule, f.Message)
				}
			}
			changed := 0
			for rel, now := range readTree(t, dir) {
				was := files[rel]
				if string(was) == string(now) {
					continue
				}
				changed++
				if strings.HasSuffix(rel, ".json") && !json.Valid(now) {
					t.Errorf("%s is no longer JSON:\n%s", rel, now)
				}
				name := filepath.ToSlash(filepath.Join(dir, rel))
				objs := fixedObjects[name]
				spans := objectSpans(was)
				m := difflib.NewMatcher(difflib.SplitLines(string(was)), difflib.SplitLines(string(now)))
				for _, op := range m.GetOpCodes() {
					if op.Tag == 'e' {
						continue
					}
					line := op.I1 + 1 // the first line changed, or the line an insertion precedes
					if op.Tag == 'i' {
						line = op.I1 // an insertion follows the object's last line
					}
					if !inSpans(line, objs, spans) {
						t.Errorf("%s: line %d changed outside the objects with a fixable finding", rel, line)
					}
				}
			}
			t.Logf("%d fixable findings, %d files changed, %d findings before, %d after", fixable, changed, len(before), len(after))
			if fixable > 0 && changed == 0 {
				t.Errorf("nothing changed")
			}
			if code, diff, _ := run(t, "", "fix", "--diff", "--fail-on", "none", dir); code != ExitOK || diff != "" {
				t.Errorf("a second fix would change:\n%s", diff)
			}
		})
	}
}

func inSpans(line int, objs map[string]bool, spans map[string][][2]int) bool {
	for key := range objs {
		for _, s := range spans[key] {
			if line >= s[0] && line <= s[1] {
				return true
			}
		}
	}
	return false
}
