package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
)

const customDoc = "../../docs/custom-rules.md"

// TestCustomRulesTutorialShowsTheShippedRule: the rule the tutorial prints
// is the one in examples/policies, which the tests below run.
func TestCustomRulesTutorialShowsTheShippedRule(t *testing.T) {
	doc, err := os.ReadFile(customDoc)
	if err != nil {
		t.Fatal(err)
	}
	rule, err := os.ReadFile("../../examples/policies/gpu-priority-class.rego")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```rego\n"+string(rule)+"```") {
		t.Error("the rule in docs/custom-rules.md differs from examples/policies/gpu-priority-class.rego: copy the file into the tutorial")
	}
}

// TestCustomRulesLibraryTableExists: every name the tutorial's library table
// offers is a rule or function of that package.
func TestCustomRulesLibraryTableExists(t *testing.T) {
	doc, err := os.ReadFile(customDoc)
	if err != nil {
		t.Fatal(err)
	}
	modules, err := engine.ParseModules(dslint.Policies, false)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range modules {
		for _, r := range m.Rules {
			defined[m.Package.Path.String()+"."+r.Head.Name.String()] = true
			defined[m.Package.Path.String()+"."+r.Head.Ref().String()] = true
		}
	}
	row := regexp.MustCompile("(?m)^\\| `(data\\.dslint\\.lib\\.[a-z0-9]+)` \\| (.*) \\|$")
	name := regexp.MustCompile("`([a-z_]+)(\\(|`)")
	rows := row.FindAllStringSubmatch(string(doc), -1)
	if len(rows) < 8 {
		t.Fatalf("found %d rows of the library table, want 8", len(rows))
	}
	for _, r := range rows {
		for _, n := range name.FindAllStringSubmatch(r[2], -1) {
			if ref := r[1] + "." + n[1]; !defined[ref] {
				t.Errorf("docs/custom-rules.md offers %s, which does not exist", ref)
			}
		}
	}
}

// TestShippedPolicyRuns lints the examples with the shipped policy.
func TestShippedPolicyRuns(t *testing.T) {
	code, out, errOut := run(t, "", "--policy", "../../examples/policies", "../../examples/manifests")
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		`gpu-training.yaml:18:11: warning: job "train-resnet" tolerates the GPU taint nvidia.com/gpu=present:NoSchedule but sets no priorityClassName`,
		`gpu-training.yaml:46:11: warning: deployment "inference" tolerates the GPU taint`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "[gpu-priority-class]"); n != 2 {
		t.Errorf("%d gpu-priority-class findings, want 2 (the device plugin DaemonSet is left alone):\n%s", n, out)
	}
}

// TestShippedPolicyTestsPass runs the shipped policy's Rego tests as the
// tutorial does.
func TestShippedPolicyTestsPass(t *testing.T) {
	code, out, errOut := run(t, "", "test", "../../examples/policies")
	if code != ExitOK || !strings.Contains(out, "6 passed, 0 failed, 0 errors") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
