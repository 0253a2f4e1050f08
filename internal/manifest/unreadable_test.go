package manifest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dslint/dslint/internal/unprivileged"
)

// TestUnreadable: a directory or file dslint may not read is an error that
// names it, never a crash.
func TestUnreadable(t *testing.T) {
	root := t.TempDir()
	unprivileged.OpenDirs(t, root)
	write(t, root, "tree/ok.yaml", "tree/locked/pod.yaml", "secret.yaml")
	for _, path := range []string{"tree/locked", "secret.yaml"} {
		if err := os.Chmod(filepath.Join(root, path), 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "tree/locked"), 0o755) })
	t.Chdir(root)
	unprivileged.Run(t, func() {
		srcs, err := Discover([]string{"tree"}, Discovery{})
		if err != nil || len(srcs) != 2 {
			t.Fatalf("Discover(tree) = %v, %v; want tree/ok.yaml and the unreadable tree/locked", srcs, err)
		}
		for _, src := range srcs {
			_, err := readAll(src, nil, ManifestLimits)
			if want := src.Name == "tree/locked"; (err != nil) != want || (want && err.Error() != "permission denied") {
				t.Errorf("Read(%s) = %v", src.Name, err)
			}
		}
		srcs, err = Discover([]string{"secret.yaml"}, Discovery{})
		if err != nil || len(srcs) != 1 {
			t.Fatalf("Discover(secret.yaml) = %v, %v; an unreadable file is found, and fails when read", srcs, err)
		}
		if _, err := readAll(srcs[0], nil, ManifestLimits); err == nil || err.Error() != "permission denied" {
			t.Errorf("Read(secret.yaml) = %v, want permission denied", err)
		}
	})
}
