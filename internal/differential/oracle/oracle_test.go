package oracle

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOracleIsNotLinkedIntoDslint: the upstream code is a reference for
// tests and tools, never part of dslint, whose semantics are the Rego's.
func TestOracleIsNotLinkedIntoDslint(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/dslint/dslint/cmd/dslint").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "k8s.io/component-helpers") || strings.HasSuffix(dep, "/internal/differential/oracle") {
			t.Errorf("cmd/dslint depends on %s", dep)
		}
	}
}
