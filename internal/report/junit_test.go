package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
)

// junitCases are results that exercise the junit format: the sample, a
// clean run, SARIF's edge cases (no position, no object, odd file names),
// and two findings about one field.
func junitCases() map[string]*finding.Result {
	clean := sample()
	clean.Findings, clean.Skipped = nil, nil
	clean.Count()
	twice := sample()
	twice.Findings = []finding.Finding{twice.Findings[2], twice.Findings[2]}
	twice.Findings[1].Message = "another message"
	edge := sarifEdgeCases()
	edge.Inputs = []string{"<stdin>", "cluster/node pool#1.yaml"}
	return map[string]*finding.Result{"sample": sample(), "clean": clean, "twice": twice, "edge-cases": edge}
}

func writeJUnitString(t *testing.T, res *finding.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "junit", res, Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A clean run lists every input as a passing test.
func TestJUnitClean(t *testing.T) {
	golden(t, "sample-clean.junit.xml", writeJUnitString(t, junitCases()["clean"]))
}

// TestJUnitCounts reads the report back: every count is the number of
// tests it counts, every unsuppressed finding is one failure of its file
// (type the rule, message the message, position in the text), every
// suppressed one a skipped test, and every file a suite.
func TestJUnitCounts(t *testing.T) {
	for name, res := range junitCases() {
		t.Run(name, func(t *testing.T) {
			var report junitReport
			if err := xml.Unmarshal(writeJUnitString(t, res), &report); err != nil {
				t.Fatal(err)
			}
			checkJUnitCounts(t, report)
			var failures, skipped []string
			for _, s := range report.Suites {
				for _, c := range s.Cases {
					if c.Classname != s.Name {
						t.Errorf("test %q of suite %s has classname %s", c.Name, s.Name, c.Classname)
					}
					if f := c.Failure; f != nil {
						failures = append(failures, s.Name+"|"+f.Type+"|"+f.Message+"|"+firstLine(f.Text))
					}
					if c.Skipped != nil {
						skipped = append(skipped, s.Name+"|"+firstLine(c.Skipped.Text))
					}
				}
			}
			var wantFailures, wantSkipped []string
			for _, f := range res.Findings {
				if f.Suppressed {
					wantSkipped = append(wantSkipped, f.File+"|"+prefix(location(f))+f.Severity.String()+" (suppressed"+suppressedBy(f.Suppression)+"): "+f.Message+" ["+f.Rule+"]")
					continue
				}
				wantFailures = append(wantFailures, f.File+"|"+f.Rule+"|"+f.Message+"|"+prefix(location(f))+f.Severity.String()+": "+f.Message+" ["+f.Rule+"]")
			}
			for _, s := range skippedFiles(res.Skipped) {
				wantSkipped = append(wantSkipped, s.File+"|"+s.Reason)
			}
			for _, l := range [][]string{failures, skipped, wantFailures, wantSkipped} {
				slices.Sort(l)
			}
			if !slices.Equal(failures, wantFailures) {
				t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(failures, "\n"), strings.Join(wantFailures, "\n"))
			}
			if !slices.Equal(skipped, wantSkipped) {
				t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(wantSkipped, "\n"))
			}
			if files := junitFiles(res); len(files) != len(report.Suites) {
				t.Errorf("%d suites for the files %v", len(report.Suites), files)
			}
		})
	}
}

// checkJUnitCounts: tests, failures, errors and skipped of each suite count
// its tests; the totals of <testsuites> add them up; a linted suite without
// failure has one passing test; no two tests of a suite share a name.
func checkJUnitCounts(t *testing.T, r junitReport) {
	t.Helper()
	var tests, failures int
	for _, s := range r.Suites {
		var failed, skipped, passed int
		names := map[string]bool{}
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				failed++
			case c.Skipped != nil:
				skipped++
			default:
				passed++
			}
			if names[c.Name] {
				t.Errorf("suite %s: two tests named %q", s.Name, c.Name)
			}
			names[c.Name] = true
		}
		if s.Tests != len(s.Cases) || s.Failures != failed || s.Skipped != skipped || s.Errors != 0 {
			t.Errorf("suite %s counts %d tests, %d failures, %d errors, %d skipped; has %d, %d, 0, %d",
				s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), failed, skipped)
		}
		wantPassed := 0
		if failed == 0 && !names[junitNotLinted] {
			wantPassed = 1
		}
		if passed != wantPassed {
			t.Errorf("suite %s has %d passing tests with %d failures", s.Name, passed, failed)
		}
		tests += s.Tests
		failures += s.Failures
	}
	if r.Tests != tests || r.Failures != failures || r.Errors != 0 || r.Name != "dslint" {
		t.Errorf("testsuites %q counts %d tests, %d failures, %d errors; the suites add up to %d, %d, 0",
			r.Name, r.Tests, r.Failures, r.Errors, tests, failures)
	}
}

