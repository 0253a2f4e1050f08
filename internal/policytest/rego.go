package policytest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
)

// runTests runs the test_ rules of the users' modules, compiled with the
// built-in framework and rules (not their tests). Tracing costs several
// times the run, so a run without Options.Trace is not traced; its failing
// tests are run again, traced, to tell which expression failed.
func (s *Suite) runTests(ctx context.Context, opts Options) ([]Result, []FileCoverage, error) {
	modules, policies, err := s.testModules()
	if err != nil {
		return nil, nil, err
	}
	var cov *cover.Cover
	if opts.Coverage {
		cov = cover.New()
	}
	results, err := runRego(ctx, modules, opts.filter(), opts.Trace, cov)
	if err != nil {
		return nil, nil, err
	}
	var failed []string
	for _, r := range results {
		if r.Result == Fail && r.Trace == nil {
			failed = append(failed, "^"+regexp.QuoteMeta(r.Name)+"$")
		}
	}
	if len(failed) > 0 {
		again, err := runRego(ctx, modules, strings.Join(failed, "|"), true, nil)
		if err != nil {
			return nil, nil, err
		}
		for i, r := range results {
			if j := slices.IndexFunc(again, func(a Result) bool { return a.Name == r.Name }); j >= 0 && results[i].Message == "" {
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
func (s *Suite) testModules() (all, policies map[string]*ast.Module, err error) {
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
func runRego(ctx context.Context, modules map[string]*ast.Module, filter string, trace bool, cov *cover.Cover) ([]Result, error) {
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
		return nil, engine.PolicyErrorsOf(err)
	}
	if err != nil {
		return nil, fmt.Errorf("run tests: %w", err)
	}
	var results []Result
	for r := range ch {
		if r.Location != nil && modules[r.Location.File] != nil { // a user's file: built-in modules are keyed dslint:...
			results = append(results, fromTester(r))
		}
	}
	slices.SortFunc(results, func(a, b Result) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
	})
	return results, nil
}

// fromTester is one result of OPA's tester.
func fromTester(r *tester.Result) Result {
	t := Result{
		Kind: KindTest, Name: r.Package + "." + r.Name,
		File: r.Location.File, Line: r.Location.Row,
		Duration: int64(r.Duration), Output: string(r.Output),
		Result: Pass,
	}
	switch {
	case r.Skip:
		t.Result = Skip
	case r.Error != nil:
		t.Result, t.Message = Error, r.Error.Error()
	case r.Fail:
		t.Result, t.Trace = Fail, r.Trace
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
