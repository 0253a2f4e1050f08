package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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

// write makes the files of a tree under root, with their directories.
func write(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("a: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func names(srcs []Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, s.Name)
	}
	return out
}

// TestDiscoverSurvivesLinkLoops: links back up the tree, to themselves and
// across it end, and every real file is read once, whatever its names.
func TestDiscoverSurvivesLinkLoops(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a/pod.yaml", "a/b/deploy.yaml")
	symlink(t, "../..", filepath.Join(root, "a/b/up"))         // a loop through the parent
	symlink(t, ".", filepath.Join(root, "a/self"))             // a loop on itself
	symlink(t, "../a", filepath.Join(root, "a/b/again"))       // a second name for a/
	symlink(t, "pod.yaml", filepath.Join(root, "a/same.yaml")) // a second name for a file
	symlink(t, "loop.yaml", filepath.Join(root, "a/loop.yaml"))
	symlink(t, "nowhere.yaml", filepath.Join(root, "a/dangling.yaml"))
	t.Chdir(root)
	srcs, err := Discover([]string{"a", "a/b/up", "a/pod.yaml"}, Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(srcs), []string{"a/b/deploy.yaml", "a/pod.yaml"}; !slices.Equal(got, want) {
		t.Errorf("sources %v, want %v", got, want)
	}
	if _, err := Discover([]string{"a/loop.yaml"}, Discovery{}); err == nil || !strings.Contains(err.Error(), "a/loop.yaml: too many levels of symbolic links") {
		t.Errorf("a link to itself named on the command line: %v", err)
	}
}

// TestDiscoverSkipsSpecialFiles: a named pipe would block a read forever,
// and /dev/zero never ends; in a directory, neither is a manifest.
func TestDiscoverSkipsSpecialFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, "pod.yaml")
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.yaml"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	symlink(t, os.DevNull, filepath.Join(root, "null.yaml"))
	srcs, err := Discover([]string{root}, Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 1 || filepath.Base(srcs[0].Path) != "pod.yaml" {
		t.Errorf("sources %v, want pod.yaml alone", names(srcs))
	}
}

// TestDiscoverManyFiles walks a directory of many small files: each is a
// source once, in order. (make hostile times 100,000 of them.)
func TestDiscoverManyFiles(t *testing.T) {
	root := t.TempDir()
	const n = 1000
	var files []string
	for i := range n {
		files = append(files, fmt.Sprintf("d%d/f%04d.yaml", i%3, i))
	}
	write(t, root, files...)
	srcs, err := Discover([]string{root}, Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != n || !slices.IsSortedFunc(srcs, func(a, b Source) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("%d sources, want %d in order", len(srcs), n)
	}
}

// TestDiscoverCharts: a directory with a Chart.yaml is one chart source,
// named or found while walking, and a file of a chart (a subchart's
// included) stands for the chart that vendors it; --no-helm walks charts
// as files.
func TestDiscoverCharts(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"app/Chart.yaml", "app/values.yaml", "app/templates/d.yaml",
		"app/charts/sub/Chart.yaml", "app/charts/sub/templates/s.yaml",
		"plain/x.yaml",
	} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kinds := func(srcs []Source) []string {
		var out []string
		for _, s := range srcs {
			rel, _ := filepath.Rel(root, s.Path)
			if s.Chart {
				rel += " (chart)"
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return out
	}
	cases := []struct {
		args []string
		opts Discovery
		want []string
	}{
		{[]string{root}, Discovery{}, []string{"app (chart)", "plain/x.yaml"}},
		{[]string{filepath.Join(root, "app")}, Discovery{}, []string{"app (chart)"}},
		{[]string{filepath.Join(root, "app/templates/d.yaml"), filepath.Join(root, "app/charts/sub/templates/s.yaml")}, Discovery{}, []string{"app (chart)"}},
		{[]string{filepath.Join(root, "app")}, Discovery{NoHelm: true}, []string{"app/Chart.yaml", "app/charts/sub/Chart.yaml", "app/charts/sub/templates/s.yaml", "app/templates/d.yaml", "app/values.yaml"}},
	}
	for _, c := range cases {
		srcs, err := Discover(c.args, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := kinds(srcs); !slices.Equal(got, c.want) {
			t.Errorf("Discover(%v, %+v) = %v, want %v", c.args, c.opts, got, c.want)
		}
	}
}
