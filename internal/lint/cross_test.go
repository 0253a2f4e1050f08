package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/manifest"
)

const daemonSetOn9100 = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: exporter}
spec:
  template:
    spec:
      hostNetwork: true
      containers:
        - name: e
          image: e
          ports:
            - containerPort: 9100
`

const deploymentOn9100 = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers:
        - name: w
          image: w
          ports:
            - containerPort: 80
              hostPort: 9100
`

// TestCrossFileFindings: a cross-object rule sees the objects of every file
// of the run, each finding points into its own file, and its message can
// point at the other file: each fact reaches the rule with its file and line.
func TestCrossFileFindings(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"a.yaml": daemonSetOn9100, "b.yaml": deploymentOn9100} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srcs, err := manifest.Discover([]string{dir}, manifest.Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	res, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t)})
	if len(problems.Internal) > 0 {
		t.Fatal(problems.Internal)
	}
	got := map[string]int{}
	for _, f := range res.Findings {
		if f.Rule == "hostport-conflict" {
			got[filepath.Base(f.File)] = f.Line
			if f.Path != "spec.template.spec.containers[0].ports[0]" {
				t.Errorf("%s: path %s", f.File, f.Path)
			}
			other := map[string]string{"a.yaml": "b.yaml:11", "b.yaml": "a.yaml:12"}[filepath.Base(f.File)]
			if !strings.Contains(f.Message, other+")") {
				t.Errorf("%s: message %q does not point at %s", f.File, f.Message, other)
			}
		}
	}
	if got["a.yaml"] != 12 || got["b.yaml"] != 11 {
		t.Errorf("hostport-conflict findings at %v, want a.yaml line 12 and b.yaml line 11", got)
	}
}
