package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/lineage"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/policytest"
)

const testUsage = `dslint test [flags] [DIR...]

Runs the Rego unit tests of custom policies: every test_ rule of the
*_test.rego files under each DIR, with OPA's test runner, against the
policies of DIR and dslint's own library (data.dslint.lib...) and rules,
in the sandbox dslint runs policies in. Built-in errors (a bad regex, a
sprintf with the wrong arguments) make a test error, as in dslint's own tests.

A DIR may also hold fixtures, as dslint's own rules do:
fixtures/<rule-id>/fail_*.yaml and pass_*.yaml, with "# want: <rule-id>"
(or "# want: <rule-id>@<column>") on each line a finding is expected at.
Each fixture is linted with the built-in rules and the policies, on the
node inventory of its own Node objects; it passes when the findings of
<rule-id> and of every rule its wants name are exactly the expected ones,
and a fail_ fixture expects at least one.

Without DIR: the policies: directories of .dslint.yaml, or ./policy.

Output: one PASS, FAIL, ERROR or SKIP (todo_test_ rules) line per test and
fixture, the print() output of failing tests, and a summary. Exit codes: 0
all passed, 1 a test or fixture failed or errored, 2 a usage error, a
policy that does not parse or compile (file:line:col), or nothing to run.

--format json prints one object:
  {"version": 1,
   "results": [{"kind": "test"|"fixture", "name": "data.<package>.test_x" or the fixture's path,
                "file": "...", "line": 12 (0 for a fixture),
                "result": "pass"|"fail"|"error"|"skip", "duration_ns": 1200000,
                "output": "<print() output>", "message": "<why it failed or errored>" (if any)}],
   "coverage": [{"file": "...", "covered": 9, "total": 10, "percent": 90,
                 "not_covered": [[31, 32]]}] (with --coverage),
   "summary": {"passed": 3, "failed": 0, "errors": 0, "skipped": 0}}
Results are sorted by file and line, fixtures last.`

var testFormats = []string{"text", "json"}

type testFlags struct {
	run      string
	verbose  bool
	coverage bool
	format   string
}

