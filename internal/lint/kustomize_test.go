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

const kustomizeTestdata = "../../testdata/kustomize"

// lintPaths runs the whole pipeline on command-line paths.
func lintPaths(t *testing.T, opts manifest.Discovery, paths ...string) (*Outcome, Problems) {
	t.Helper()
	srcs, err := manifest.Discover(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	out, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t)})
	if len(problems.Internal) > 0 {
		t.Fatal(problems.Internal)
	}
	return out, problems
}

// findingLines are findings as "file:line:col rule namespace/name", sorted.
func findingLines(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s/%s", f.File, f.Line, f.Column, f.Rule, f.Object.Namespace, f.Object.Name))
	}
	return out
}

// TestKustomizeOverlay: the findings of an overlay (namePrefix, namespace,
// a strategic merge patch) point into the base's file, at the offending
// field where the base has it and at its nearest parent where the patch
// added it, and name the objects as the build does.
func TestKustomizeOverlay(t *testing.T) {
	out, problems := lintPaths(t, manifest.Discovery{}, kustomizeTestdata+"/overlays/prod")
	if len(problems.Unreadable) > 0 {
		t.Fatal(problems.Unreadable)
	}
	base := kustomizeTestdata + "/base/workloads.yaml"
	want := []string{
		base + ":20:11 invalid-toleration shop/prod-web",
		base + ":32:5 invalid-node-affinity shop/prod-agent",
		base + ":37:11 wildcard-toleration shop/prod-agent",
	}
	if got := findingLines(out.Findings); !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Two kustomization files, the base's workloads and the patch.
	if s := out.Summary; s.Files != 4 || s.Objects != 3 || s.Workloads != 2 {
		t.Errorf("summary %+v, want 4 files, 3 objects, 2 workloads", s)
	}
	// The inputs are the files findings can name: where the objects and
	// the comments that suppress their findings are.
	if want := []string{kustomizeTestdata + "/base/kustomization.yaml", base}; !slices.Equal(out.Inputs, want) {
		t.Errorf("inputs %v, want %v", out.Inputs, want)
	}
}

// TestKustomizeFilesLintedOnce: a file named beside a kustomization that
// builds it is linted as built, not a second time as written.
func TestKustomizeFilesLintedOnce(t *testing.T) {
	out, _ := lintPaths(t, manifest.Discovery{}, kustomizeTestdata+"/overlays/prod", kustomizeTestdata+"/base/workloads.yaml")
	for _, f := range out.Findings {
		if f.Object.Namespace != "shop" {
			t.Errorf("finding of the file as written: %v", findingLines([]finding.Finding{f}))
		}
	}
	if len(out.Findings) != 3 {
		t.Errorf("%d findings, want the overlay's 3: %v", len(out.Findings), findingLines(out.Findings))
	}
}

// TestNoKustomize lints the files of the directory as written.
func TestNoKustomize(t *testing.T) {
	out, _ := lintPaths(t, manifest.Discovery{NoKustomize: true}, kustomizeTestdata+"/base")
	want := []string{
		kustomizeTestdata + "/base/workloads.yaml:20:11 invalid-toleration /web",
		kustomizeTestdata + "/base/workloads.yaml:37:11 wildcard-toleration /agent",
	}
	if got := findingLines(out.Findings); !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKustomizeBuildError: a kustomization that does not build is reported
// with its file; the other inputs are linted all the same.
func TestKustomizeBuildError(t *testing.T) {
	out, problems := lintPaths(t, manifest.Discovery{}, kustomizeTestdata+"/broken", kustomizeTestdata+"/overlays/prod")
	if len(problems.Unreadable) != 1 || !strings.HasPrefix(problems.Unreadable[0].Error(), kustomizeTestdata+"/broken/kustomization.yaml: kustomize build failed: ") {
		t.Errorf("problems %v, want the broken kustomization's build error", problems.Unreadable)
	}
	if len(out.Findings) != 3 {
		t.Errorf("%d findings, want the prod overlay's 3", len(out.Findings))
	}
}

// TestKustomizeSuppression: a dslint:ignore comment in a base suppresses
// the findings of every build that reads it, once, and is not unused; an
// annotation survives the build and suppresses its object's findings.
func TestKustomizeSuppression(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("base/kustomization.yaml", "resources: [pods.yaml]\n")
	write("base/pods.yaml", `apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  containers: [{name: a, image: a}]
  tolerations:
    - key: k
      operator: Exists
      # dslint:ignore invalid-toleration the value is ignored anyway
      value: v
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec:
  containers: [{name: b, image: b}]
  tolerations:
    - key: k
      operator: Exists
      value: v
`)
	write("one/kustomization.yaml", "resources: [../base]\nnamePrefix: one-\n")
	write("two/kustomization.yaml", "resources: [../base]\nnamePrefix: two-\ncommonAnnotations:\n  ignore.dslint.io/invalid-toleration: checked by hand\n")
	t.Chdir(root)
	out, _ := lintPaths(t, manifest.Discovery{}, "one", "two")
	var got []string
	for _, f := range out.Findings {
		if f.Rule == "invalid-toleration" || strings.Contains(f.Rule, "suppression") {
			got = append(got, fmt.Sprintf("%s:%d %s %s suppressed=%v", f.File, f.Line, f.Rule, f.Object.Name, f.Suppressed))
		}
	}
	want := []string{
		"base/pods.yaml:10 invalid-toleration one-a suppressed=true",
		"base/pods.yaml:10 invalid-toleration two-a suppressed=true",
		"base/pods.yaml:20 invalid-toleration one-b suppressed=false",
		"base/pods.yaml:20 invalid-toleration two-b suppressed=true",
		// The comment came first for two-a; the annotation two's
		// kustomization added points at the metadata it was added to.
		"base/pods.yaml:3 unused-suppression two-a suppressed=false",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
