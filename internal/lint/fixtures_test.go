package lint

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/manifest"
)

const fixturesDir = "../../fixtures"

var update = flag.Bool("update", false, "rewrite the golden .out files of the fixtures")

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

// lintFixture runs the whole pipeline on one fixture, whose Node objects
// are its inventory.
func lintFixture(t testing.TB, eng *engine.Engine, path string, data []byte) *finding.Result {
	t.Helper()
	name := filepath.ToSlash(path)
	nodes, err := fixture.Nodes(name, data)
	if err != nil {
		t.Fatal(err)
	}
	res, problems := Run(context.Background(), []manifest.Source{{Path: path, Name: name}}, nil, Options{Engine: fixed(eng), Nodes: nodes, NodeFiles: []string{path}})
	if err := problems.Err(); err != nil {
		t.Errorf("%v", err)
	}
	if res.UnusedNodes != 0 {
		t.Errorf("the fixture's %d Node objects are reported unused", res.UnusedNodes)
	}
	return res.Result
}

// parseWants reads the expectations of a fixture (fixture.Parse).
func parseWants(t testing.TB, data []byte) []fixture.Want {
	t.Helper()
	wants, err := fixture.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return wants
}

// TestFixtures lints every fixture and compares its findings with its
// wants and, where it has one, its golden .out file (-update writes one for
// every fail_ fixture).
func TestFixtures(t *testing.T) {
	eng := newEngine(t)
	files, err := fixture.Find(fixturesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, path := range files {
		t.Run(fixture.Rule(path)+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			findings := lintFixture(t, eng, path, data).Findings
			o := fixture.Compare(path, parseWants(t, data), findings)
			if !o.OK() {
				t.Errorf("findings of %v differ from the wants:\n%s", o.Rules, o.Explain(filepath.ToSlash(path), findings))
			}
			if err := fixture.CheckGolden(path, fixture.Golden(o.Rules, findings), *update); err != nil {
				t.Errorf("%v\n(go test ./internal/lint -run TestFixtures -update rewrites the .out files; review the diff)", err)
			}
		})
	}
}
