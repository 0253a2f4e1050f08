package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the want files of testdata/fix")

// copyTree copies the directory src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readTree reads every file under dir, by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFixGolden runs dslint fix on each testdata/fix/CASE/in (with its
// .dslint.yaml) and compares the files with CASE/want byte for byte
// (-update writes them). A second run changes nothing, and fix --diff
// then has nothing to show.
func TestFixGolden(t *testing.T) {
	cases, _ := filepath.Glob("testdata/fix/*/in")
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, in := range cases {
		name := filepath.Base(filepath.Dir(in))
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, in, dir)
			args := []string{"fix", "-q", "--fail-on", "none"}
			if _, err := os.Stat(filepath.Join(dir, ".dslint.yaml")); err == nil {
				args = append(args, "-c", filepath.Join(dir, ".dslint.yaml"))
			}
			args = append(args, dir)
			before := readTree(t, dir)
			_, diff, _ := run(t, "", append([]string{"fix", "--diff"}, args[1:]...)...)
			code, _, stderr := run(t, "", args...)
			if code != ExitOK {
				t.Fatalf("fix: exit %d\n%s", code, stderr)
			}
			got := readTree(t, dir)
			want := filepath.Join(filepath.Dir(in), "want")
			if *update {
				_ = os.RemoveAll(want)
				copyTree(t, dir, want)
			}
			wantFiles := readTree(t, want)
			for rel, w := range wantFiles {
				if !bytes.Equal(got[rel], w) {
					t.Errorf("%s: got\n%s\nwant\n%s", rel, got[rel], w)
				}
			}
			if len(got) != len(wantFiles) {
				t.Errorf("%d files, want %d", len(got), len(wantFiles))
			}
			// --diff showed every round's edits: the diff of what fix wrote.
			var rels []string
			for rel := range before {
				rels = append(rels, rel)
			}
			slices.Sort(rels)
			var wantDiff bytes.Buffer
			for _, rel := range rels {
				if !bytes.Equal(before[rel], got[rel]) {
					writeDiff(&wantDiff, filepath.ToSlash(filepath.Join(dir, rel)), before[rel], got[rel])
				}
			}
			if diff != wantDiff.String() {
				t.Errorf("fix --diff printed\n%s\nbut fix made\n%s", diff, wantDiff.String())
			}
			// Idempotent: nothing more to fix.
			code, diff, stderr = run(t, "", append([]string{"fix", "--diff"}, args[1:]...)...)
			if code != ExitOK || diff != "" {
				t.Errorf("fix --diff after fix: exit %d\n%s%s", code, diff, stderr)
			}
		})
	}
}

// TestFixDiffChangesNothing: fix --diff prints a unified diff of the
// edits, exits 1, and leaves the files alone.
func TestFixDiffChangesNothing(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "testdata/fix/tolerations/in", dir)
	before := readTree(t, dir)
	code, diff, stderr := run(t, "", "fix", "--diff", "--rule", "invalid-toleration", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{"--- " + dir + "/block.yaml\n", "+++ " + dir + "/block.yaml\n", "-          value: \"true\"   # Exists matches any value\n", "+          value: \"yes\"\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
	after := readTree(t, dir)
	for rel, b := range before {
		if !bytes.Equal(after[rel], b) {
			t.Errorf("%s changed", rel)
		}
	}
}

// TestFixStdin prints the stream fixed and the findings that remain on
// stderr.
func TestFixStdin(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b}]\n  tolerations:\n  - {key: a, operator: Exists, value: x}\n"
	code, out, stderr := run(t, in, "fix", "-")
	want := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b}]\n  tolerations:\n  - {key: a, operator: Exists}\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	if code == ExitUsage || code == ExitInternal || !strings.Contains(stderr, "fixed 1 finding in 1 file") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestFixUsage: --diff and --rule need fix, --rule a fixable rule.
func TestFixUsage(t *testing.T) {
	for _, args := range [][]string{
		{"lint", "--diff", "-"},
		{"fix", "--rule", "no-such-rule", "-"},
		{"fix", "--rule", "no-matching-nodes", "-"},
	} {
		if code, _, stderr := run(t, cleanPod, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}

// TestFixSkipsBrokenFiles: a file with a syntax error is not touched.
func TestFixSkipsBrokenFiles(t *testing.T) {
	dir := t.TempDir()
	broken := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b}]\n  tolerations:\n  - {key: a, operator: Exists, value: x}\n---\nkind: [\n"
	path := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte(strings.Split(broken, "---")[0]), 0o640); err != nil {
		t.Fatal(err)
	}
	_, _, stderr := run(t, "", "fix", dir)
	if b, _ := os.ReadFile(path); string(b) != broken {
		t.Errorf("broken file changed:\n%s", b)
	}
	if !strings.Contains(stderr, "was not changed: it has a syntax error") {
		t.Errorf("stderr:\n%s", stderr)
	}
	// The other file is fixed, its mode kept.
	if b, _ := os.ReadFile(good); strings.Contains(string(b), "value: x") {
		t.Errorf("good file not fixed:\n%s", b)
	}
	if info, _ := os.Stat(good); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", info.Mode())
	}
}

