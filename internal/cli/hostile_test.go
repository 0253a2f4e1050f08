package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/unprivileged"
)

// noTrace fails when output looks like a Go panic: users get messages,
// never stack traces.
func noTrace(t *testing.T, out ...string) {
	t.Helper()
	for _, o := range out {
		if strings.Contains(o, "goroutine ") || strings.Contains(o, "panic:") || strings.Contains(o, ".go:") {
			t.Errorf("output with a stack trace:\n%s", o)
		}
	}
}

// wildPod has one finding, at 7:7.
const wildPod = "apiVersion: v1\nkind: Pod\nmetadata: {name: wild}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations:\n    - operator: Exists\n"

// TestHostileInputs: every input, however broken, ends with a message and
// exit 1 (a parse-error finding) or 2 (an input dslint will not read), and
// the rest of the input is still linted. The full sizes (a 200 MB file,
// 100,000 files) are timed by make hostile.
func TestHostileInputs(t *testing.T) {
	bomb := aliasBomb()
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	var many strings.Builder // a file of large documents, parsed in parts
	value := strings.Repeat("    0123456789abcdef0123456789abcdef0123456789abcdef0123456789a\n", 2000)
	for i := 0; many.Len() < 3<<20; i++ {
		fmt.Fprintf(&many, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\ndata:\n  big: |\n%s", i, value)
	}
	manyLines := strings.Count(many.String(), "\n")
	cases := []struct {
		name, file, data string
		code             int
		want             string
	}{
		{"alias bomb", "bomb.yaml", bomb + "---\n" + wildPod, ExitFindings,
			"bomb.yaml:11:12: error: aliases expand the document by more than 1,000,000 nodes (alias *l5); dslint expands at most 1,000,000 [parse-error]"},
		{"recursive alias", "loop.yaml", "apiVersion: v1\nkind: Pod\nspec: &s {x: [*s]}\n", ExitFindings,
			"loop.yaml:3:15: error: alias *s is inside the node its anchor &s names, so the document is infinite [parse-error]"},
		{"nested 20,000 deep", "deep.yaml", wildPod + "---\nx: " + strings.Repeat("[", 20_000) + "\n", ExitFindings,
			"deep.yaml:9:1: error: YAML syntax error: exceeded max depth of 10000 [parse-error]"},
		{"nested 1,001 deep", "deep.yaml", "apiVersion: v1\nkind: Pod\nspec: " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n", ExitFindings,
			"deep.yaml:3:1007: error: collections nested more than 1,000 levels deep; dslint reads at most 1,000 levels [parse-error]"},
		{"binary", "bin.yaml", string(binary), ExitFindings,
			"bin.yaml:1:1: error: YAML syntax error: control characters are not allowed (byte 0x00) [parse-error]"},
		{"invalid UTF-8", "latin1.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n", ExitFindings,
			"latin1.yaml:4:12: error: YAML syntax error:"},
		{"many documents", "many.yaml", many.String() + wildPod, ExitFindings,
			fmt.Sprintf("many.yaml:%d:7: warning: toleration", manyLines+7)},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := run(t, "", path)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, want %d with %q\n%s%s", code, c.code, c.want, out, errOut)
			}
			noTrace(t, out, errOut)
		})
	}
}

// aliasBomb is a "billion laughs" ConfigMap: l8 would expand to 9^9
// scalars. dslint stops at 11:12, the first alias past 1,000,000 nodes.
func aliasBomb() string {
	bomb := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i := 1; i < 9; i++ {
		bomb += fmt.Sprintf("  l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 9), ", "))
	}
	return bomb
}

// TestKustomizedAliasBomb: kustomize expands aliases as it builds, without
// bound; dslint refuses the file before the build reads it, exit 2.
func TestKustomizedAliasBomb(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"kustomization.yaml": "resources: [bomb.yaml]\n", "bomb.yaml": aliasBomb()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	code, out, errOut := run(t, "", ".")
	if code != ExitUsage || !strings.Contains(errOut, "bomb.yaml:11:12: aliases expand the document by more than 1,000,000 nodes (alias *l5)") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	noTrace(t, out, errOut)
}

// TestTooLargeInputs: a file or stdin beyond manifest.MaxFileBytes is
// refused before it is parsed, exit 2; the other files are still linted.
func TestTooLargeInputs(t *testing.T) {
	dir := t.TempDir()
	big, pod := filepath.Join(dir, "big.yaml"), filepath.Join(dir, "pod.yaml")
	if err := os.WriteFile(pod, []byte(wildPod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, manifest.MaxFileBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	code, out, errOut := run(t, "", dir)
	if code != ExitUsage || !strings.Contains(errOut, "big.yaml: larger than 32 MiB; dslint reads at most 32 MiB per file") || !strings.Contains(out, "pod.yaml:7:7: warning:") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	noTrace(t, out, errOut)
	code, out, errOut = run(t, strings.Repeat("a: 1\n", manifest.MaxFileBytes/5+1), "-")
	if code != ExitUsage || errOut != "dslint: <stdin>: larger than 32 MiB; dslint reads at most 32 MiB per file\n" {
		t.Errorf("stdin: exit %d\n%s%s", code, out, errOut)
	}
}

// TestLinkLoops: links to a parent, to itself and to another name of a file
// end, and the real file is linted once.
func TestLinkLoops(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pod.yaml"), []byte(wildPod), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"up": "..", "self": ".", "again.yaml": "pod.yaml", "loop.yaml": "loop.yaml"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := run(t, "", dir)
	if code != ExitFindings || strings.Count(out, "warning:") != 1 || !strings.Contains(out, "1 file, 1 object") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestUnreadableInputs: a file dslint may not read is reported by name,
// exit 2, and the others are linted; a directory it may not read stops the
// run, exit 2.
func TestUnreadableInputs(t *testing.T) {
	dir := t.TempDir()
	unprivileged.OpenDirs(t, dir)
	files := map[string]string{"pod.yaml": wildPod, "secret.yaml": wildPod, "locked/pod.yaml": wildPod}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"secret.yaml", "locked"} {
		if err := os.Chmod(filepath.Join(dir, p), 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	t.Chdir(dir)
	unprivileged.Run(t, func() {
		code, out, errOut := run(t, "", "pod.yaml", "secret.yaml")
		if code != ExitUsage || errOut != "dslint: secret.yaml: permission denied\n" || !strings.Contains(out, "pod.yaml:7:7: warning:") {
			t.Errorf("unreadable file: exit %d\n%s%s", code, out, errOut)
		}
		code, out, errOut = run(t, "", ".")
		if code != ExitUsage || !strings.Contains(errOut, "dslint: locked: permission denied\n") || !strings.Contains(out, "pod.yaml:7:7: warning:") {
			t.Errorf("unreadable directory: exit %d\n%s%s", code, out, errOut)
		}
	})
}

// TestInternalErrorExit: an internal error (a panic on one object, which
// lint turns into an error: see lint.TestPanicCostsOneObject) is printed
// as one line, without a stack trace, and exits 3.
func TestInternalErrorExit(t *testing.T) {
	var stderr bytes.Buffer
	problems := lint.Problems{
		Unreadable: []error{errors.New("gone.yaml: no such file or directory")},
		Internal:   []error{errors.New(`first.yaml:8: internal error checking Pod "boom": injected failure`)},
	}
	code := problemsExit(&env{stderr: &stderr}, problems)
	want := "dslint: gone.yaml: no such file or directory\ndslint: first.yaml:8: internal error checking Pod \"boom\": injected failure\n"
	if code != ExitInternal || stderr.String() != want {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
}
