package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run calls Main as a user would and returns the exit code and streams.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

const gpuJob = `apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: t, image: t}]
      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
`

const cleanPod = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: web, image: nginx}]
`

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
	}{
		{"warning fails by default", gpuJob, []string{"-"}, ExitFindings},
		{"explicit lint subcommand", gpuJob, []string{"lint", "-"}, ExitFindings},
		{"fail-on error passes a warning", gpuJob, []string{"--fail-on", "error", "-"}, ExitOK},
		{"fail-on none", gpuJob, []string{"--fail-on=none", "-"}, ExitOK},
		{"fail-on info", gpuJob, []string{"--fail-on", "info", "-"}, ExitFindings},
		{"clean input", cleanPod, []string{"-"}, ExitOK},
		{"parse error counts", "kind: [\n", []string{"-"}, ExitFindings},
		{"unknown format", cleanPod, []string{"-f", "xml", "-"}, ExitUsage},
		{"unknown fail-on", cleanPod, []string{"--fail-on", "critical", "-"}, ExitUsage},
		{"unknown flag", cleanPod, []string{"--colour", "-"}, ExitUsage},
		{"missing path", "", []string{filepath.Join(dir, "nope.yaml")}, ExitUsage},
		{"no manifests", "", []string{empty}, ExitUsage},
		{"examples", "", []string{"../../examples"}, ExitFindings},
		{"explain unknown rule", "", []string{"explain", "nope"}, ExitUsage},
		{"explain needs one rule", "", []string{"explain"}, ExitUsage},
		{"help", "", []string{"--help"}, ExitOK},
		{"lint help", "", []string{"lint", "--help"}, ExitOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errOut)
			}
		})
	}
}

func TestUsageErrorsNameTheProblem(t *testing.T) {
	cases := map[string][]string{
		`unknown --format "xml"`:                  {"-f", "xml", "-"},
		"nope.yaml: no such file or directory":    {"nope.yaml"},
		`unknown rule "invalid-tolerations" (did`: {"explain", "invalid-tolerations"},
		"unknown flag: --colour":                  {"--colour", "."},
	}
	for want, args := range cases {
		_, _, errOut := run(t, "", args...)
		if !strings.Contains(errOut, want) {
			t.Errorf("dslint %v: stderr %q does not contain %q", args, errOut, want)
		}
	}
}

func TestTextReportFromStdin(t *testing.T) {
	_, out, _ := run(t, gpuJob, "-")
	want := `<stdin>:10:11: warning: job "train" tolerates the dedicated taint "nvidia.com/gpu" but has no node constraint`
	if !strings.HasPrefix(out, want) {
		t.Errorf("got:\n%s\nwant a first line starting with:\n%s", out, want)
	}
	if !strings.Contains(out, "1 file, 1 object, 1 workload checked: 0 errors, 1 warning, 0 info\n") {
		t.Errorf("no summary line in:\n%s", out)
	}
	if _, quiet, _ := run(t, gpuJob, "-q", "-"); strings.Contains(quiet, "checked") {
		t.Errorf("--quiet printed a summary:\n%s", quiet)
	}
}

func TestOutputFileAndJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.json")
	code, out, _ := run(t, gpuJob, "-f", "json", "-o", path, "-")
	if code != ExitFindings || out != "" {
		t.Fatalf("exit %d, stdout %q: want 1 and nothing on stdout", code, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Version  int
		Findings []struct {
			Rule, Path string
			Line       int
		}
		Summary struct{ Files, Objects, Workloads, Warnings int }
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Version != 1 || len(rep.Findings) != 1 || rep.Summary.Warnings != 1 || rep.Summary.Workloads != 1 {
		t.Fatalf("unexpected report: %+v", rep)
	}
	if f := rep.Findings[0]; f.Path != "spec.template.spec.tolerations[0]" || f.Line != 10 {
		t.Errorf("finding at %s line %d, want spec.template.spec.tolerations[0] line 10", f.Path, f.Line)
	}
}

func TestRulesAndExplain(t *testing.T) {
	_, out, _ := run(t, "", "rules")
	for _, id := range []string{"invalid-toleration", "wildcard-toleration", "parse-error"} {
		if !strings.Contains(out, id) {
			t.Errorf("rules does not list %s:\n%s", id, out)
		}
	}
	code, out, _ := run(t, "", "explain", "wildcard-toleration")
	if code != ExitOK || !strings.Contains(out, "Fails:") || !strings.Contains(out, "Passes:") || !strings.Contains(out, "Fix:") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
	var rules []map[string]any
	_, out, _ = run(t, "", "rules", "-f", "json")
	if err := json.Unmarshal([]byte(out), &rules); err != nil || len(rules) == 0 {
		t.Errorf("rules -f json: %v\n%s", err, out)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "", "version")
	if code != ExitOK || !strings.HasPrefix(out, "dslint ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

// TestSkippedInJSONAndText: JSON lists every skipped document with its line
// and reason, and the text summary counts the same, by reason.
func TestSkippedInJSONAndText(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.yaml"), "name: not an object\n---\n- a\n- b\n---\n"+
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: patch}\nspec:\n  template:\n    spec:\n      containers: [{name: web}]\n")
	write(t, filepath.Join(dir, "b.yaml"), "apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n  - 42\n")
	write(t, filepath.Join(dir, "t.yaml"), "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n")
	_, out, errOut := run(t, "", "-f", "json", dir)
	var report struct {
		Skipped []map[string]any `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	var got []string
	for _, s := range report.Skipped {
		file, _ := filepath.Rel(dir, filepath.FromSlash(s["file"].(string)))
		got = append(got, fmt.Sprintf("%s:%v %s", filepath.ToSlash(file), s["line"], s["reason"]))
	}
	want := []string{
		"a.yaml:1 not a Kubernetes object",
		"a.yaml:3 not a Kubernetes object",
		"a.yaml:6 fragment: a workload without a complete pod template (a patch or test assertion)",
		"b.yaml:5 not a Kubernetes object",
		"t.yaml:<nil> helm template syntax outside a chart dslint renders (no Chart.yaml above it, or --no-helm): render it first (helm template RELEASE CHART | dslint -)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("JSON skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, out, _ = run(t, "", dir)
	if want := "3 files, 1 object, 0 workloads checked (4 documents skipped: 3 not Kubernetes objects, 1 workload fragment; 1 file skipped: helm template syntax): "; !strings.Contains(out, want) {
		t.Errorf("text summary lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "not a Kubernetes object\n") || strings.Contains(out, "skipped: fragment") {
		t.Errorf("text lists skipped documents one by one:\n%s", out)
	}
}
