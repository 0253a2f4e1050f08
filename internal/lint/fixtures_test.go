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
	"github.com/dslint/dslint/internal/manifest"
)

const fixturesDir = "../../fixtures"

var update = flag.Bool("update", false, "rewrite the golden .out files of the fixtures")

// newRules compiles the built-in rules, with the rules of off turned off.
func newRules(t testing.TB, off ...string) *engine.Compiled {
	t.Helper()
	rules, err := engine.Compile(dslint.Policies, nil, engine.RuleConfig{Off: off})
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// lintFile runs the whole pipeline on one file.
func lintFile(t testing.TB, rules *engine.Compiled, path string) *finding.Result {
	t.Helper()
	res, problems := Run(context.Background(), []manifest.Source{{Path: path, Name: filepath.ToSlash(path)}}, nil, Options{Rules: rules})
	if err := problems.Err(); err != nil {
		t.Errorf("%v", err)
	}
	return res.Result
}

// lintFixture runs the whole pipeline on one fixture, whose Node objects
// are its inventory, with its config when it has one (fixture.SetupOf).
func lintFixture(t testing.TB, rules *engine.Compiled, path string, data []byte) *finding.Result {
	t.Helper()
	name := filepath.ToSlash(path)
	setup, err := fixture.SetupOf(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, problems := Run(context.Background(), []manifest.Source{{Path: path, Name: name}}, nil, Options{
		Rules: rules, Nodes: setup.Nodes, Probes: setup.Probes, NodeFiles: []string{path}, Cluster: setup.Cluster,
	})
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
	rules := newRules(t)
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
			findings := lintFixture(t, rules, path, data).Findings
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
