package policytest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/cover"

	"github.com/dslint/dslint/internal/engine"
)

const policy = `# METADATA
# title: Jobs need a priority class
# description: Jobs without a priorityClassName cannot preempt.
# custom:
#   severity: warning
#   remediation: Set priorityClassName.
package dslint.rules["job-priority"]

import data.dslint.lib.k8s
import data.dslint.lib.result

report contains result.fail(array.concat(k8s.pod_spec_path, ["priorityClassName"]), "job sets no priorityClassName") if {
	input.kind == "Job"
	not k8s.pod_spec.priorityClassName
}
`

const tests = `package dslint.rules["job-priority"]

_job(spec) := {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"template": {"spec": spec}}}

test_reports if {
	count(report) == 1 with input as _job({"containers": []})
}

test_fails if {
	count(report) == 2 with input as _job({"containers": []})
}

todo_test_later if {
	false
}
`

const failFixture = `apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec: # want: job-priority
      containers: [{name: c, image: c}]
`

// writeDir writes files (by slash-separated name) under a new directory.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRun(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"job-priority.rego":                    policy,
		"job-priority_test.rego":               tests,
		"fixtures/job-priority/fail_job.yaml":  failFixture,
		"fixtures/job-priority/pass_none.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
	})
	suite, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	results, cov, err := suite.Run(context.Background(), Options{Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range results {
		got = append(got, r.Kind+" "+r.Result+" "+filepath.Base(r.Name))
	}
	want := []string{ // tests by line, then fixtures by path
		`test pass data.dslint.rules["job-priority"].test_reports`,
		`test fail data.dslint.rules["job-priority"].test_fails`,
		`test skip data.dslint.rules["job-priority"].todo_test_later`,
		"fixture pass fail_job.yaml",
		"fixture pass pass_none.yaml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The failing test ran untraced; it was run again to say what failed.
	if fail := results[1]; fail.Trace != nil || !strings.HasSuffix(fail.Message, "_test.rego:10: failed: count(report) == 2 with input as _job({\"containers\": []})") {
		t.Errorf("failing test: trace %d events, message %q", len(fail.Trace), fail.Message)
	}
	if s := Summarize(results); s != (Summary{Passed: 3, Failed: 1, Skipped: 1}) {
		t.Errorf("summary %+v", s)
	}
	if len(cov) != 1 || filepath.Base(cov[0].File) != "job-priority.rego" || cov[0].Percent != 100 {
		t.Errorf("coverage of the policy only, all of it: %+v", cov)
	}

	traced, _, err := suite.Run(context.Background(), Options{Run: regexp.MustCompile(`test_fails|fail_`), Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(traced) != 2 || traced[0].Trace == nil || traced[1].Kind != KindFixture {
		t.Errorf("Run selects the failing test, traced, and the fail_ fixture: %+v", traced)
	}
}

func TestLoadErrors(t *testing.T) {
	var input InputError
	if _, err := Load([]string{writeDir(t, map[string]string{"x.rego": "package dslint.custom.x\n"})}); !errors.As(err, &input) || !strings.HasPrefix(err.Error(), "no tests found in ") {
		t.Errorf("no tests: %v", err)
	}
	var perrs engine.PolicyErrors
	if _, err := Load([]string{writeDir(t, map[string]string{"x_test.rego": "package dslint.custom.x\n\ntest_x if {\n"})}); !errors.As(err, &perrs) {
		t.Errorf("syntax error: %v, want PolicyErrors", err)
	}
}

func TestCoverageSpans(t *testing.T) {
	at := func(start, end int) cover.Range {
		return cover.Range{Start: cover.Position{Row: start}, End: cover.Position{Row: end}}
	}
	lines := rows([]cover.Range{at(7, 7), at(3, 5), at(5, 6), at(10, 10)})
	if !slices.Equal(lines, []int{3, 4, 5, 6, 7, 10}) {
		t.Errorf("rows = %v", lines)
	}
	if got := spans(lines); !slices.Equal(got, [][2]int{{3, 7}, {10, 10}}) {
		t.Errorf("spans = %v", got)
	}
	if got := spans(nil); got == nil || len(got) != 0 {
		t.Errorf("spans(nil) = %#v, want an empty list (JSON [])", got)
	}
	for _, c := range []struct {
		covered, total int
		want           float64
	}{{5, 8, 62.5}, {2, 3, 66.6}, {0, 0, 0}, {3, 3, 100}} {
		if got := Percent(c.covered, c.total); got != c.want {
			t.Errorf("Percent(%d, %d) = %v, want %v", c.covered, c.total, got, c.want)
		}
	}
}
