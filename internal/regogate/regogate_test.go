package regogate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

const root = "../.."

// gated are the gated Rego files, named relative to the repository's root.
func gated(t *testing.T) []string {
	t.Helper()
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("only %d Rego files found under %v: run from internal/regogate", len(files), Dirs)
	}
	return files
}

// TestRegoFormatted is opa fmt's check: every gated file is formatted.
func TestRegoFormatted(t *testing.T) {
	var failed []string
	for _, f := range gated(t) {
		ok, err := Formatted(filepath.Join(root, f))
		switch {
		case err != nil:
			t.Errorf("%s: %v", f, err)
		case ok:
		default:
			failed = append(failed, f)
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d Rego files not formatted as opa fmt formats them (make rego-fmt rewrites them):\n  %s", len(failed), strings.Join(failed, "\n  "))
	}
}

// TestRegoStrict is opa check --strict: every gated module, tests
// included, compiles in strict mode.
func TestRegoStrict(t *testing.T) {
	var paths []string
	for _, f := range gated(t) {
		paths = append(paths, filepath.Join(root, f))
	}
	for _, e := range strict(t, paths) {
		t.Errorf("%v", e)
	}
}

func strict(t *testing.T, paths []string) ast.Errors {
	t.Helper()
	errs, err := Strict(paths)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

func TestStrictFindsWhatOPACheckStrictFinds(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.rego")
	src := "package x\n\nimport data.unused\n\nf(a) := 1 if {\n\tb := 2\n\ttrue\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := strict(t, []string{path})
	var got []string
	for _, e := range errs {
		got = append(got, e.Message)
	}
	want := []string{"import data.unused unused", "unused argument a. (hint: use _ (wildcard variable) instead)", "assigned var b unused"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("strict errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFormatted(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		src  string
		want bool
	}{
		"formatted.rego":   {"package x\n\nallow if input.ok\n", true},
		"unformatted.rego": {"package x\nallow   if { input.ok }\n", false},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := Formatted(path); got != c.want || err != nil {
			t.Errorf("Formatted(%s) = %v, %v; want %v", name, got, err, c.want)
		}
	}
	if _, err := Formatted(filepath.Join(dir, "missing.rego")); err == nil {
		t.Error("Formatted of a missing file: no error")
	}
}

// TestFormatRunsToTheEnd: a one-line else after a comprehension takes OPA's
// formatter two passes; Format makes both, so that make rego-fmt is enough.
func TestFormatRunsToTheEnd(t *testing.T) {
	src := "package x\n\nf(v) := {j |\n\tsome j in v\n} if v.ok else := set()\n"
	out, err := Format("x.rego", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Format("x.rego", out)
	if err != nil || string(again) != string(out) {
		t.Errorf("Format is not stable:\n%s\nthen:\n%s", out, again)
	}
}
