package helm

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedChartsRender renders every command of the real charts'
// README in process and checks the object counts the README gives.
func TestSharedChartsRender(t *testing.T) {
	dir := sharedCharts(t)
	for _, c := range readmeCommands(t, dir) {
		t.Run(c.line, func(t *testing.T) {
			r := c.render(t, dir)
			if n := objects(r); c.objects > 0 && n != c.objects {
				t.Errorf("%d objects, the README says %d", n, c.objects)
			}
		})
	}
}

// TestHelmCLIDifferential renders every command of the real charts'
// README in process and with the helm CLI (DSLINT_HELM: built in .ci/run
// from the module proxy, the same Helm version as go.mod's), and wants
// the same output, byte for byte.
func TestHelmCLIDifferential(t *testing.T) {
	helm := os.Getenv("DSLINT_HELM")
	if helm == "" {
		t.Skip("DSLINT_HELM (a helm binary) is not set; .ci/run builds one")
	}
	dir := sharedCharts(t)
	for _, c := range readmeCommands(t, dir) {
		t.Run(c.line, func(t *testing.T) {
			r := c.render(t, dir)
			args := shellWords(t, c.line)[1:]
			cmd := exec.Command(helm, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HELM_CONFIG_HOME="+t.TempDir(), "HELM_CACHE_HOME="+t.TempDir(), "HELM_DATA_HOME="+t.TempDir())
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("helm: %v", err)
			}
			if got := r.String(); got != string(want) {
				t.Errorf("in process and helm CLI differ:\n%s", firstDifference(got, string(want)))
			}
		})
	}
}

// render renders the command's chart in process, from the charts' dir.
func (c readmeCommand) render(t *testing.T, dir string) *Render {
	t.Helper()
	r, err := Run(context.Background(), filepath.Join(dir, c.chart), c.chart, c.opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// objects counts the documents of a render that are more than comments
// (ingress-nginx renders a PodDisruptionBudget template that holds only a
// comment, which helm template prints as a document of its own).
func objects(r *Render) int {
	n := 0
	for _, d := range r.Docs {
		for _, l := range strings.Split(d.Content, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				n++
				break
			}
		}
	}
	return n
}

// firstDifference shows the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n  in process: " + a + "\n  helm:       " + b
		}
	}
	return "(equal lines, different length)"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
