package engine

import (
	"reflect"
	"testing"

	"github.com/dslint/dslint"
)

// TestRulesInMatchesCompile: the rules read without compiling are those of
// the compiled rules, in the same order.
func TestRulesInMatchesCompile(t *testing.T) {
	rules, err := RulesIn(dslint.Policies)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(dslint.Policies, nil, RuleConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if want := c.Rules(); !reflect.DeepEqual(rules, want) {
		t.Errorf("RulesIn gives %d rules, Compile %d, or they differ", len(rules), len(want))
	}
}