// TestLintFix: lint --fix makes the fixes, then reports what remains in
// the format asked for, with the exit code of what remains.
func TestLintFix(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "testdata/fix/kustomize/in", dir)
	code, out, stderr := run(t, "", "lint", "--fix", "-f", "json", dir)
	var rep struct {
		Findings []jsonFinding
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}
	for _, f := range rep.Findings {
		if f.Rule == "invalid-toleration" {
			t.Errorf("fixed finding reported: %+v", f)
		}
	}
	// What remains is the DaemonSet's toleration without a selector, an
	// info: it does not fail the run.
	if code != ExitOK || len(rep.Findings) != 1 || rep.Findings[0].Rule != "toleration-without-node-selector" {
		t.Errorf("exit %d with %+v: want 0 and the toleration-without-node-selector info", code, rep.Findings)
	}
	want, _ := os.ReadFile("testdata/fix/kustomize/want/base/agent.yaml")
	if got, _ := os.ReadFile(filepath.Join(dir, "base", "agent.yaml")); !bytes.Equal(got, want) {
		t.Errorf("base/agent.yaml:\n%s\nwant:\n%s", got, want)
	}
}

// TestFixableRulesFixTheirBadExample: dslint fix repairs the findings with
// a fix of the bad example of every rule marked fixable (judged with its
// config), and they are gone afterwards; a rule not marked fixable
// declares no fix there, and --rule refuses it.
func TestFixableRulesFixTheirBadExample(t *testing.T) {
	_, out, _ := run(t, "", "rules", "--format", "json")
	var rules []struct {
		ID      string `json:"id"`
		Bad     string `json:"bad"`
		Config  string `json:"config"`
		Fixable bool   `json:"fixable"`
	}
	if err := json.Unmarshal([]byte(out), &rules); err != nil {
		t.Fatal(err)
	}
	fixable, exampled := 0, 0
	for _, r := range rules {
		if r.Fixable {
			fixable++
		}
		if r.Bad == "" {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "bad.yaml")
			if err := os.WriteFile(file, []byte(r.Bad), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--enable", r.ID, "--fail-on", "none"}
			if r.Config != "" {
				cfg := filepath.Join(dir, "dslint.yaml")
				if err := os.WriteFile(cfg, []byte(r.Config), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-c", cfg)
			}
			findings := func() (all, withFix int) {
				_, out, _ := run(t, "", slices.Concat([]string{"lint", "-f", "json"}, args, []string{file})...)
				var rep struct{ Findings []jsonFinding }
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatal(err)
				}
				for _, f := range rep.Findings {
					if f.Rule == r.ID {
						all++
						if f.fixable() {
							withFix++
						}
					}
				}
				return all, withFix
			}
			before, fixes := findings()
			if !r.Fixable {
				if fixes > 0 {
					t.Errorf("%d findings with a fix, but the rule is not marked fixable", fixes)
				}
				if code, _, _ := run(t, "", "fix", "--rule", r.ID, file); code != ExitUsage {
					t.Errorf("fix --rule %s: exit %d, want 2 for a rule without a fix", r.ID, code)
				}
				return
			}
			if fixes == 0 {
				t.Logf("the bad example has no finding with a fix (%d without)", before)
				return
			}
			exampled++
			if code, _, stderr := run(t, "", slices.Concat([]string{"fix", "--rule", r.ID}, args, []string{file})...); code != ExitOK {
				t.Fatalf("fix: exit %d\n%s", code, stderr)
			}
			if after, left := findings(); left > 0 || after != before-fixes {
				fixed, _ := os.ReadFile(file)
				t.Errorf("%d findings (%d with a fix) before the fix, %d (%d) after:\n%s", before, fixes, after, left, fixed)
			}
		})
	}
	if fixable < 8 || exampled < 6 {
		t.Errorf("%d rules marked fixable, %d with a fixed example: want the 8 of issue 16, most with one", fixable, exampled)
	}
}

// TestFixHelmChart: a chart's objects are rendered, not written: fix
// changes no file of the chart and shows its edits on the rendered
// manifest, with the template positions to make them at.
func TestFixHelmChart(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "../../docs/examples/helm", dir)
	before := readTree(t, dir)
	code, out, stderr := run(t, "", "fix", "--fail-on", "none", dir)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	after := readTree(t, dir)
	for rel, b := range before {
		if !bytes.Equal(after[rel], b) {
			t.Errorf("%s changed", rel)
		}
	}
	for _, want := range []string{
		"templates/exporter.yaml:22:11: invalid-toleration not fixed (rendered from a Helm chart: make the change in the template or the values): remove spec.template.spec.tolerations[1].value",
		"templates/exporter.yaml (rendered)\n",
		"-          value: present\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(out, "nothing to fix") {
		t.Errorf("stdout:\n%s", out)
	}
}
