package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/finding"
)

// junitReport is a JUnit XML report in the dialect of the Jenkins xUnit
// plugin's schema (junit-10.xsd), which Jenkins' junit step, GitLab
// (artifacts:reports:junit) and Azure Pipelines (PublishTestResults) read.
// It uses only what that schema and its predecessor, the Jenkins dtkit
// junit-4.xsd, both allow: no time (dslint does not time files one by one),
// no skipped count on <testsuites>, a <skipped> with text and no attributes.
type junitReport struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkipped `xml:"skipped"`
}

type junitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Text string `xml:",chardata"`
}

// The names of the tests that are not about a finding.
const (
	junitPassed    = "no findings" // a file without an unsuppressed finding
	junitNotLinted = "not linted"  // a file skipped whole
)

// writeJUnit prints the result as JUnit XML: a test suite per file, in the
// order of the findings, and in it a failed test per unsuppressed finding,
// a skipped test per suppressed finding (JSON and SARIF carry those too,
// marked) and per file not linted (Helm template syntax), and a passing
// test when nothing else in a linted file fails, so that a clean run still
// shows every file tested. Parse errors are findings, so failures too.
//
// Suites are per file, not per rule, because a file is what CI test views
// group by (the classname: Jenkins' packages and classes, GitLab's and
// Azure's suite column) and what a user fixes, and because a clean file
// has no rule to stand under. The classname is the file as reports name
// it; Jenkins splits it at its last dot, so deploy/app.yaml shows as
// package "deploy/app", class "yaml".
//
// A test is named after what its finding is about (rule, object, field
// path), not its line, so that CI history follows it while lines move, as
// the gitlab format's fingerprints do; the failure carries the position.
func writeJUnit(w io.Writer, res *finding.Result) error {
	report := junitReport{Name: "dslint"}
	documented := make(map[string]string, len(res.Rules))
	for _, r := range res.Rules {
		documented[r.ID] = r.HelpURI()
	}
	for _, file := range junitFiles(res) {
		suite := junitFileSuite(file, res, documented)
		report.Tests += suite.Tests
		report.Failures += suite.Failures
		report.Suites = append(report.Suites, suite)
	}
	return writeXML(w, report)
}

// junitFiles are the files of the report, sorted as findings are: the
// inputs read and every file a finding or a skipped input names (a finding
// can point into a file that is not an input: a kustomize base, a Helm
// template on stdin).
func junitFiles(res *finding.Result) []string {
	files := slices.Clone(res.Inputs)
	for _, f := range res.Findings {
		files = append(files, f.File)
	}
	for _, s := range skippedFiles(res.Skipped) {
		files = append(files, s.File)
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// junitFileSuite is the suite of one file.
func junitFileSuite(file string, res *finding.Result, documented map[string]string) junitSuite {
	suite := junitSuite{Name: file}
	for _, f := range res.Findings {
		if f.File == file {
			suite.Cases = append(suite.Cases, junitFindingCase(f, documented))
		}
	}
	linted := true
	for _, s := range skippedFiles(res.Skipped) {
		if s.File == file {
			linted = false
			suite.Cases = append(suite.Cases, junitCase{Name: junitNotLinted, Skipped: &junitSkipped{Text: s.Reason}})
		}
	}
	for _, c := range suite.Cases {
		switch {
		case c.Failure != nil:
			suite.Failures++
		case c.Skipped != nil:
			suite.Skipped++
		}
	}
	if linted && suite.Failures == 0 {
		suite.Cases = append(suite.Cases, junitCase{Name: junitPassed})
	}
	seen := map[string]int{}
	for i := range suite.Cases {
		c := &suite.Cases[i]
		c.Classname = file
		// Two findings about the same field (two messages of one rule)
		// would be one test to CI; number the second.
		if seen[c.Name]++; seen[c.Name] > 1 {
			c.Name += fmt.Sprintf(" (%d)", seen[c.Name])
		}
	}
	suite.Tests = len(suite.Cases)
	return suite
}

// junitFindingCase is the test of one finding: failed, or skipped when the
// finding is suppressed.
func junitFindingCase(f finding.Finding, documented map[string]string) junitCase {
	c := junitCase{Name: junitTestName(f)}
	details := junitDetails(f, documented)
	if f.Suppressed {
		c.Skipped = &junitSkipped{Text: details}
		return c
	}
	c.Failure = &junitFailure{Type: f.Rule, Message: f.Message, Text: details}
	return c
}

// junitTestName is the rule, the object and the field path; a finding
// without an object (a parse error) is named by its position.
func junitTestName(f finding.Finding) string {
	parts := []string{f.Rule}
	if f.Object.Kind != "" || f.Object.Name != "" {
		parts = append(parts, objectFQN(f.Object))
	}
	if f.Path != "" {
		parts = append(parts, f.Path)
	}
	if len(parts) == 1 && f.Line > 0 {
		parts = append(parts, "at "+strings.TrimPrefix(location(f), f.File+":"))
	}
	if f.Chart != nil && f.Chart.Values != "" {
		parts = append(parts, "(values "+f.Chart.Values+")") // one chart, several value sets
	}
	return strings.Join(parts, " ")
}

// junitDetails is the body of a failure or skipped test: the finding as the
// text format prints it, then its object, field path and documentation.
func junitDetails(f finding.Finding, documented map[string]string) string {
	sev := f.Severity.String()
	if f.Suppressed {
		sev += " (suppressed" + suppressedBy(f.Suppression) + ")"
	}
	var b strings.Builder
	if loc := location(f); loc != "" {
		b.WriteString(loc + ": ")
	}
	fmt.Fprintf(&b, "%s: %s [%s]%s\n", sev, f.Message, f.Rule, chartNote(f))
	if f.Object.Kind != "" || f.Object.Name != "" {
		fmt.Fprintf(&b, "object: %s\n", strings.TrimSpace(f.Object.APIVersion+" "+objectFQN(f.Object)))
	}
	if f.Path != "" {
		fmt.Fprintf(&b, "path: %s\n", f.Path)
	}
	if uri := documented[f.Rule]; uri != "" {
		fmt.Fprintf(&b, "help: %s\n", uri)
	}
	return b.String()
}
