package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReports: one run prints its --format report on stdout and writes each
// --report file, the same reports the formats print alone.
func TestReports(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.xml"), filepath.Join(dir, "c.json")
	code, out, errOut := run(t, "", "-f", "text", "--report", "json="+a, "--report", "junit="+b, "--report", "gitlab="+c, "../../examples")
	wantCode, wantOut, _ := run(t, "", "-f", "text", "../../examples")
	if code != wantCode || out != wantOut {
		t.Fatalf("exit %d, want %d; stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, wantCode, out, wantOut, errOut)
	}

	var doc struct {
		Version  int               `json:"version"`
		Findings []json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(readFile(t, a), &doc); err != nil || doc.Version != 1 || len(doc.Findings) == 0 {
		t.Errorf("a.json: version %d, %d findings, %v", doc.Version, len(doc.Findings), err)
	}
	var suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Tests   int      `xml:"tests,attr"`
	}
	if err := xml.Unmarshal(readFile(t, b), &suites); err != nil || suites.Tests == 0 {
		t.Errorf("b.xml: %d tests, %v", suites.Tests, err)
	}
	var issues []map[string]any
	if err := json.Unmarshal(readFile(t, c), &issues); err != nil || len(issues) == 0 {
		t.Errorf("c.json: %d issues, %v", len(issues), err)
	}
	for file, format := range map[string]string{a: "json", b: "junit", c: "gitlab"} {
		_, alone, _ := run(t, "", "-f", format, "../../examples")
		if got := string(readFile(t, file)); got != alone {
			t.Errorf("--report %s=%s differs from -f %s:\n%s\nwant:\n%s", format, filepath.Base(file), format, got, alone)
		}
	}
}

// -o and --report write side by side; a text report in a file has no color.
func TestReportBesideOutput(t *testing.T) {
	dir := t.TempDir()
	main, extra := filepath.Join(dir, "main.sarif"), filepath.Join(dir, "extra.txt")
	if code, _, errOut := run(t, "", "-f", "sarif", "-o", main, "--report", "text="+extra, "../../examples"); code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if text := readFile(t, extra); strings.Contains(string(text), "\x1b[") || !strings.Contains(string(text), "checked") {
		t.Errorf("text report:\n%s", text)
	}
	if sarif := readFile(t, main); !strings.Contains(string(sarif), `"version": "2.1.0"`) {
		t.Errorf("-o wrote:\n%s", sarif)
	}
}

// A bad --report is a usage error that names it, and nothing is written.
func TestReportUsageErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "r.out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--report", "xml=" + file}, `"xml=` + file + `"`},
		{[]string{"--report", "junit="}, `"junit="`},
		{[]string{"--report", "junit"}, `"junit"`},
		{[]string{"--report", "=" + file}, `unknown format ""`},
		{[]string{"--report", "json=" + file, "--report", "junit=" + file}, `write the same file`},
		{[]string{"-o", file, "--report", "junit=" + filepath.Join(dir, ".", "r.out")}, `write the same file`},
		{[]string{"--report", "json=" + filepath.Join(dir, "no-such-dir", "r.json")}, "write report"},
	} {
		args := append(c.args, "../../examples")
		code, _, errOut := run(t, "", args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("dslint %s: exit %d, stderr %q; want exit 2 naming %s", strings.Join(args, " "), code, errOut, c.want)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("dslint %s wrote %s", strings.Join(args, " "), file)
			os.Remove(file)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
