package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/lineage"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
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

// testResult is the outcome of one Rego test or one fixture.
type testResult struct {
	Kind     string `json:"kind"` // test or fixture
	Name     string `json:"name"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Result   string `json:"result"` // pass, fail, error or skip
	Duration int64  `json:"duration_ns"`
	Output   string `json:"output"`
	Message  string `json:"message,omitempty"`

	trace []*topdown.Event // with --verbose, for a failing test
}

const (
	resultPass  = "pass"
	resultFail  = "fail"
	resultError = "error"
	resultSkip  = "skip"
)

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
	suite, err := loadSuite(dirs)
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	results, cov, err := suite.runTests(ctx, fl)
	if err != nil {
		return 0, err
	}
	fixtures, err := suite.checkFixtures(ctx, filter)
	if err != nil {
		return 0, err
	}
	results = append(results, fixtures...)
	if len(results) == 0 {
		return 0, usagef("no test or fixture matches --run %q", fl.run)
	}
	if err := writeTestResults(e.stdout, fl, results, cov); err != nil {
		return 0, err
	}
	if s := summarize(results); s.Failed+s.Errors > 0 {
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

// suite is what dslint test runs: the users' modules, the fixtures of their
// directories, and the policies compiled with the built-in rules.
type suite struct {
	modules  []*ast.Module // the users' modules, tests included
	fixtures []string
	compiled *engine.Compiled // built-in rules and the users' policies, for fixtures
}

// loadSuite parses and compiles the policies under dirs, tests included;
// a problem in them is a usage error at its position.
func loadSuite(dirs []string) (*suite, error) {
	s := &suite{}
	var err error
	if s.modules, err = engine.LoadPolicies(dirs, true); err != nil {
		return nil, policyUsageError(err)
	}
	tests := 0
	var policies []*ast.Module
	for _, m := range s.modules {
		if isTestModule(m) {
			tests++
		} else {
			policies = append(policies, m)
		}
	}
	for _, d := range dirs {
		found, err := fixture.Find(filepath.Join(d, "fixtures"))
		if err != nil {
			return nil, usagef("find fixtures: %v", err)
		}
		s.fixtures = append(s.fixtures, found...)
	}
	if tests == 0 && len(s.fixtures) == 0 {
		return nil, usagef("no tests found in %s (looked for *_test.rego files and fixtures/<rule-id>/*.yaml)", strings.Join(dirs, ", "))
	}
	// The policies must load as dslint lint --policy loads them: the same
	// checks (metadata, no built-in package or rule id), the same errors.
	if s.compiled, err = engine.CompileWith(dslint.Policies, policies, nil); err != nil {
		return nil, policyUsageError(err)
	}
	return s, nil
}

func isTestModule(m *ast.Module) bool {
	return strings.HasSuffix(m.Package.Location.File, "_test.rego")
}

// runTests runs the test_ rules of the users' modules, compiled with the
// built-in framework and rules (not their tests). Tracing costs several
// times the run, so a run without --verbose is not traced; its failing
// tests are run again, traced, to tell which expression failed.
func (s *suite) runTests(ctx context.Context, fl testFlags) ([]testResult, []fileCoverage, error) {
	modules, policies, err := s.testModules()
	if err != nil {
		return nil, nil, err
	}
	var cov *cover.Cover
	if fl.coverage {
		cov = cover.New()
	}
	traced := fl.verbose && fl.format == "text"
	results, err := runRego(ctx, modules, fl.run, traced, cov)
	if err != nil {
		return nil, nil, err
	}
	var failed []string
	for _, r := range results {
		if r.Result == resultFail && r.trace == nil {
			failed = append(failed, "^"+regexp.QuoteMeta(r.Name)+"$")
		}
	}
	if len(failed) > 0 {
		again, err := runRego(ctx, modules, strings.Join(failed, "|"), true, nil)
		if err != nil {
			return nil, nil, err
		}
		for i, r := range results {
			if j := slices.IndexFunc(again, func(a testResult) bool { return a.Name == r.Name }); j >= 0 && results[i].Message == "" {
				results[i].Message = again[j].Message
			}
		}
	}
	if cov == nil {
		return results, nil, nil
	}
	return results, coverageOf(cov.Report(policies), policies), nil
}

// testModules are the modules the tests run with, by file name, and the
// users' policies (not their tests), by file name.
func (s *suite) testModules() (all, policies map[string]*ast.Module, err error) {
	builtin, err := engine.ParseModules(dslint.Policies, false)
	if err != nil {
		return nil, nil, err
	}
	all, policies = map[string]*ast.Module{}, map[string]*ast.Module{}
	for _, m := range builtin {
		all["dslint:"+m.Package.Location.File] = m // never a user's file name
	}
	for _, m := range s.modules {
		file := m.Package.Location.File
		all[file] = m
		if !isTestModule(m) {
			policies[file] = m
		}
	}
	return all, policies, nil
}

// runRego runs the tests whose name matches filter with OPA's tester and
// returns those of the users' files, sorted by file and line.
func runRego(ctx context.Context, modules map[string]*ast.Module, filter string, trace bool, cov *cover.Cover) ([]testResult, error) {
	runner := tester.NewRunner().
		SetCompiler(engine.TestCompiler()).
		SetModules(modules).
		Filter(filter).
		RaiseBuiltinErrors(true).
		EnableTracing(trace)
	if cov != nil {
		runner.SetCoverageQueryTracer(cov) // after EnableTracing, which drops it
	}
	ch, err := runner.RunTests(ctx, nil)
	var compileErrs ast.Errors
	if errors.As(err, &compileErrs) {
		return nil, policyUsageError(engine.PolicyErrorsOf(err))
	}
	if err != nil {
		return nil, fmt.Errorf("run tests: %w", err)
	}
	var results []testResult
	for r := range ch {
		if r.Location != nil && modules[r.Location.File] != nil { // a user's file: built-in modules are keyed dslint:...
			results = append(results, fromTester(r))
		}
	}
	slices.SortFunc(results, func(a, b testResult) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
	})
	return results, nil
}

// fromTester is one result of OPA's tester.
func fromTester(r *tester.Result) testResult {
	t := testResult{
		Kind: "test", Name: r.Package + "." + r.Name,
		File: r.Location.File, Line: r.Location.Row,
		Duration: int64(r.Duration), Output: string(r.Output),
		Result: resultPass,
	}
	switch {
	case r.Skip:
		t.Result = resultSkip
	case r.Error != nil:
		t.Result, t.Message = resultError, r.Error.Error()
	case r.Fail:
		t.Result, t.trace = resultFail, r.Trace
		if e := failedExpr(r.Trace); e != nil {
			t.Message = fmt.Sprintf("%s:%d: failed: %s", e.Location.File, e.Location.Row, strings.TrimSpace(string(e.Location.Text)))
		}
	}
	return t
}

// failedExpr is the expression a traced test failed at: the last one that
// failed inside a rule body (not the query of the test itself), and for
// an every, not the every but the expression inside it that failed.
func failedExpr(trace []*topdown.Event) *ast.Expr {
	for _, e := range slices.Backward(trace) {
		if e.Op != topdown.FailOp || e.QueryID == 0 || e.Location == nil {
			continue
		}
		expr, ok := e.Node.(*ast.Expr)
		if !ok {
			continue
		}
		if _, every := expr.Terms.(*ast.Every); every {
			continue
		}
		if expr.Location == nil || expr.Location.File == "" {
			continue
		}
		return expr
	}
	return nil
}

// checkFixtures lints each fixture of the suite whose path filter matches
// with the built-in rules and the policies, and compares the findings with
// its wants.
func (s *suite) checkFixtures(ctx context.Context, filter *regexp.Regexp) ([]testResult, error) {
	settings := engine.Settings{AllFields: true} // rules written outside dslint read any field
	eng, err := s.compiled.Engine(ctx, settings)
	if err != nil {
		return nil, err
	}
	engineFor := func(inv *inventory.Inventory) (*engine.Engine, error) {
		if inv.Empty() {
			return eng, nil
		}
		withNodes := settings
		withNodes.Inventory = inv.Data()
		return s.compiled.Engine(ctx, withNodes)
	}
	var results []testResult
	for _, path := range s.fixtures {
		name := filepath.ToSlash(path)
		if !filter.MatchString(name) {
			continue
		}
		start := time.Now()
		r := checkFixture(ctx, eng, engineFor, path)
		r.Duration = int64(time.Since(start))
		results = append(results, r)
	}
	return results, nil
}

// checkFixture lints one fixture and says whether its findings are the
// expected ones.
func checkFixture(ctx context.Context, eng *engine.Engine, engineFor func(*inventory.Inventory) (*engine.Engine, error), path string) testResult {
	name := filepath.ToSlash(path)
	r := testResult{Kind: "fixture", Name: name, File: name, Result: resultPass}
	data, err := os.ReadFile(path)
	if err != nil {
		r.Result, r.Message = resultError, err.Error()
		return r
	}
	wants, err := fixture.Parse(data)
	if err != nil {
		r.Result, r.Message = resultError, fmt.Sprintf("%s: %v", name, err)
		return r
	}
	var unknown []string
	for _, id := range append([]string{fixture.Rule(path)}, ruleNames(wants)...) {
		if _, ok := eng.Rule(id); !ok && !slices.Contains(unknown, id) {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		r.Result = resultFail
		r.Message = fmt.Sprintf("no rule %s among the policies and the built-in rules (a fixture's directory and its wants name rules by id)", strings.Join(unknown, ", "))
		return r
	}
	nodes, err := fixture.Nodes(name, data)
	if err != nil {
		r.Result, r.Message = resultError, err.Error()
		return r
	}
	out, problems := lint.Run(ctx, []manifest.Source{{Path: path, Name: name}}, nil, lint.Options{Engine: engineFor, Nodes: nodes, NodeFiles: []string{path}})
	if err := problems.Err(); err != nil {
		r.Result, r.Message = resultError, err.Error()
		return r
	}
	if o := fixture.Compare(path, wants, out.Findings); !o.OK() {
		r.Result, r.Message = resultFail, fixtureMessage(name, o, out.Findings)
	}
	return r
}

func ruleNames(wants []fixture.Want) []string {
	var ids []string
	for _, w := range wants {
		ids = append(ids, w.Rule)
	}
	return ids
}

// fixtureMessage says what a fixture expected and did not get, and what
// it got and did not expect, at the fixture's positions.
func fixtureMessage(name string, o fixture.Outcome, findings []finding.Finding) string {
	type line struct {
		at   fixture.Want
		text string
	}
	var lines []line
	for _, w := range o.Missing {
		lines = append(lines, line{w, fmt.Sprintf("%s:%d:%d: missing %s finding (# want: on this line)", name, w.Line, w.Column, w.Rule)})
	}
	for _, w := range o.Unexpected {
		msg := ""
		if i := slices.IndexFunc(findings, func(f finding.Finding) bool {
			return f.Rule == w.Rule && f.Line == w.Line && f.Column == w.Column
		}); i >= 0 {
			msg = ": " + findings[i].Message
		}
		lines = append(lines, line{w, fmt.Sprintf("%s:%d:%d: unexpected %s finding%s", name, w.Line, w.Column, w.Rule, msg)})
	}
	slices.SortStableFunc(lines, func(a, b line) int { return a.at.Line - b.at.Line })
	var out []string
	for _, l := range lines {
		out = append(out, l.text)
	}
	return strings.Join(append(out, o.Problems...), "\n")
}

// testSummary counts the results.
type testSummary struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errors  int `json:"errors"`
	Skipped int `json:"skipped"`
}

func summarize(results []testResult) testSummary {
	var s testSummary
	for _, r := range results {
		switch r.Result {
		case resultPass:
			s.Passed++
		case resultFail:
			s.Failed++
		case resultError:
			s.Errors++
		case resultSkip:
			s.Skipped++
		}
	}
	return s
}

func writeTestResults(w io.Writer, fl testFlags, results []testResult, cov []fileCoverage) error {
	if fl.format == "json" {
		return writeTestJSON(w, fl, results, cov)
	}
	for _, r := range results {
		writeTestResult(w, r, fl.verbose)
	}
	if fl.coverage {
		writeCoverage(w, cov)
	}
	s := summarize(results)
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
func writeTestResult(w io.Writer, r testResult, verbose bool) {
	status := strings.ToUpper(r.Result)
	switch {
	case r.Kind == "fixture":
		fmt.Fprintf(w, "%s %s (%s)\n", status, r.Name, formatDuration(r.Duration))
	case r.Result == resultSkip:
		fmt.Fprintf(w, "%s %s at %s:%d\n", status, r.Name, r.File, r.Line)
	default:
		fmt.Fprintf(w, "%s %s (%s) at %s:%d\n", status, r.Name, formatDuration(r.Duration), r.File, r.Line)
	}
	failed := r.Result == resultFail || r.Result == resultError
	if r.Message != "" {
		fmt.Fprintln(w, indent(r.Message, "    "))
	}
	if out := strings.TrimRight(r.Output, "\n"); out != "" && (failed || verbose) {
		fmt.Fprintf(w, "    print() output:\n%s\n", indent(out, "      "))
	}
	if verbose && len(r.trace) > 0 {
		fmt.Fprintln(w, "    trace:")
		var buf strings.Builder
		topdown.PrettyTraceWithOpts(&buf, lineage.Filter(r.trace, notesAndFails), topdown.PrettyTraceOptions{Locations: true})
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

func writeTestJSON(w io.Writer, fl testFlags, results []testResult, cov []fileCoverage) error {
	doc := struct {
		Version  int             `json:"version"`
		Results  []testResult    `json:"results"`
		Coverage *[]fileCoverage `json:"coverage,omitempty"`
		Summary  testSummary     `json:"summary"`
	}{Version: 1, Results: results, Summary: summarize(results)}
	if fl.coverage {
		doc.Coverage = &cov
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
