package unprivileged

import (
	"os"
	"path/filepath"
	"testing"
)

// OpenDirs makes dir and its parent searchable by every user (nobody
// among them): t.TempDir makes them private to the user running the test.
func OpenDirs(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
