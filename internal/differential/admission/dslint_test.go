package admission

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
)

// rule is the dslint rule the policy enforces.
const rule = "pool-ownership"

// objectKey names an object: kind, namespace and name.
type objectKey struct{ kind, namespace, name string }

func (k objectKey) String() string { return fmt.Sprintf("%s %s/%s", k.kind, k.namespace, k.name) }

// ownershipRules compiles the built-in rules with every rule but
// pool-ownership turned off.
func ownershipRules(t testing.TB) *engine.Compiled {
	t.Helper()
	all, err := engine.RulesIn(dslint.Policies)
	if err != nil {
		t.Fatal(err)
	}
	var off []string
	for _, r := range all {
		if r.ID != rule {
			off = append(off, r.ID)
		}
	}
	if len(off) == len(all) {
		t.Fatalf("no rule %s among the built-in rules", rule)
	}
	compiled, err := engine.Compile(dslint.Policies, nil, engine.RuleConfig{Off: off})
	if err != nil {
		t.Fatal(err)
	}
	return compiled
}

// findingPool reads the pool a finding is about: its message names it as
// pool "NAME".
var findingPool = regexp.MustCompile(`pool ("(?:[^"\\]|\\.)*")`)

// lintVerdicts runs dslint's lint pipeline on the file as the fixture
// test does (fixture.SetupOf: the pools of its config, X.dslint.yaml or
// the directory's .dslint.yaml, as the CLI takes them) and returns the
// pools pool-ownership reports for each object.
func lintVerdicts(t testing.TB, rules *engine.Compiled, file string) map[objectKey][]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := fixture.SetupOf(file, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, problems := lint.Run(context.Background(), []manifest.Source{{Path: file, Name: file}}, nil, lint.Options{
		Rules: rules, Nodes: setup.Nodes, Probes: setup.Probes, NodeFiles: []string{file}, Cluster: setup.Cluster,
	})
	if err := problems.Err(); err != nil {
		t.Fatalf("dslint %s: %v", file, err)
	}
	verdicts := map[objectKey][]string{}
	for _, f := range out.Findings {
		if f.Rule != rule {
			continue
		}
		m := findingPool.FindStringSubmatch(f.Message)
		if m == nil {
			t.Fatalf("%s:%d: a %s finding names no pool: %s", f.File, f.Line, rule, f.Message)
		}
		pool, err := strconv.Unquote(m[1])
		if err != nil {
			t.Fatal(err)
		}
		k := objectKey{f.Object.Kind, f.Object.Namespace, f.Object.Name}
		if !slices.Contains(verdicts[k], pool) {
			verdicts[k] = append(verdicts[k], pool)
		}
	}
	for _, pools := range verdicts {
		slices.Sort(pools)
	}
	return verdicts
}
