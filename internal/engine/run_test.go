package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// newRun compiles the built-in rules with config and starts a run of them
// without an inventory.
func newRun(t testing.TB, config RuleConfig) *Run {
	t.Helper()
	c, err := Compile(dslint.Policies, nil, config)
	if err != nil {
		t.Fatal(err)
	}
	run, err := c.NewRun(context.Background(), RunSettings{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// wildcard is a DaemonSet and a Deployment that tolerate every taint:
// wildcard-toleration reports the DaemonSet's at info (the rule sets that
// severity itself) and the Deployment's at the rule's own, warning.
const wildcard = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers: [{name: a, image: a:1}]
      tolerations: [{operator: Exists}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
      containers: [{name: w, image: w:1}]
      tolerations: [{operator: Exists}]
`

// severities checks the wildcard objects and returns the severity of each
// wildcard-toleration finding, by object.
func severities(t *testing.T, run *Run) []finding.Severity {
	t.Helper()
	var out []finding.Severity
	for _, doc := range manifest.Parse("w.yaml", []byte(wildcard)).Docs {
		v, err := run.Check(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range v.Findings {
			if f.Rule == "wildcard-toleration" {
				out = append(out, f.Severity)
			}
		}
	}
	return out
}

// TestFindingsGetTheirFinalSeverity: a finding's severity is the rule's, or
// the one the rule gives it; a severity set in the config holds for every
// finding of the rule, and for the rule's own metadata.
func TestFindingsGetTheirFinalSeverity(t *testing.T) {
	plain := newRun(t, RuleConfig{})
	if got, want := severities(t, plain), []finding.Severity{finding.Info, finding.Warning}; !slices.Equal(got, want) {
		t.Errorf("without config: %v, want %v", got, want)
	}
	set := newRun(t, RuleConfig{Severity: map[string]finding.Severity{"wildcard-toleration": finding.Error}})
	if got, want := severities(t, set), []finding.Severity{finding.Error, finding.Error}; !slices.Equal(got, want) {
		t.Errorf("set to error: %v, want %v", got, want)
	}
	if r, _ := set.rules.Rule("wildcard-toleration"); r.Severity != finding.Error {
		t.Errorf("the rule's metadata says %v, want the configured error", r.Severity)
	}
	if r, _ := plain.rules.Rule("wildcard-toleration"); r.Severity != finding.Warning {
		t.Errorf("the rule's metadata says %v, want its own warning", r.Severity)
	}
}

// TestRulesOffAreNotCompiled: a rule turned off finds nothing, and is still
// known (suppressions and explain name it).
func TestRulesOffAreNotCompiled(t *testing.T) {
	off := newRun(t, RuleConfig{Off: []string{"wildcard-toleration"}})
	if got := severities(t, off); len(got) != 0 {
		t.Errorf("wildcard-toleration off reports %v", got)
	}
	if _, known := off.rules.Rule("wildcard-toleration"); !known || off.rules.Setting("wildcard-toleration").On {
		t.Errorf("wildcard-toleration off: known %v, setting %+v", known, off.rules.Setting("wildcard-toleration"))
	}
	if !off.rules.Setting("invalid-toleration").On {
		t.Error("invalid-toleration is off too")
	}
}

// TestNeedsInventory: the metadata says which rules find nothing without a
// node inventory.
func TestNeedsInventory(t *testing.T) {
	rules := newRun(t, RuleConfig{}).rules
	for _, r := range rules.Rules() {
		set := rules.Setting(r.ID)
		if want := r.ID == "no-matching-nodes" || r.ID == "daemonset-pods-pending" || r.ID == "insufficient-capacity" || r.ID == "rollout-blocked"; set.NeedsInventory != want || r.NeedsInventory != want {
			t.Errorf("%s: needs an inventory %v (metadata %v), want %v", r.ID, set.NeedsInventory, r.NeedsInventory, want)
		}
		if want := r.ID == "pool-ownership"; set.NeedsOwners != want || r.NeedsOwners != want {
			t.Errorf("%s: needs declared owners %v (metadata %v), want %v", r.ID, set.NeedsOwners, r.NeedsOwners, want)
		}
		if set.Ran(false, true) == set.NeedsInventory || set.Ran(true, false) == set.NeedsOwners || !set.Ran(true, true) {
			t.Errorf("%s: ran without inventory %v, without owners %v, with both %v", r.ID, set.Ran(false, true), set.Ran(true, false), set.Ran(true, true))
		}
	}
	_, err := compilePolicy(t, map[string]string{"r.rego": strings.Replace(ruleHeader, "# custom:\n", "# custom:\n#   needs_inventory: yes please\n", 1) + "report contains result.fail([], \"x\") if false\n"})
	if err == nil || !strings.Contains(err.Error(), "custom.needs_inventory must be true or false") {
		t.Errorf("needs_inventory that is not a boolean: %v", err)
	}
}
