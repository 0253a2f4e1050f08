package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/manifest"
)

const fixturesDir = "../../fixtures"

func newEngine(t testing.TB) *engine.Engine {
	t.Helper()
	return newEngineDisabled(t)
}

// newEngineDisabled is an engine of the built-in rules but the disabled ones.
func newEngineDisabled(t testing.TB, disabled ...string) *engine.Engine {
	t.Helper()
	eng, err := engine.New(context.Background(), dslint.Policies, engine.Settings{Disabled: disabled})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// fixed is an engine factory that uses eng for runs without inventory and
// builds one with the built-in rules for the others.
func fixed(eng *engine.Engine) func(*inventory.Inventory) (*engine.Engine, error) {
	return func(inv *inventory.Inventory) (*engine.Engine, error) {
		if inv.Empty() {
			return eng, nil
		}
		return engine.New(context.Background(), dslint.Policies, engine.Settings{Inventory: inv.Data()})
	}
}

// lintFile runs the whole pipeline on one file.
func lintFile(t testing.TB, eng *engine.Engine, path string) *finding.Result {
	t.Helper()
	res, problems := Run(context.Background(), []manifest.Source{{Path: path, Name: filepath.ToSlash(path)}}, nil, Options{Engine: fixed(eng)})
	if err := problems.Err(); err != nil {
		t.Errorf("%v", err)
	}
	return res.Result
}

// want is one expected finding: "# want: rule-id" or "# want: rule-id@col".
type want struct {
	rule         string
	line, column int
}

func (w want) String() string { return fmt.Sprintf("%d:%d %s", w.line, w.column, w.rule) }

var wantComment = regexp.MustCompile(`#\s*want:\s*(.*)$`)

// parseWants reads the expectations of a fixture. Without @col the column
// is the first token after the indentation and any "- ": where a field's key
// or a list item starts, which is where dslint points.
func parseWants(t *testing.T, data []byte) []want {
	var out []want
	for i, line := range strings.Split(string(data), "\n") {
		m := wantComment.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		code := line[:m[0]]
		for _, field := range strings.Fields(line[m[2]:m[3]]) {
			rule, colText, hasCol := strings.Cut(field, "@")
			w := want{rule: rule, line: i + 1, column: defaultColumn(code)}
			if hasCol {
				c, err := strconv.Atoi(colText)
				if err != nil {
					t.Fatalf("line %d: bad column in %q", i+1, field)
				}
				w.column = c
			}
			out = append(out, w)
		}
	}
	return out
}

func defaultColumn(code string) int {
	trimmed := strings.TrimLeft(code, " ")
	for strings.HasPrefix(trimmed, "- ") {
		trimmed = strings.TrimLeft(trimmed[2:], " ")
	}
	return len(code) - len(trimmed) + 1
}

func TestFixtures(t *testing.T) {
	eng := newEngine(t)
	files, _ := filepath.Glob(filepath.Join(fixturesDir, "*", "*.yaml"))
	jsonFiles, _ := filepath.Glob(filepath.Join(fixturesDir, "*", "*.json"))
	files = append(files, jsonFiles...)
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, path := range files {
		dirRule := filepath.Base(filepath.Dir(path))
		t.Run(dirRule+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			wants := parseWants(t, data)
			checked := map[string]bool{dirRule: true}
			for _, w := range wants {
				checked[w.rule] = true
			}
			var got []want
			for _, f := range lintFile(t, eng, path).Findings {
				if checked[f.Rule] && !f.Suppressed {
					got = append(got, want{rule: f.Rule, line: f.Line, column: f.Column})
				}
			}
			sortWants(got)
			sortWants(wants)
			if !slices.Equal(got, wants) {
				t.Errorf("findings of %v differ\n got: %v\nwant: %v", keys(checked), got, wants)
			}
			isPass := strings.HasPrefix(filepath.Base(path), "pass")
			if isPass && slices.ContainsFunc(wants, func(w want) bool { return w.rule == dirRule }) {
				t.Errorf("a pass_ fixture expects %s", dirRule)
			}
			if !isPass && !slices.ContainsFunc(wants, func(w want) bool { return w.rule == dirRule }) {
				t.Errorf("a fail_ fixture must expect at least one %s finding", dirRule)
			}
		})
	}
}

func sortWants(ws []want) {
	slices.SortFunc(ws, func(a, b want) int {
		if a.line != b.line {
			return a.line - b.line
		}
		if a.column != b.column {
			return a.column - b.column
		}
		return strings.Compare(a.rule, b.rule)
	})
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestDefaultColumn(t *testing.T) {
	cases := map[string]int{
		"          operator: exists  ": 11,
		"        - key: gpu":           11,
		"        - - operator: Exists": 13,
		"      tolerations:":           7,
		"        - {key: a}":           11,
		"  kind: Pod":                  3,
	}
	for code, col := range cases {
		if got := defaultColumn(code); got != col {
			t.Errorf("defaultColumn(%q) = %d, want %d", code, got, col)
		}
	}
}
