package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/dslint/dslint/internal/finding"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sample is a small result that exercises every field a format prints:
// two files, all three severities, a suppressed finding, a skipped file,
// skipped documents and a note.
func sample() *finding.Result {
	ds := finding.Object{APIVersion: "apps/v1", Kind: "DaemonSet", Namespace: "logging", Name: "fluent-bit"}
	job := finding.Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "ml", Name: "train"}
	res := &finding.Result{
		Findings: []finding.Finding{
			{Rule: "daemonset-missing-control-plane-toleration", Severity: finding.Warning,
				Message: `daemonset "fluent-bit" does not tolerate "node-role.kubernetes.io/control-plane:NoSchedule": it will not run on control-plane nodes`,
				File:    "deploy/logging.yaml", Line: 9, Column: 5, Object: ds, Path: "spec.template.spec"},
			{Rule: "wildcard-toleration", Severity: finding.Info,
				Message: `toleration with "operator: Exists" and no key tolerates every taint`,
				File:    "deploy/logging.yaml", Line: 14, Column: 11, Object: ds, Path: "spec.template.spec.tolerations[0]"},
			{Rule: "invalid-toleration", Severity: finding.Error,
				Message: `toleration value "true" must be empty when operator is "Exists"`,
				File:    "jobs/train.yaml", Line: 12, Column: 20, Object: job, Path: "spec.template.spec.tolerations[0].value"},
			{Rule: "toleration-without-node-selector", Severity: finding.Warning, Suppressed: true,
				Message: `tolerates the dedicated taint "gpu" but has no node constraint`,
				File:    "jobs/train.yaml", Line: 13, Column: 11, Object: job, Path: "spec.template.spec.tolerations[1]",
				Suppression: finding.Suppression{Kind: finding.SuppressedByComment,
					Reason: "the scheduler extender places training jobs", File: "jobs/train.yaml", Line: 13, Column: 30}},
		},
		Skipped: []finding.Skipped{
			{File: "chart/templates/ds.yaml", Reason: "helm template syntax (render it first: helm template … | dslint -)", Kind: finding.SkippedTemplate},
			{File: "deploy/logging.yaml", Line: 1, Reason: finding.ReasonNotObject, Kind: finding.SkippedNotObject},
			{File: "deploy/logging.yaml", Line: 30, Reason: finding.ReasonNotObject, Kind: finding.SkippedNotObject},
			{File: "jobs/train.yaml", Line: 20, Reason: finding.ReasonFragment, Kind: finding.SkippedFragment},
		},
		Summary: finding.Summary{Files: 3, Objects: 4, Workloads: 2},
		Inputs:  []string{"deploy/logging.yaml", "jobs/train.yaml", "chart/templates/ds.yaml"},
		Notes:   []string{"2 Node objects among the inputs (test/nodes.yaml) are not used as the node inventory; to check placement against them, name their file with --nodes (or nodes: in .dslint.yaml)"},
		Rules:   sampleRules(),
	}
	res.Count()
	return res
}

// chartSample is a result of a Helm chart linted with a value set: a
// finding at an approximate position, whose field came from a value, and
// one in a helm-test hook.
func chartSample() *finding.Result {
	res := &finding.Result{
		Findings: []finding.Finding{
			{Rule: "toleration-without-node-selector", Severity: finding.Warning,
				Message: `deployment "inference" tolerates the dedicated taint "dedicated=inference:NoSchedule" but has no node constraint`,
				File:    "charts/inference/templates/deployment.yaml", Line: 22, Column: 7, Approximate: true,
				Object: finding.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "ml", Name: "inference"},
				Path:   "spec.template.spec.tolerations[0]",
				Chart:  &finding.Chart{Path: "charts/inference", Values: "prod"},
				Value:  &finding.Value{Ref: ".Values.tolerations", File: "charts/inference/values-prod.yaml", Line: 4, Column: 5}},
			{Rule: "invalid-toleration", Severity: finding.Error,
				Message: `toleration value "x" must be empty when operator is "Exists"`,
				File:    "charts/inference/templates/tests/test.yaml", Line: 11, Column: 9,
				Object: finding.Object{APIVersion: "v1", Kind: "Pod", Namespace: "ml", Name: "inference-test"},
				Path:   "spec.tolerations[0].value",
				Chart:  &finding.Chart{Path: "charts/inference", Values: "prod", Hook: "test"}},
		},
		Inputs:  []string{"charts/inference/templates/deployment.yaml", "charts/inference/templates/tests/test.yaml"},
		Summary: finding.Summary{Files: 2, Objects: 2, Workloads: 2},
		Rules:   sampleRules(),
	}
	res.Count()
	return res
}

