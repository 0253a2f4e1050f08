package engine

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/dslint/dslint"
)

// TestRego runs every *_test.rego of the framework and the built-in rules
// with OPA's test runner; each Rego test is a Go subtest.
func TestRego(t *testing.T) {
	modules, err := ParseModules(dslint.Policies, true)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*ast.Module{}
	for _, m := range modules {
		byName[m.Package.Location.File] = m
	}
	ch, err := tester.NewRunner().SetDefaultRegoVersion(ast.RegoV1).RaiseBuiltinErrors(true).Run(context.Background(), byName)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		t.Run(r.Package+"."+r.Name, func(t *testing.T) {
			switch {
			case r.Error != nil:
				t.Errorf("%s: error: %v", r.Location, r.Error)
			case r.Fail:
				t.Errorf("%s: failed%s", r.Location, failedAt(r))
			}
			if t.Failed() && len(r.Output) > 0 {
				t.Logf("print output:\n%s", r.Output)
			}
		})
	}
	if n == 0 {
		t.Fatal("no Rego tests ran")
	}
}

func failedAt(r *tester.Result) string {
	if r.FailedAt == nil {
		return ""
	}
	return " at " + r.FailedAt.String()
}
