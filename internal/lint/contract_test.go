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
	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/manifest"
)

// TestRuleContract holds every rule to the same bar: metadata, Rego unit
// tests, failing and passing fixtures, and explain examples that really fail
// and pass. A new rule that skips any of it fails here.
func TestRuleContract(t *testing.T) {
	rules := newRules(t)
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
	for _, r := range rules.Rules() {
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
			checkExample(t, rules, r.ID, "bad", r.Bad, true, true)
			checkExample(t, rules, r.ID, "good", r.Good, true, false)
			// The bad example fires without an inventory (its Node objects
			// are then mere objects) unless the rule says it needs one.
			checkExample(t, rules, r.ID, "bad", r.Bad, false, !r.NeedsInventory)
			if r.RaisedBy != "" {
				return // raised in Go, tested there and by its fixtures
			}
			if tests[r.ID] == 0 {
				t.Errorf("rules/%s_test.rego has no test_ rules (package dslint.rules[%q])", r.ID, r.ID+"_test")
			}
		})
	}
}

func hasBase(prefix string) func(string) bool {
	return func(p string) bool { return strings.HasPrefix(filepath.Base(p), prefix) }
}

// checkExample lints an explain example and checks it fails (or passes) the
// rule. With withNodes, it is judged as a fixture is: its Node objects are
// its inventory.
func checkExample(t *testing.T, rules *engine.Compiled, id, name, src string, withNodes, wantFinding bool) {
	t.Helper()
	var nodes []*inventory.Node
	if withNodes {
		var err error
		if nodes, err = fixture.Nodes(name, []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	setup := fixture.Setup{Nodes: nodes}
	if r, _ := rules.Rule(id); r.Config != "" {
		c, err := config.Parse(".dslint.yaml", []byte(r.Config), nil)
		if err != nil {
			t.Fatalf("metadata custom.config of %s: %v", id, err)
		}
		setup = setup.With(c)
	}
	opts := Options{Rules: rules, Nodes: setup.Nodes, Probes: setup.Probes, Cluster: setup.Cluster}
	res, problems := Run(context.Background(), []manifest.Source{{Path: manifest.Stdin, Name: name}}, strings.NewReader(src), opts)
	if len(problems.Internal)+len(problems.Unreadable) > 0 {
		t.Fatalf("%s example: %v", name, problems)
	}
	got := slices.ContainsFunc(res.Findings, func(f finding.Finding) bool { return f.Rule == id })
	if got != wantFinding {
		t.Errorf("the %s example of explain %s (its Node objects the inventory: %v): finding = %v, want %v; findings: %v", name, id, withNodes, got, wantFinding, res.Findings)
	}
}

// TestFixturesNameKnownRules fails on a fixture directory or want comment that
// names no rule, and on a golden file left without its fixture.
func TestFixturesNameKnownRules(t *testing.T) {
	rules := newRules(t)
	dirs, err := os.ReadDir(fixturesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, ok := rules.Rule(d.Name()); !ok {
			t.Errorf("fixtures/%s names no rule", d.Name())
		}
		files, _ := filepath.Glob(filepath.Join(fixturesDir, d.Name(), "*"))
		for _, f := range files {
			if fixture, golden := strings.CutSuffix(f, ".out"); golden {
				if _, err := os.Stat(fixture); err != nil {
					t.Errorf("%s is the golden file of no fixture", f)
				}
				continue // messages, not wants
			}
			data, _ := os.ReadFile(f)
			for _, w := range parseWants(t, data) {
				if _, ok := rules.Rule(w.Rule); !ok {
					t.Errorf("%s:%d: want names unknown rule %q", f, w.Line, w.Rule)
				}
			}
		}
	}
}
