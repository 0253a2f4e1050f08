package policytest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
)

// checkFixtures lints each fixture of the suite that opts select with the
// built-in rules and the policies, and compares the findings with its wants.
func (s *Suite) checkFixtures(ctx context.Context, opts Options) []Result {
	var results []Result
	for _, path := range s.fixtures {
		if !opts.selects(filepath.ToSlash(path)) {
			continue
		}
		start := time.Now()
		r := checkFixture(ctx, s.compiled, path)
		r.Duration = int64(time.Since(start))
		results = append(results, r)
	}
	return results
}

// checkFixture lints one fixture and says whether its findings are the
// expected ones.
func checkFixture(ctx context.Context, rules *engine.Compiled, path string) Result {
	name := filepath.ToSlash(path)
	r := Result{Kind: KindFixture, Name: name, File: name, Result: Pass}
	data, err := os.ReadFile(path)
	if err != nil {
		r.Result, r.Message = Error, err.Error()
		return r
	}
	wants, err := fixture.Parse(data)
	if err != nil {
		r.Result, r.Message = Error, fmt.Sprintf("%s: %v", name, err)
		return r
	}
	var unknown []string
	for _, id := range fixture.NamedRules(path, wants) {
		if _, ok := rules.Rule(id); !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		r.Result = Fail
		r.Message = fmt.Sprintf("no rule %s among the policies and the built-in rules (a fixture's directory and its wants name rules by id)", strings.Join(unknown, ", "))
		return r
	}
	setup, err := fixture.SetupOf(path, data, nil)
	if err != nil {
		r.Result, r.Message = Error, err.Error()
		return r
	}
	out, problems := lint.Run(ctx, []manifest.Source{{Path: path, Name: name}}, nil, lint.Options{
		Rules: rules, Nodes: setup.Nodes, Probes: setup.Probes, NodeFiles: []string{path}, Cluster: setup.Cluster,
	})
	if err := problems.Err(); err != nil {
		r.Result, r.Message = Error, err.Error()
		return r
	}
	if o := fixture.Compare(path, wants, out.Findings); !o.OK() {
		r.Result, r.Message = Fail, o.Explain(name, out.Findings)
	}
	return r
}
