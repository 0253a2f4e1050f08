package cli

import (
	"os"
	"testing"
)

// TestRulesDocUpToDate fails when docs/rules.md no longer matches the rules'
// metadata.
func TestRulesDocUpToDate(t *testing.T) {
	want, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatalf("%v (generate it with: make docs)", err)
	}
	code, got, errOut := run(t, "", "rules", "--format", "markdown")
	if code != ExitOK {
		t.Fatalf("rules --format markdown: exit %d: %s", code, errOut)
	}
	if got != string(want) {
		t.Errorf("docs/rules.md is stale: regenerate it with `make docs` (dslint rules --format markdown > docs/rules.md) and commit it")
	}
}
