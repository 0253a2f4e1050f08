// Package unprivileged lets tests see permission errors when they run as
// root, as they do in CI containers: root reads every file, so a file made
// unreadable with chmod would be read all the same.
package unprivileged

import (
	"os"
	"syscall"
	"testing"
)

// Nobody is the user tests become.
const Nobody = 65534

// Run runs f where file permissions hold. Under root, the effective user is
// nobody for the time of f: that changes the whole process, so a test that
// calls Run must not be parallel, and f should only read. Without the right
// to switch users, the test is skipped.
func Run(t testing.TB, f func()) {
	t.Helper()
	if os.Geteuid() != 0 {
		f()
		return
	}
	if err := syscall.Setresuid(-1, Nobody, -1); err != nil {
		t.Skipf("running as root, which reads every file, and cannot become nobody to test permissions: %v", err)
	}
	defer func() {
		if err := syscall.Setresuid(-1, 0, -1); err != nil {
			panic("cannot become root again: " + err.Error())
		}
	}()
	f()
}
