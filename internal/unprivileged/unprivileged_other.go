//go:build !linux

package unprivileged

import (
	"os"
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
