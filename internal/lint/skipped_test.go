package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// mixed holds every kind of document that is skipped, at known lines, and
// one workload.
const mixed = `name: settings of another tool
---
- a top-level sequence
- of strings
---
# A Kustomize patch: a DaemonSet whose container has no image.
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  template:
    spec:
      containers: [{name: agent, resources: {limits: {memory: 1Gi}}}]
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: c}
  - just: a mapping
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: web, image: nginx:1.27}]
`

// TestSkippedDocuments: every skipped document and List item is listed with
// its file, the line it starts on and an accurate reason; a patch is a
// fragment, not "not a Kubernetes object"; a file with Helm template syntax
// is skipped whole with its hint.
func TestSkippedDocuments(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"mixed.yaml": mixed,
		"chart.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srcs := []manifest.Source{
		{Path: filepath.Join(dir, "mixed.yaml"), Name: "mixed.yaml"},
		{Path: filepath.Join(dir, "chart.yaml"), Name: "chart.yaml"},
	}
	out, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t)})
	if err := problems.Err(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range out.Skipped {
		got = append(got, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Reason))
	}
	want := []string{
		"chart.yaml:0 " + helmHint,
		"mixed.yaml:1 not a Kubernetes object",
		"mixed.yaml:3 not a Kubernetes object",
		"mixed.yaml:7 fragment: a workload without a complete pod template (a patch or test assertion)",
		"mixed.yaml:21 not a Kubernetes object",
	}
	if !slices.Equal(got, want) {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	kinds := []finding.SkipKind{finding.SkippedTemplate, finding.SkippedNotObject, finding.SkippedNotObject, finding.SkippedFragment, finding.SkippedNotObject}
	for i, s := range out.Skipped {
		if i < len(kinds) && s.Kind != kinds[i] {
			t.Errorf("skipped %d (%s:%d) is of kind %d, want %d", i, s.File, s.Line, s.Kind, kinds[i])
		}
	}
	// The objects are the List's ConfigMap and the Pod.
	if s := out.Summary; s.Files != 2 || s.Objects != 2 || s.Workloads != 1 {
		t.Errorf("summary %+v, want 2 files, 2 objects, 1 workload", s)
	}
}

// TestSkippedDocumentsOfAHelmStream: in helm template output on stdin, a
// skipped document names its template and its line there, as findings do.
func TestSkippedDocumentsOfAHelmStream(t *testing.T) {
	stream := `---
# Source: app/templates/values.yaml
replicas: 3
---
# Source: app/templates/ds.yaml
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec: {template: {spec: {containers: [{name: agent}]}}}
`
	res := lintString(t, stream, Options{})
	var got []string
	for _, s := range res.Skipped {
		got = append(got, fmt.Sprintf("%s:%d %v", s.File, s.Line, s.Kind))
	}
	want := []string{
		fmt.Sprintf("app/templates/ds.yaml:1 %v", finding.SkippedFragment),
		fmt.Sprintf("app/templates/values.yaml:1 %v", finding.SkippedNotObject),
	}
	if !slices.Equal(got, want) {
		t.Errorf("skipped %v, want %v", got, want)
	}
}

// TestInputs: the inputs read whole are listed in input order, a file
// skipped for template syntax among them (its JUnit test is skipped, not
// missing); a file that cannot be read is not.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"b.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
		"a.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"chart.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srcs := []manifest.Source{
		{Path: filepath.Join(dir, "b.yaml"), Name: "b.yaml"},
		{Path: filepath.Join(dir, "missing.yaml"), Name: "missing.yaml"},
		{Path: filepath.Join(dir, "a.yaml"), Name: "a.yaml"},
		{Path: filepath.Join(dir, "chart.yaml"), Name: "chart.yaml"},
	}
	out, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t)})
	if len(problems.Unreadable) != 1 {
		t.Fatalf("unreadable: %v, want missing.yaml alone", problems.Unreadable)
	}
	if want := []string{"b.yaml", "a.yaml", "chart.yaml"}; !slices.Equal(out.Inputs, want) {
		t.Errorf("inputs %v, want %v", out.Inputs, want)
	}
}
