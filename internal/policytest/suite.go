// Package policytest runs what dslint test runs: the Rego unit tests of the
// users' policies, with OPA's test runner in the sandbox of the rules, and
// their fixtures, linted with the built-in rules and the policies. It
// returns results; internal/cli parses the flags and prints them.
package policytest

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/fixture"
)

// Suite is what dslint test runs: the users' modules, the fixtures of their
// directories, and the policies compiled with the built-in rules.
type Suite struct {
	modules  []*ast.Module // the users' modules, tests included
	fixtures []string
	compiled *engine.Compiled // built-in rules and the users' policies, for fixtures
}

// InputError is a problem with the directories dslint test was given rather
// than with a policy in them: none holds a test, or their fixtures cannot be
// listed. Problems in the policies are engine.PolicyErrors.
type InputError struct{ msg string }

func (e InputError) Error() string { return e.msg }

// Load parses and compiles the policies under dirs, tests included, and
// finds their fixtures. A problem in the policies is returned as
// engine.PolicyErrors, at its position.
func Load(dirs []string) (*Suite, error) {
	s := &Suite{}
	var err error
	if s.modules, err = engine.LoadPolicies(dirs, true); err != nil {
		return nil, err
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
			return nil, InputError{"find fixtures: " + err.Error()}
		}
		s.fixtures = append(s.fixtures, found...)
	}
	if tests == 0 && len(s.fixtures) == 0 {
		return nil, InputError{"no tests found in " + strings.Join(dirs, ", ") + " (looked for *_test.rego files and fixtures/<rule-id>/*.yaml)"}
	}
	// The policies must load as dslint lint --policy loads them: the same
	// checks (metadata, no built-in package or rule id), the same errors.
	if s.compiled, err = engine.Compile(dslint.Policies, policies, engine.RuleConfig{}); err != nil {
		return nil, err
	}
	return s, nil
}

func isTestModule(m *ast.Module) bool {
	return strings.HasSuffix(m.Package.Location.File, "_test.rego")
}

// Options say which tests run and what is collected.
type Options struct {
	// Run selects the tests and fixtures whose name it matches: a test's
	// name is data.<package>.test_<name>, a fixture's its path.
	Run *regexp.Regexp
	// Trace keeps the evaluation trace of every failing test in its Result.
	Trace bool
	// Coverage collects the lines of the policies that the tests evaluate.
	Coverage bool
}

// filter is Run as OPA's tester takes it: all tests when empty.
func (o Options) filter() string {
	if o.Run == nil {
		return ""
	}
	return o.Run.String()
}

// selects reports whether Run selects the test or fixture named name.
func (o Options) selects(name string) bool { return o.Run == nil || o.Run.MatchString(name) }

// Result is the outcome of one Rego test or one fixture.
type Result struct {
	Kind     string `json:"kind"` // KindTest or KindFixture
	Name     string `json:"name"`
	File     string `json:"file"`
	Line     int    `json:"line"` // 0 for a fixture
	Result   string `json:"result"`
	Duration int64  `json:"duration_ns"`
	Output   string `json:"output"` // what the test printed with print()
	Message  string `json:"message,omitempty"`

	// Trace is the evaluation of a failing test, with Options.Trace.
	Trace []*topdown.Event `json:"-"`
}

// Kinds of Result.
const (
	KindTest    = "test"
	KindFixture = "fixture"
)

// Outcomes of a Result.
const (
	Pass  = "pass"
	Fail  = "fail"
	Error = "error"
	Skip  = "skip" // a todo_test_ rule
)

// Run runs the Rego tests, sorted by file and line, then the fixtures, in
// path order. With Options.Coverage it also returns the coverage of the
// policy files (not the tests), sorted by file.
func (s *Suite) Run(ctx context.Context, opts Options) ([]Result, []FileCoverage, error) {
	results, cov, err := s.runTests(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	return append(results, s.checkFixtures(ctx, opts)...), cov, nil
}

// Summary counts the results.
type Summary struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errors  int `json:"errors"`
	Skipped int `json:"skipped"`
}

// Summarize counts results by outcome.
func Summarize(results []Result) Summary {
	var s Summary
	for _, r := range results {
		switch r.Result {
		case Pass:
			s.Passed++
		case Fail:
			s.Failed++
		case Error:
			s.Errors++
		case Skip:
			s.Skipped++
		}
	}
	return s
}