// TestChartGolden pins what every format says of a chart's findings: the
// value set, the hook, the approximate position and the value.
func TestChartGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, format, chartSample(), Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, "chart."+format, b.Bytes())
		})
	}
}

func sampleRules() []finding.Rule {
	return []finding.Rule{
		{ID: "daemonset-missing-control-plane-toleration", Title: "DaemonSet skips control-plane nodes",
			Description: "A DaemonSet without a node constraint does not tolerate the control-plane taint.",
			Severity:    finding.Warning, Remediation: "Tolerate node-role.kubernetes.io/control-plane:NoSchedule.",
			Related: []finding.Link{{URL: "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/", Description: "DaemonSet"}}},
		{ID: "invalid-toleration", Title: "Toleration the API server rejects", Description: "The toleration is invalid.",
			Severity: finding.Error, Remediation: "Fix the toleration."},
		{ID: "toleration-without-node-selector", Title: "Toleration without node constraint", Description: "Pods can land anywhere.",
			Severity: finding.Warning, Remediation: "Add a nodeSelector."},
		{ID: "wildcard-toleration", Title: "Toleration of every taint", Description: "operator Exists with no key.",
			Severity: finding.Warning, Remediation: "Name the taint key."},
	}
}

// golden compares got with testdata/<name>, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./internal/report -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file (run: go test ./internal/report -update, then review the diff)\n--- got ---\n%s", name, got)
	}
}

func TestGolden(t *testing.T) {
	cases := []struct {
		file, format string
		opts         Options
	}{
		{"sample.txt", "text", Options{}},
		{"sample-suppressed.txt", "text", Options{ShowSuppressed: true}},
		{"sample-color.txt", "text", Options{Color: true}},
		{"sample-quiet.txt", "text", Options{Quiet: true}},
		{"sample.json", "json", Options{}},
		{"sample.sarif", "sarif", Options{}},
		{"sample.github", "github", Options{}},
		{"sample-quiet.github", "github", Options{Quiet: true}},
		{"sample.md", "markdown", Options{}},
		{"sample.junit.xml", "junit", Options{}},
		{"sample.gitlab.json", "gitlab", Options{}},
		{"sample.checkstyle.xml", "checkstyle", Options{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, c.format, sample(), c.opts); err != nil {
				t.Fatal(err)
			}
			golden(t, c.file, buf.Bytes())
		})
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "yaml", sample(), Options{}); err == nil {
		t.Fatal("want an error for an unknown format")
	}
}

// TestSkippedSummary: the summary counts skipped documents by reason, and
// the files skipped whole, as the JSON lists them.
func TestSkippedSummary(t *testing.T) {
	doc := func(kind finding.SkipKind) finding.Skipped {
		return finding.Skipped{File: "a.yaml", Line: 3, Kind: kind}
	}
	notObject, fragment := doc(finding.SkippedNotObject), doc(finding.SkippedFragment)
	template := finding.Skipped{File: "t.yaml", Kind: finding.SkippedTemplate}
	other := finding.Skipped{File: "o.yaml", Reason: "unreadable"}
	cases := []struct {
		skipped []finding.Skipped
		want    string
	}{
		{nil, ""},
		{[]finding.Skipped{notObject}, "1 document skipped: not a Kubernetes object"},
		{[]finding.Skipped{notObject, notObject}, "2 documents skipped: not Kubernetes objects"},
		{[]finding.Skipped{fragment}, "1 document skipped: a workload fragment"},
		{[]finding.Skipped{fragment, fragment, fragment}, "3 documents skipped: workload fragments"},
		{[]finding.Skipped{notObject, fragment}, "2 documents skipped: 1 not a Kubernetes object, 1 workload fragment"},
		{[]finding.Skipped{fragment, notObject, notObject, fragment, notObject}, "5 documents skipped: 3 not Kubernetes objects, 2 workload fragments"},
		{[]finding.Skipped{template}, "1 file skipped: helm template syntax"},
		{[]finding.Skipped{template, notObject, template}, "1 document skipped: not a Kubernetes object; 2 files skipped: helm template syntax"},
		{[]finding.Skipped{template, other}, "2 files skipped"},
	}
	for _, c := range cases {
		if got := skippedSummary(c.skipped); got != c.want {
			t.Errorf("skippedSummary(%v) = %q, want %q", c.skipped, got, c.want)
		}
	}
}
