package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDiscoverKustomizations: a directory argument holding a kustomization
// is one source to build, whatever its kustomization file is called; a
// kustomization further down a walked directory is walked like the rest;
// --no-kustomize walks them all.
func TestDiscoverKustomizations(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"app/kustomization.yaml", "app/deploy.yaml",
		"other/Kustomization", "other/pod.yaml",
		"tree/sub/kustomization.yml", "tree/sub/pod.yaml",
	} {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("a: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	args := []string{"app", "other", "tree", "app"}
	srcs, err := Discover(args, Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Source{
		{Path: "app", Name: "app", Kustomization: true},
		{Path: "other", Name: "other", Kustomization: true},
		{Path: "tree/sub/kustomization.yml", Name: "tree/sub/kustomization.yml"},
		{Path: "tree/sub/pod.yaml", Name: "tree/sub/pod.yaml"},
	}
	if !slices.Equal(srcs, want) {
		t.Errorf("Discover = %+v\nwant %+v", srcs, want)
	}
	srcs, err = Discover(args, Discovery{NoKustomize: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range srcs {
		if s.Kustomization {
			t.Errorf("%s is to be built with --no-kustomize", s.Name)
		}
		names = append(names, s.Name)
	}
	if want := []string{"app/deploy.yaml", "app/kustomization.yaml", "other/pod.yaml", "tree/sub/kustomization.yml", "tree/sub/pod.yaml"}; !slices.Equal(names, want) {
		t.Errorf("--no-kustomize sources %v, want %v", names, want)
	}
}
