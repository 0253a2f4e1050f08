package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const chartApp = "../../testdata/charts/app"

// TestHelmChartFlags: the helm template flags reach the render (a values
// file, --set, --release-name, --namespace), and JSON names the chart,
// the hook and approximate positions.
func TestHelmChartFlags(t *testing.T) {
	code, out, errOut := run(t, "", "-f", "json", "--values", chartApp+"/values-prod.yaml",
		"--release-name", "ml", "--namespace", "training", "--set", "replicaCount=3", chartApp)
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	var rep struct {
		Findings []struct {
			Rule, File, Path string
			Line             int
			Object           struct{ Namespace, Name string }
			Approximate      bool
			Chart            *struct{ Path, Values, Hook string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var approx, hooks int
	for _, f := range rep.Findings {
		if f.Chart == nil || f.Chart.Path != chartApp {
			t.Errorf("%s:%d %s: chart %+v", f.File, f.Line, f.Rule, f.Chart)
			continue
		}
		if !strings.HasPrefix(f.Object.Name, "ml-") || f.Object.Namespace != "training" && f.Object.Namespace != "" {
			t.Errorf("%s:%d %s: object %+v, want release ml in namespace training", f.File, f.Line, f.Rule, f.Object)
		}
		if f.Approximate {
			approx++
		}
		if f.Chart.Hook == "test" {
			hooks++
		}
	}
	if approx != 1 || hooks != 1 {
		t.Errorf("%d approximate findings and %d in hooks, want 1 and 1:\n%s", approx, hooks, out)
	}
}

// TestHelmChartUsageErrors: bad Helm flags and charts: entries are usage
// errors (exit 2) that name what is wrong, where.
func TestHelmChartUsageErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	abs, err := filepath.Abs(chartApp)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		args []string
		want string
	}{
		"kube version":   {[]string{"--kube-version", "one.two", chartApp}, "--kube-version one.two:"},
		"release name":   {[]string{"--release-name", "Not_Valid", chartApp}, "--release-name Not_Valid:"},
		"values missing": {[]string{"--values", filepath.Join(dir, "nope.yaml"), chartApp}, "nope.yaml"},
		"not a chart": {[]string{"-c", write("not-chart.yaml", "charts:\n  - path: .\n    values: {default: []}\n"), chartApp},
			"not-chart.yaml:2:5: charts[0].path: "},
		"values file": {[]string{"-c", write("no-values.yaml", "charts:\n  - path: "+abs+"\n    values:\n      prod: [missing.yaml]\n"), chartApp},
			"no-values.yaml:4:14: charts[0].values.prod[0]: values file "},
		"unknown key": {[]string{"-c", write("bad-key.yaml", "charts:\n  - path: "+abs+"\n    valueSets: {}\n"), chartApp},
			`bad-key.yaml:3:5: charts[0]: unknown key "valueSets" (known: path, values)`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := run(t, "", c.args...)
			if code != ExitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errOut, ExitUsage, c.want)
			}
		})
	}
}

// TestHelmValueSetsConfig: a chart listed in charts: is rendered once per
// value set, and a finding names its set, in text and JSON.
func TestHelmValueSetsConfig(t *testing.T) {
	abs, err := filepath.Abs(chartApp)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), ".dslint.yaml")
	text := "charts:\n  - path: " + abs + "\n    values: {default: [], prod: [" + abs + "/values-prod.yaml]}\nexclude: [\"**\"]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "", "-c", cfg, chartApp)
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	// Each set suppresses the logger's finding (not printed); prod adds
	// the toleration of its values file.
	if n := strings.Count(out, "(values prod"); n != 4 {
		t.Errorf("%d findings name the value set prod, want 4:\n%s", n, out)
	}
	if n := strings.Count(out, "(values default"); n != 3 {
		t.Errorf("%d findings name the value set default, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "(2 suppressed)") {
		t.Errorf("want both sets' logger findings suppressed:\n%s", out)
	}
}

// TestHelmRenderErrorExit: a chart that does not render exits 2 and names
// the template and line on stderr; the other inputs are still reported.
func TestHelmRenderErrorExit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "broken")
	for name, content := range map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: broken\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required \"set name\" .Values.name }}\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := run(t, "", dir, chartApp)
	if code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	if want := "templates/cm.yaml:4:11: the chart does not render: set name"; !strings.Contains(errOut, want) {
		t.Errorf("stderr:\n%s\nwant %q", errOut, want)
	}
	if !strings.Contains(out, "trainer.yaml:16:11") {
		t.Errorf("the other chart was not linted:\n%s", out)
	}
	// --no-helm lints the files as written: the templates are skipped.
	code, out, _ = run(t, "", "--no-helm", dir)
	if code != ExitOK || !strings.Contains(out, "skipped") {
		t.Errorf("--no-helm: exit %d, output:\n%s", code, out)
	}
}