func runTest(e *env, args []string) (int, error) {
	var fl testFlags
	fs := newFlagSet(e, "test", testUsage)
	fs.StringVar(&fl.run, "run", "", "run only the tests and fixtures whose name matches `REGEX` (a test's name is data.<package>.test_<name>, a fixture's its path)")
	fs.BoolVarP(&fl.verbose, "verbose", "v", false, "print the print() output of every test and the evaluation trace of failing ones (text format)")
	fs.BoolVar(&fl.coverage, "coverage", false, "report the lines of the policies (not of the tests) that no test evaluates")
	fs.StringVarP(&fl.format, "format", "f", "text", "output format: "+quoteList(testFormats))
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if !oneOf(fl.format, testFormats) {
		return 0, usagef("unknown --format %q (want %s)", fl.format, quoteList(testFormats))
	}
	filter, err := regexp.Compile(fl.run)
	if err != nil {
		return 0, usagef("--run: %v", err)
	}
	dirs, err := policyDirs(fs.Args())
	if err != nil {
		return 0, err
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil {
			continue
		}
		if fs.NArg() == 0 {
			return 0, usagef("no DIR given, and no %s directory here (dslint new-rule ID writes one)", d)
		}
		return 0, usagef("%s: no such file or directory", d)
	}
	suite, err := policytest.Load(dirs)
	if err != nil {
		return 0, testLoadError(err)
	}
	// Only the text format with --verbose prints traces.
	opts := policytest.Options{Run: filter, Trace: fl.verbose && fl.format == "text", Coverage: fl.coverage}
	results, cov, err := suite.Run(context.Background(), opts)
	if err != nil {
		return 0, policyUsageError(err)
	}
	if len(results) == 0 {
		return 0, usagef("no test or fixture matches --run %q", fl.run)
	}
	if err := writeTestResults(e.stdout, fl, results, cov); err != nil {
		return 0, err
	}
	if s := policytest.Summarize(results); s.Failed+s.Errors > 0 {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// policyDirs are the DIR arguments; without any, the config's policies:
// directories, or ./policy.
func policyDirs(args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	file, err := config.Find(".", "")
	if err != nil {
		return nil, usagef("find config: %v", err)
	}
	if file != "" {
		ids, err := builtinRuleIDs()
		if err != nil {
			return nil, err
		}
		c, err := config.Load(file, ids)
		if err != nil {
			return nil, configError(file, err)
		}
		if len(c.Policies) > 0 {
			return c.Policies, nil
		}
	}
	return []string{defaultPolicyDir}, nil
}

// defaultPolicyDir is where custom policies conventionally live.
const defaultPolicyDir = "policy"

// testLoadError is a problem loading what dslint test runs as a usage error
// (exit 2), but for a failure of dslint itself.
func testLoadError(err error) error {
	var input policytest.InputError
	if errors.As(err, &input) {
		return usageError{err}
	}
	return policyUsageError(err)
}

func writeTestResults(w io.Writer, fl testFlags, results []policytest.Result, cov []policytest.FileCoverage) error {
	if fl.format == "json" {
		return writeTestJSON(w, fl, results, cov)
	}
	for _, r := range results {
		writeTestResult(w, r, fl.verbose)
	}
	if fl.coverage {
		writeCoverage(w, cov)
	}
	s := policytest.Summarize(results)
	line := fmt.Sprintf("%d passed, %d failed, %s", s.Passed, s.Failed, plural(s.Errors, "error"))
	if s.Skipped > 0 {
		line += fmt.Sprintf(", %d skipped", s.Skipped)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeTestResult prints one result line; under a failure, what it printed
// and why it failed.
func writeTestResult(w io.Writer, r policytest.Result, verbose bool) {
	status := strings.ToUpper(r.Result)
	switch {
	case r.Kind == policytest.KindFixture:
		fmt.Fprintf(w, "%s %s (%s)\n", status, r.Name, formatDuration(r.Duration))
	case r.Result == policytest.Skip:
		fmt.Fprintf(w, "%s %s at %s:%d\n", status, r.Name, r.File, r.Line)
	default:
		fmt.Fprintf(w, "%s %s (%s) at %s:%d\n", status, r.Name, formatDuration(r.Duration), r.File, r.Line)
	}
	failed := r.Result == policytest.Fail || r.Result == policytest.Error
	if r.Message != "" {
		fmt.Fprintln(w, indent(r.Message, "    "))
	}
	if out := strings.TrimRight(r.Output, "\n"); out != "" && (failed || verbose) {
		fmt.Fprintf(w, "    print() output:\n%s\n", indent(out, "      "))
	}
	if verbose && len(r.Trace) > 0 {
		fmt.Fprintln(w, "    trace:")
		var buf strings.Builder
		topdown.PrettyTraceWithOpts(&buf, lineage.Filter(r.Trace, notesAndFails), topdown.PrettyTraceOptions{Locations: true})
		fmt.Fprintln(w, indent(strings.TrimRight(buf.String(), "\n"), "      "))
	}
}

// notesAndFails are the events of a trace --verbose shows, as opa test -v
// does: where the evaluation failed, and trace() notes.
func notesAndFails(e *topdown.Event) bool { return e.Op == topdown.NoteOp || e.Op == topdown.FailOp }

func indent(text, prefix string) string {
	return prefix + strings.ReplaceAll(text, "\n", "\n"+prefix)
}

// formatDuration is a test's duration in milliseconds, to a tenth.
func formatDuration(ns int64) string {
	d := time.Duration(ns)
	if d < 100*time.Microsecond {
		return "<0.1ms"
	}
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

// writeCoverage prints the coverage of each policy file, and their total.
func writeCoverage(w io.Writer, files []policytest.FileCoverage) {
	fmt.Fprintln(w, "coverage of the policies (lines with a rule or an expression):")
	if len(files) == 0 {
		fmt.Fprintln(w, "  no policy files (only tests)")
	}
	var covered, total int
	for _, f := range files {
		covered, total = covered+f.Covered, total+f.Total
		fmt.Fprintf(w, "  %s: %d/%d lines, %s", f.File, f.Covered, f.Total, percent(f.Covered, f.Total))
		if len(f.NotCovered) > 0 {
			fmt.Fprintf(w, "; not covered: %s", formatSpans(f.NotCovered))
		}
		fmt.Fprintln(w)
	}
	if len(files) > 1 {
		fmt.Fprintf(w, "  total: %d/%d lines, %s\n", covered, total, percent(covered, total))
	}
}

func percent(covered, total int) string {
	if total == 0 {
		return "no rules"
	}
	return fmt.Sprintf("%.1f%%", policytest.Percent(covered, total))
}

func formatSpans(ss [][2]int) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(s[0])
		if s[1] != s[0] {
			parts[i] += "-" + strconv.Itoa(s[1])
		}
	}
	return strings.Join(parts, ", ")
}

func writeTestJSON(w io.Writer, fl testFlags, results []policytest.Result, cov []policytest.FileCoverage) error {
	doc := struct {
		Version  int                        `json:"version"`
		Results  []policytest.Result        `json:"results"`
		Coverage *[]policytest.FileCoverage `json:"coverage,omitempty"`
		Summary  policytest.Summary         `json:"summary"`
	}{Version: 1, Results: results, Summary: policytest.Summarize(results)}
	if fl.coverage {
		doc.Coverage = &cov
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
