package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint"
)

// writePolicy writes files (name -> source) into a new policy directory.
func writePolicy(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const ruleHeader = `# METADATA
# title: Custom
# description: A custom rule.
# custom:
#   severity: warning
#   remediation: Fix it.
package dslint.rules["custom-rule"]

import data.dslint.lib.result
`

// compilePolicy loads and compiles the policy files with the built-in rules.
func compilePolicy(t *testing.T, files map[string]string) (*Compiled, error) {
	t.Helper()
	modules, err := LoadPolicies([]string{writePolicy(t, files)}, false)
	if err != nil {
		return nil, err
	}
	return Compile(dslint.Policies, modules, RuleConfig{})
}

// policyProblem compiles files and returns the one problem it must have.
func policyProblem(t *testing.T, files map[string]string) PolicyError {
	t.Helper()
	_, err := compilePolicy(t, files)
	var perrs PolicyErrors
	if !errors.As(err, &perrs) || len(perrs) == 0 {
		t.Fatalf("want a PolicyErrors, got %v", err)
	}
	return perrs[0]
}

func TestSandboxRefusesNetworkBuiltins(t *testing.T) {
	for _, call := range []string{
		`http.send({"method": "get", "url": "http://127.0.0.1:1"})`,
		`net.lookup_ip_addr("example.com")`,
	} {
		name := strings.Split(call, "(")[0]
		t.Run(name, func(t *testing.T) {
			p := policyProblem(t, map[string]string{"r.rego": ruleHeader + "\nx := " + call + "\n"})
			if p.Line != 11 || !strings.HasSuffix(p.File, "r.rego") || !strings.Contains(p.Message, name+" is not available to policies") {
				t.Errorf("got %v", p)
			}
		})
	}
}

func TestPolicyRuntimeHasNoEnvironment(t *testing.T) {
	t.Setenv("DSLINT_SECRET", "s3cr3t")
	c, err := compilePolicy(t, map[string]string{"r.rego": ruleHeader + `
report contains result.fail([], sprintf("runtime: %v", [opa.runtime()]))
`})
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.NewRun(context.Background(), RunSettings{})
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"), &n); err != nil {
		t.Fatal(err)
	}
	v, err := e.Check(context.Background(), n.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) != 1 || strings.Contains(v.Findings[0].Message, "s3cr3t") || strings.Contains(v.Findings[0].Message, "env") {
		t.Errorf("findings: %+v", v.Findings)
	}
}

func TestPolicyMayNotTakeDslintsPlace(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"a built-in rule id": {
			strings.Replace(ruleHeader, "custom-rule", "wildcard-toleration", 1),
			`rule "wildcard-toleration" is a built-in rule`,
		},
		"the library":           {"package dslint.lib.k8s\n\nx := 1\n", "package dslint.lib.k8s belongs to dslint"},
		"a new library package": {"package dslint.lib.mine\n\nx := 1\n", "package dslint.lib.mine belongs to dslint"},
		"the router":            {"package dslint.main\n\nx := 1\n", "package dslint.main belongs to dslint"},
		"a rule without metadata": {
			"package dslint.rules[\"custom-rule\"]\n\nreport contains {\"path\": [], \"message\": \"x\"}\n",
			"rule custom-rule has no # METADATA block",
		},
		"metadata without severity": {
			strings.Replace(ruleHeader, "#   severity: warning\n", "", 1),
			"custom.severity",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := policyProblem(t, map[string]string{"r.rego": c.src})
			if !strings.Contains(p.Message, c.want) || p.Line == 0 {
				t.Errorf("got %v, want %q at a line", p, c.want)
			}
		})
	}
}

func TestPolicySyntaxErrorsArePositioned(t *testing.T) {
	_, err := LoadPolicies([]string{writePolicy(t, map[string]string{
		"a.rego":       "package dslint.custom.a\n\nx := [1,\n",
		"sub/b.rego":   "package dslint.custom.b\n\ny if {\n  input.kind ==\n}\n",
		"ok_test.rego": "package dslint.custom.a_test\n\ntest_x if true\n",
	})}, false)
	var perrs PolicyErrors
	if !errors.As(err, &perrs) {
		t.Fatalf("got %v", err)
	}
	text := err.Error()
	for _, want := range []string{"a.rego:4:1:", "sub/b.rego:"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing from:\n%s", want, text)
		}
	}
}

func TestPolicyDirectoryMissing(t *testing.T) {
	_, err := LoadPolicies([]string{filepath.Join(t.TempDir(), "nope")}, false)
	if err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("got %v", err)
	}
}

func TestPolicyTypeErrorsSayWhatWasWanted(t *testing.T) {
	p := policyProblem(t, map[string]string{"r.rego": ruleHeader + "\nreport contains result.fail([], \"x\") if count(5) > 1\n"})
	if p.Line != 11 || !strings.Contains(p.Message, "count: invalid argument(s)") || !strings.Contains(p.Message, "want: (collection") {
		t.Errorf("got %v", p)
	}
}
