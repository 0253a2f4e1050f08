package lint

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/manifest"
)

// TestRuleContract holds every rule to the same bar: metadata, Rego unit
// tests, failing and passing fixtures, and explain examples that really fail
// and pass. A new rule that skips any of it fails here.
func TestRuleContract(t *testing.T) {
	eng := newEngine(t)
	modules, err := engine.ParseModules(dslint.Policies, true)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]int{} // rule id -> number of test_ rules
	for _, m := range modules {
		if !strings.HasSuffix(m.Package.Location.File, "_test.rego") {
			continue
		}
		// A rule's tests live in package dslint.rules["<id>_test"] (or, not
		// moved yet, in the rule's own package).
		id := strings.TrimSuffix(engine.RuleID(m), "_test")
		for _, r := range m.Rules {
			if strings.HasPrefix(r.Head.Name.String(), "test_") {
				tests[id]++
			}
		}
	}
	for _, r := range eng.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			if _, err := fs.Stat(dslint.Policies, "rules/"+r.ID+".rego"); err != nil {
				t.Errorf("rule %s must live in rules/%s.rego", r.ID, r.ID)
			}
			if r.Intent == "" {
				t.Errorf("metadata needs custom.intent: when the rule fires and when it deliberately stays quiet")
			}
			if r.Bad == "" || r.Good == "" {
				t.Errorf("metadata needs custom.bad and custom.good examples for dslint explain")
			}
			fixtures, _ := filepath.Glob(filepath.Join(fixturesDir, r.ID, "*"))
			if !slices.ContainsFunc(fixtures, hasBase("fail_")) || !slices.ContainsFunc(fixtures, hasBase("pass_")) {
				t.Errorf("fixtures/%s/ needs fail_*.yaml and pass_*.yaml files", r.ID)
			}
			if r.ID == "parse-error" {
				return // raised by the parser; its fixtures are its tests
			}
			if r.RaisedBy != "" {
				checkExample(t, eng, r.ID, "bad", r.Bad, true)
				checkExample(t, eng, r.ID, "good", r.Good, false)
				return // raised in Go, tested there and by its fixtures
			}
			if tests[r.ID] == 0 {
				t.Errorf("rules/%s_test.rego has no test_ rules (package dslint.rules[%q])", r.ID, r.ID+"_test")
			}
			checkExample(t, eng, r.ID, "bad", r.Bad, true)
			checkExample(t, eng, r.ID, "good", r.Good, false)
		})
	}
}

func hasBase(prefix string) func(string) bool {
	return func(p string) bool { return strings.HasPrefix(filepath.Base(p), prefix) }
}

// checkExample lints an explain example and checks it fails (or passes) the
// rule. An example is judged as a fixture is: its Node objects are its
// inventory.
func checkExample(t *testing.T, eng *engine.Engine, id, name, src string, wantFinding bool) {
	t.Helper()
	nodes, err := fixture.Nodes(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, problems := Run(context.Background(), []manifest.Source{{Path: manifest.Stdin, Name: name}}, strings.NewReader(src), Options{Engine: fixed(eng), Nodes: nodes})
	if len(problems.Internal)+len(problems.Unreadable) > 0 {
		t.Fatalf("%s example: %v", name, problems)
	}
	got := slices.ContainsFunc(res.Findings, func(f finding.Finding) bool { return f.Rule == id })
	if got != wantFinding {
		t.Errorf("the %s example of explain %s: finding = %v, want %v; findings: %v", name, id, got, wantFinding, res.Findings)
	}
}

// TestFixturesNameKnownRules fails on a fixture directory or want comment that
// names no rule.
func TestFixturesNameKnownRules(t *testing.T) {
	eng := newEngine(t)
	dirs, err := os.ReadDir(fixturesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, ok := eng.Rule(d.Name()); !ok {
			t.Errorf("fixtures/%s names no rule", d.Name())
		}
		files, _ := filepath.Glob(filepath.Join(fixturesDir, d.Name(), "*"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			for _, w := range parseWants(t, data) {
				if _, ok := eng.Rule(w.Rule); !ok {
					t.Errorf("%s:%d: want names unknown rule %q", f, w.Line, w.Rule)
				}
			}
		}
	}
}
