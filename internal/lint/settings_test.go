package lint

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// goRaised has a finding of each rule raised in Go rather than Rego: a
// suppression without a reason (suppression-without-reason, info), and a
// document that does not parse (parse-error, error). The suppressed
// wildcard-toleration finding is a warning.
const goRaised = `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    ignore.dslint.io/wildcard-toleration: ""
spec:
  containers: [{name: p, image: x}]
  tolerations:
    - operator: Exists
---
key: [unclosed
`

// lintWith lints goRaised with the built-in rules and config.
func lintWith(t *testing.T, config engine.RuleConfig) *finding.Result {
	t.Helper()
	rules, err := engine.Compile(dslint.Policies, nil, config)
	if err != nil {
		t.Fatal(err)
	}
	out, problems := Run(context.Background(), []manifest.Source{{Path: manifest.Stdin, Name: "in.yaml"}}, strings.NewReader(goRaised), Options{Rules: rules})
	if err := problems.Err(); err != nil {
		t.Fatal(err)
	}
	return out.Result
}

func severityOf(res *finding.Result, rule string) []finding.Severity {
	var out []finding.Severity
	for _, f := range res.Findings {
		if f.Rule == rule {
			out = append(out, f.Severity)
		}
	}
	return out
}

// TestRuleSettingsOfGoRaisedRules: the rules raised in Go take the
// severity the config gives them, like those in Rego, and make no finding
// once turned off; the summary counts the severities findings end with.
func TestRuleSettingsOfGoRaisedRules(t *testing.T) {
	res := lintWith(t, engine.RuleConfig{})
	if got := severityOf(res, "parse-error"); !slices.Equal(got, []finding.Severity{finding.Error}) {
		t.Errorf("parse-error by default: %v", got)
	}
	if got := severityOf(res, "suppression-without-reason"); !slices.Equal(got, []finding.Severity{finding.Info}) {
		t.Errorf("suppression-without-reason by default: %v", got)
	}

	res = lintWith(t, engine.RuleConfig{Severity: map[string]finding.Severity{
		"parse-error": finding.Warning, "suppression-without-reason": finding.Error, "wildcard-toleration": finding.Info,
	}})
	for rule, want := range map[string]finding.Severity{"parse-error": finding.Warning, "suppression-without-reason": finding.Error, "wildcard-toleration": finding.Info} {
		if got := severityOf(res, rule); !slices.Equal(got, []finding.Severity{want}) {
			t.Errorf("%s set to %v: %v", rule, want, got)
		}
		if i := slices.IndexFunc(res.Rules, func(r finding.Rule) bool { return r.ID == rule }); i < 0 || res.Rules[i].Severity != want {
			t.Errorf("%s set to %v: the rules of the result say otherwise", rule, want)
		}
	}
	if s := res.Summary; s.Errors != 1 || s.Warnings != 1 || s.Infos != 0 || s.Suppressed != 1 {
		t.Errorf("summary %+v, want 1 error, 1 warning, 1 suppressed", s)
	}

	res = lintWith(t, engine.RuleConfig{Off: []string{"parse-error", "suppression-without-reason"}})
	if got := rulesOf(res, false); len(got) != 0 {
		t.Errorf("parse-error and suppression-without-reason off: %v", got)
	}
}