// prefix is loc and a colon, or nothing without loc.
func prefix(loc string) string {
	if loc == "" {
		return ""
	}
	return loc + ": "
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// junitAttributes are the attributes each element may have: those that both
// the Jenkins xUnit plugin's junit-10.xsd and its predecessor, Jenkins'
// dtkit junit-4.xsd, allow, so that the report reads in either and the
// check holds where no schema is at hand. Required ones are marked "!".
var junitAttributes = map[string][]string{
	"testsuites": {"name", "tests", "failures", "errors"},
	"testsuite":  {"name!", "tests!", "failures!", "errors!", "skipped"},
	"testcase":   {"name!", "classname"},
	"failure":    {"type", "message"},
	"skipped":    {},
}

// TestJUnitDialect checks each element and attribute against
// junitAttributes, and where each element may be.
func TestJUnitDialect(t *testing.T) {
	parents := map[string]string{"testsuites": "", "testsuite": "testsuites", "testcase": "testsuite", "failure": "testcase", "skipped": "testcase"}
	for name, res := range junitCases() {
		dec := xml.NewDecoder(bytes.NewReader(writeJUnitString(t, res)))
		var stack []string
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			switch el := tok.(type) {
			case xml.StartElement:
				parent := ""
				if len(stack) > 0 {
					parent = stack[len(stack)-1]
				}
				if want, ok := parents[el.Name.Local]; !ok || want != parent {
					t.Errorf("%s: <%s> inside <%s>", name, el.Name.Local, parent)
				}
				checkJUnitAttributes(t, name, el)
				stack = append(stack, el.Name.Local)
			case xml.EndElement:
				stack = stack[:len(stack)-1]
			}
		}
	}
}

func checkJUnitAttributes(t *testing.T, name string, el xml.StartElement) {
	t.Helper()
	has := map[string]bool{}
	for _, a := range el.Attr {
		has[a.Name.Local] = true
		allowed := junitAttributes[el.Name.Local]
		if !slices.Contains(allowed, a.Name.Local) && !slices.Contains(allowed, a.Name.Local+"!") {
			t.Errorf("%s: <%s> has attribute %s", name, el.Name.Local, a.Name.Local)
		}
	}
	for _, a := range junitAttributes[el.Name.Local] {
		if req, ok := strings.CutSuffix(a, "!"); ok && !has[req] {
			t.Errorf("%s: <%s> lacks attribute %s", name, el.Name.Local, req)
		}
	}
}

// TestJUnitSchema validates the junit output with xmllint against each
// schema DSLINT_JUNIT_XSD lists (.ci/run names the Jenkins JUnit schema it
// can reach), and so do the reports of real runs DSLINT_JUNIT_FILES lists.
func TestJUnitSchema(t *testing.T) {
	schemas := filepath.SplitList(os.Getenv("DSLINT_JUNIT_XSD"))
	if len(schemas) == 0 {
		t.Skip("set DSLINT_JUNIT_XSD to a JUnit XSD (the Jenkins xUnit plugin's junit-10.xsd, or the schema .ci/run fetches) to validate the junit format with xmllint")
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Fatalf("DSLINT_JUNIT_XSD is set but xmllint is not installed (Debian: libxml2-utils): %v", err)
	}
	dir := t.TempDir()
	files := filepath.SplitList(os.Getenv("DSLINT_JUNIT_FILES"))
	for name, res := range junitCases() {
		file := filepath.Join(dir, name+".xml")
		if err := os.WriteFile(file, writeJUnitString(t, res), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	files = append(files, filepath.Join("testdata", "sample.junit.xml"), filepath.Join("testdata", "sample-clean.junit.xml"))
	for _, schema := range schemas {
		for _, file := range files {
			out, err := exec.Command(xmllint, "--noout", "--schema", schema, file).CombinedOutput()
			if err != nil {
				t.Errorf("%s does not validate against %s: %v\n%s", file, schema, err, out)
			}
		}
	}
}
