package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

const kustomizeTestdata = "../../testdata/kustomize"

// jsonFindings reads a JSON report into "file:line:col rule namespace/name".
func jsonFindings(t *testing.T, out string) []string {
	t.Helper()
	var rep struct {
		Findings []struct {
			Rule, File   string
			Line, Column int
			Object       struct{ Namespace, Name string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s/%s", f.File, f.Line, f.Column, f.Rule, f.Object.Namespace, f.Object.Name))
	}
	return got
}

// TestKustomizeDirectory: a directory with a kustomization is linted as
// kustomize builds it; --no-kustomize lints its files as written.
func TestKustomizeDirectory(t *testing.T) {
	base := kustomizeTestdata + "/base/workloads.yaml"
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{kustomizeTestdata + "/overlays/prod-eu"}, []string{
			base + ":20:11 invalid-toleration shop/prod-web-eu",
			base + ":32:5 invalid-node-affinity shop/prod-agent-eu",
			base + ":37:11 wildcard-toleration shop/prod-agent-eu",
		}},
		// The patch as written is a fragment (a DaemonSet without
		// containers): skipped, its bad nodeSelector judged once merged.
		{[]string{"--no-kustomize", kustomizeTestdata + "/overlays/prod"}, nil},
		{[]string{"--no-kustomize", kustomizeTestdata + "/base"}, []string{
			base + ":20:11 invalid-toleration /web",
			base + ":37:11 wildcard-toleration /agent",
		}},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "", append([]string{"-f", "json", "--fail-on", "none"}, c.args...)...)
		if code != ExitOK {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
		if got := jsonFindings(t, out); !slices.Equal(got, c.want) {
			t.Errorf("%v: findings\n%s\nwant\n%s", c.args, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestKustomizeBuildErrorExit: a kustomization that does not build exits 2
// and names its file, after the report of everything else.
func TestKustomizeBuildErrorExit(t *testing.T) {
	code, out, errOut := run(t, "", "-f", "json", kustomizeTestdata+"/broken", kustomizeTestdata+"/overlays/prod")
	if code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	if !strings.HasPrefix(errOut, "dslint: "+kustomizeTestdata+"/broken/kustomization.yaml: kustomize build failed: ") {
		t.Errorf("stderr %q does not name the kustomization", errOut)
	}
	if got := jsonFindings(t, out); len(got) != 3 {
		t.Errorf("findings %v, want the prod overlay's 3", got)
	}
	code, _, errOut = run(t, "", kustomizeTestdata+"/remote")
	if code != ExitUsage || !strings.Contains(errOut, "remote/kustomization.yaml:3:5: resources entry \"https://github.com/example/deploy//base?ref=v1.0.0\" is remote") {
		t.Errorf("remote base: exit %d, stderr %q", code, errOut)
	}
}

// TestScheduleKustomize: schedule reads kustomizations too, and places
// each workload at its line in the base.
func TestScheduleKustomize(t *testing.T) {
	for _, args := range [][]string{{}, {"--no-kustomize"}} {
		args = append([]string{"schedule", "-f", "json", "--nodes", "../../examples/nodes.yaml"}, args...)
		code, out, errOut := run(t, "", append(args, kustomizeTestdata+"/overlays/prod")...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var doc struct {
			Placements []struct {
				Object struct{ Name string }
				File   string
				Line   int
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range doc.Placements {
			got = append(got, fmt.Sprintf("%s %s:%d", p.Object.Name, p.File, p.Line))
		}
		want := []string{"prod-web " + kustomizeTestdata + "/base/workloads.yaml:2", "prod-agent " + kustomizeTestdata + "/base/workloads.yaml:23"}
		if slices.Contains(args, "--no-kustomize") { // the overlay's files as written: a patch, which is no workload
			want = nil
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%v: placements %v, want %v", args, got, want)
		}
	}
}

// helmStream is what `helm template` prints: every document after a
// "# Source:" comment naming its template.
const helmStream = `---
# Source: shop/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: shop
---
# Source: shop/templates/web.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-web
spec:
  template:
    spec:
      nodeSelector: {pool: web}
      containers: [{name: web, image: nginx}]
      tolerations:
        - key: pool
          operator: Exists
          value: web
---
# Source: shop/templates/agent.yaml
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: shop-agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers: [{name: agent, image: agent}]
      tolerations:
        - operator: Exists
---
apiVersion: v1
kind: Pod
metadata: {name: extra}
spec:
  containers: [{name: p, image: p}]
  tolerations: [{key: a, operator: Exists, value: b}]
---
# Source: shop/templates/broken.yaml
apiVersion: v1
kind: [
`

// TestHelmStdin: documents of a helm template stream name their template
// and count lines from the line after the "# Source:" comment; a document
// without one keeps the stream's name and lines.
func TestHelmStdin(t *testing.T) {
	_, out, _ := run(t, helmStream, "-f", "json", "-")
	want := []string{
		"<stdin>:44:44 invalid-toleration /extra",
		"shop/templates/agent.yaml:14:11 wildcard-toleration /shop-agent",
		"shop/templates/broken.yaml:2:1 parse-error /",
		"shop/templates/web.yaml:13:11 invalid-toleration /shop-web",
	}
	if got := jsonFindings(t, out); !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The text format names the same file and line.
	_, text, _ := run(t, helmStream, "-")
	if !strings.Contains(text, "shop/templates/web.yaml:13:11: error: ") {
		t.Errorf("text report:\n%s", text)
	}
}

// TestKustomizeExample keeps the shipped example what its comments say.
func TestKustomizeExample(t *testing.T) {
	const dir = "../../docs/examples/kustomize"
	code, out, errOut := run(t, "", "-f", "json", dir+"/overlays/prod")
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := []string{
		dir + "/base/node-exporter.yaml:15:7 daemonset-missing-control-plane-toleration ml/prod-node-exporter",
		dir + "/base/node-exporter.yaml:16:11 deprecated-master-key ml/prod-node-exporter",
		dir + "/base/trainer.yaml:18:11 invalid-toleration ml/prod-trainer",
	}
	if got := jsonFindings(t, out); !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
