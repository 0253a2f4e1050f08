package engine

import (
	"context"
	"testing"

	"github.com/dslint/dslint"
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
