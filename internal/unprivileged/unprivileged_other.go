//go:build !linux

package unprivileged

import (
	"os"
	"path/filepath"
	"testing"
)

// Run runs f where file permissions hold; root reads every file, so there
// the test is skipped.
func Run(t testing.TB, f func()) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("running as root, which reads every file: permissions cannot be tested")
	}
	f()
}

// OpenDirs makes dir and its parent searchable by every user.
func OpenDirs(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
