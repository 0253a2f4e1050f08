package engine

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/manifest"
)

// TestUnreadFieldsAreUnread fails when a built-in Rego file names a key that
// the engine leaves out of input: a rule reading it would see nothing.
func TestUnreadFieldsAreUnread(t *testing.T) {
	modules, err := ParseModules(dslint.Policies, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		ast.WalkTerms(m, func(term *ast.Term) bool {
			var name string
			switch v := term.Value.(type) {
			case ast.String:
				name = string(v)
			case ast.Var:
				name = string(v) // input.env parses as a ref with a var-named step
			}
			if unreadFields[name] {
				t.Errorf("%s: %q is left out of input (unreadFields in input.go); take it out of that list to read it", term.Location, name)
			}
			return false
		})
	}
}

// TestUnreadFieldsChangeNothing checks every object of the fixtures, and of
// the shared corpus when it is there, with and without the unread fields:
// the verdicts must be equal.
func TestUnreadFieldsChangeNothing(t *testing.T) {
	ctx := context.Background()
	lean := newRun(t, RuleConfig{})
	full := newRun(t, RuleConfig{})
	full.rules.skip = nil // as with rules written outside dslint
	dirs := []string{filepath.Join("..", "..", "fixtures"), filepath.Join("..", "..", "examples")}
	if corpus := filepath.Join("..", "..", "..", "shared", "corpus", "real"); dirExists(corpus) {
		dirs = append(dirs, corpus)
	} else {
		t.Logf("shared corpus not found at %s: checking the fixtures and examples only", corpus)
	}
	n := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, doc := range manifest.Parse(p, data).Docs {
				objs, _ := manifest.Objects(doc)
				for _, o := range objs {
					a, errA := lean.Check(ctx, o.Node)
					b, errB := full.Check(ctx, o.Node)
					if !reflect.DeepEqual(a, b) || (errA == nil) != (errB == nil) {
						t.Errorf("%s:%d: without unread fields %+v (%v), with them %+v (%v)", p, o.Node.Line, a, errA, b, errB)
					}
					n++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 100 {
		t.Fatalf("only %d objects checked: fixtures missing?", n)
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
