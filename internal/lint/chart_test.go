package lint

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dslint/dslint/internal/helm"
	"github.com/dslint/dslint/internal/manifest"
)

const chartTestdata = "../../testdata/charts/app"

// lintChart renders and lints paths with the Helm settings charts.
func lintChart(t *testing.T, charts Charts, paths ...string) (*Outcome, Problems) {
	t.Helper()
	srcs, err := manifest.Discover(paths, manifest.Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	out, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t), Helm: charts})
	if len(problems.Internal) > 0 {
		t.Fatal(problems.Internal)
	}
	return out, problems
}

var wantComment = regexp.MustCompile(`#\s*want:\s*(\S+)`)

// chartWants are the "# want: RULE" comments of the chart's templates, as
// "file:line rule".
func chartWants(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(dir, "templates"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			if m := wantComment.FindStringSubmatch(sc.Text()); m != nil {
				out = append(out, fmt.Sprintf("%s:%d %s", filepath.ToSlash(path), n, m[1]))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestChartPositions: every finding of a chart points at the template
// line its "# want:" comment is on, in the template Helm names or in the
// partial it includes, exactly (not approximate); the suppressed one is
// suppressed by the comment written in the template; the helm-test hook
// is marked; the template .helmignore names is not rendered.
func TestChartPositions(t *testing.T) {
	out, problems := lintChart(t, Charts{}, chartTestdata)
	if len(problems.Unreadable) > 0 {
		t.Fatal(problems.Unreadable)
	}
	var got []string
	for _, f := range out.Findings {
		if f.Suppressed {
			if f.File != chartTestdata+"/templates/logger.yaml" || f.Suppression.Line != 13 {
				t.Errorf("suppressed %s at %s:%d by %s:%d, want the comment at logger.yaml:13", f.Rule, f.File, f.Line, f.Suppression.File, f.Suppression.Line)
			}
			continue
		}
		if f.Approximate {
			t.Errorf("%s:%d %s is approximate; the template writes the field", f.File, f.Line, f.Rule)
		}
		if f.Chart == nil || f.Chart.Path != chartTestdata {
			t.Errorf("%s:%d %s: chart %+v, want %s", f.File, f.Line, f.Rule, f.Chart, chartTestdata)
		}
		if strings.Contains(f.File, "/tests/") != (f.Chart != nil && f.Chart.Hook == "test") {
			t.Errorf("%s:%d %s: hook %q", f.File, f.Line, f.Rule, f.Chart.Hook)
		}
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule))
	}
	slices.Sort(got)
	if want := chartWants(t, chartTestdata); !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant (# want: comments):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Four templates make objects; NOTES.txt and the partials make none.
	if s := out.Summary; s.Files != 4 || s.Objects != 4 || s.Workloads != 4 {
		t.Errorf("summary %+v, want 4 files, 4 objects, 4 workloads", s)
	}
}

// TestChartValueSets: a chart with value sets is rendered once per set,
// and each finding names its set. A toleration that comes from the values
// (toYaml) points at the tolerations: key of the template, approximate,
// and names the value and where the values file sets it.
func TestChartValueSets(t *testing.T) {
	sets := map[string][]ValueSet{manifest.RealPath(chartTestdata): {
		{Name: "default"},
		{Name: "prod", Files: []string{chartTestdata + "/values-prod.yaml"}},
	}}
	out, _ := lintChart(t, Charts{ValueSets: sets}, chartTestdata)
	count := map[string]int{}
	var approx []string
	for _, f := range out.Findings {
		if f.Chart == nil {
			t.Fatalf("%s:%d %s has no chart", f.File, f.Line, f.Rule)
		}
		count[f.Chart.Values]++
		if f.Approximate {
			approx = append(approx, fmt.Sprintf("%s:%d:%d %s %s %s from %+v", f.File, f.Line, f.Column, f.Rule, f.Chart.Values, f.Path, *f.Value))
		}
	}
	if count["default"] != 4 || count["prod"] != 5 {
		t.Errorf("findings by value set %v, want default 4, prod 5", count)
	}
	// The value's item is the template's second toleration but the first
	// of the values file: the value's key is where it is set.
	want := []string{chartTestdata + "/templates/trainer.yaml:13:7 invalid-toleration prod spec.template.spec.tolerations[1].value from " +
		"{Ref:.Values.gpu.tolerations File:" + chartTestdata + "/values-prod.yaml Line:2 Column:3}"}
	if !slices.Equal(approx, want) {
		t.Errorf("approximate findings:\n%s\nwant:\n%s", strings.Join(approx, "\n"), strings.Join(want, "\n"))
	}
}

// writeChart writes a chart of the given files (path -> content) into a
// new directory, with a Chart.yaml unless files has one.
func writeChart(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "broken")
	if _, ok := files["Chart.yaml"]; !ok {
		files["Chart.yaml"] = "apiVersion: v2\nname: broken\nversion: 0.1.0\n"
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestChartRenderErrors: a chart that does not render is an unreadable
// input at the file (and line) Helm names; the other inputs are still
// linted.
func TestChartRenderErrors(t *testing.T) {
	cases := map[string]struct {
		files map[string]string
		want  string // the error, dir standing for the chart directory
	}{
		"required": {map[string]string{"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required \"name is required\" .Values.name }}\n"},
			"DIR/templates/cm.yaml:4:11: the chart does not render: name is required"},
		"fail": {map[string]string{"templates/cm.yaml": "# a comment\n{{ fail \"unsupported mode\" }}\n"},
			"DIR/templates/cm.yaml:2:3: the chart does not render: unsupported mode"},
		"syntax": {map[string]string{"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name \n"},
			"DIR/templates/cm.yaml:5: the chart does not render: unclosed action started at DIR/templates/cm.yaml:4"},
		"missing dependency": {map[string]string{"Chart.yaml": "apiVersion: v2\nname: broken\nversion: 0.1.0\ndependencies:\n  - name: redis\n    version: 1.0.0\n    repository: https://example.com/charts\n"},
			`DIR/Chart.yaml:5:5: dependency "redis" is in Chart.yaml but not in charts/: run helm dependency build DIR`},
		"nil value": {map[string]string{"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.a.b.c }}\n"},
			"DIR/templates/cm.yaml:4:18: the chart does not render: executing"},
		"Chart.yaml": {map[string]string{"Chart.yaml": "apiVersion: v2\nname: broken\nversion: [\n"},
			"DIR/Chart.yaml:3: cannot load the chart: "},
		"not YAML": {map[string]string{"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\n  metadata: [\n"},
			"DIR/templates/cm.yaml: the rendered template is not valid YAML: "},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := writeChart(t, c.files)
			out, problems := lintChart(t, Charts{}, dir, "../../examples/manifests/gpu-training.yaml")
			if len(problems.Unreadable) != 1 {
				t.Fatalf("problems %v, want one", problems.Unreadable)
			}
			got := problems.Unreadable[0].Error()
			want := strings.ReplaceAll(c.want, "DIR", manifest.DisplayName(dir))
			if !strings.HasPrefix(got, want) {
				t.Errorf("error:\n%s\nwant it to start with:\n%s", got, want)
			}
			if out.Summary.Workloads == 0 {
				t.Error("the other input was not linted")
			}
		})
	}
}

// TestChartSymlinkLoop: a link loop inside a chart is an error that says
// so, not a path thousands of characters long.
func TestChartSymlinkLoop(t *testing.T) {
	dir := writeChart(t, map[string]string{"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"})
	if err := os.Symlink("..", filepath.Join(dir, "templates", "loop")); err != nil {
		t.Skip(err)
	}
	_, problems := lintChart(t, Charts{}, dir)
	if len(problems.Unreadable) != 1 || !strings.HasSuffix(problems.Unreadable[0].Error(), "cannot load the chart: a symbolic link inside it loops") {
		t.Errorf("problems %v", problems.Unreadable)
	}
}

// TestChartLimits: a chart that renders without end, or too much, is
// stopped with an error that says which limit it hit.
func TestChartLimits(t *testing.T) {
	defer func(d time.Duration, b int) { helm.Timeout, helm.MaxBytes = d, b }(helm.Timeout, helm.MaxBytes)
	huge := writeChart(t, map[string]string{"templates/huge.yaml": "data: {{ repeat 2000000 \"x\" }}\n"})
	// Seconds of work, far past the timeout but finite: a render past its
	// timeout is abandoned, not stopped, and would burn a CPU for the rest
	// of the package's tests.
	endless := writeChart(t, map[string]string{"templates/loop.yaml": "{{ range until 10000 }}{{ range until 10000 }}{{ end }}{{ end }}\n"})
	// The output limit first, with time to spare, before the slow render.
	for _, c := range []struct {
		dir     string
		timeout time.Duration
		want    string
	}{
		{huge, time.Minute, "renders 1 MiB; dslint reads at most 1 MiB"},
		{endless, 300 * time.Millisecond, "took longer than 300ms"},
	} {
		helm.Timeout, helm.MaxBytes = c.timeout, 1<<20
		dir, want := c.dir, c.want
		_, problems := lintChart(t, Charts{}, dir)
		var at *manifest.Error
		if len(problems.Unreadable) != 1 || !errors.As(problems.Unreadable[0], &at) || !strings.Contains(at.Message, want) {
			t.Errorf("%s: problems %v, want one saying %q", dir, problems.Unreadable, want)
		}
	}
}
