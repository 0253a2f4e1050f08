package engine

import (
	"errors"
	"maps"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/dslint/dslint"
)

// TestBuiltinModulesPassEveryCheck compiles the built-in modules as a run
// does, in the sandbox, but with every stage of the compiler: the checks a
// run skips (checkStages) run here, whatever the Rego gate's report mode.
// Strict mode is the gate's (internal/regogate, TestRegoStrict).
func TestBuiltinModulesPassEveryCheck(t *testing.T) {
	modules, err := ParseModules(dslint.Policies, false)
	if err != nil {
		t.Fatal(err)
	}
	c := newCompiler()
	if c.Compile(byFile(modules)); c.Failed() {
		for _, e := range c.Errors {
			t.Error(e)
		}
	}
}

// TestCheckStagesRewriteNothing compiles the built-in modules with every
// stage and without the checkStages: the compiled modules must be the same,
// or a stage that rewrites them has been taken for a check.
func TestCheckStagesRewriteNothing(t *testing.T) {
	compiled := func(skip bool) *ast.Compiler {
		modules, err := ParseModules(dslint.Policies, false)
		if err != nil {
			t.Fatal(err)
		}
		c := newCompiler()
		if skip {
			c.WithSkipStages(checkStages...)
		}
		if c.Compile(byFile(modules)); c.Failed() {
			t.Fatal(c.Errors)
		}
		return c
	}
	all, fast := compiled(false), compiled(true)
	if len(all.Modules) != len(fast.Modules) {
		t.Fatalf("%d modules compiled with every stage, %d without the checks", len(all.Modules), len(fast.Modules))
	}
	for name, m := range all.Modules {
		f := fast.Modules[name]
		if f == nil || !m.Equal(f) || m.String() != f.String() {
			t.Errorf("%s compiles differently without the checkStages", name)
		}
	}
	if !maps.Equal(all.RewrittenVars, fast.RewrittenVars) {
		t.Error("the checkStages change the compiler's RewrittenVars")
	}
}

// TestBuiltinModulesMockNoFunction refuses `with` on data in a built-in
// module (its tests aside): replacing a function with `with` needs the type
// check's environment at evaluation, and the type check is one of the
// checkStages a run skips.
func TestBuiltinModulesMockNoFunction(t *testing.T) {
	modules, err := ParseModules(dslint.Policies, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		ast.WalkExprs(m, func(e *ast.Expr) bool {
			for _, w := range e.With {
				if refersToData(w.Target) || refersToData(w.Value) {
					t.Errorf("%s: %v: a built-in rule may not use `with` on data (see checkStages)", w.Location, w)
				}
			}
			return false
		})
	}
}

func refersToData(t *ast.Term) bool {
	found := false
	ast.WalkRefs(t, func(r ast.Ref) bool {
		found = found || r.HasPrefix(ast.DefaultRootRef)
		return found
	})
	return found
}

// TestPoliciesGetEveryCheck: a user's policy with a mistake only a skipped
// check finds (a type error) is refused, at its line.
func TestPoliciesGetEveryCheck(t *testing.T) {
	src := `# METADATA
# title: Typed
# description: Adds a number to a string.
# custom:
#   severity: error
#   remediation: None.
package dslint.rules["typed"]

report contains data.dslint.lib.result.fail([], "x") if {
	1 + "one" > 0
}
`
	policy, err := ast.ParseModuleWithOpts("typed.rego", src, ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(dslint.Policies, []*ast.Module{policy}, RuleConfig{})
	var perrs PolicyErrors
	if !errors.As(err, &perrs) || len(perrs) == 0 || perrs[0].File != "typed.rego" || perrs[0].Line != 10 || !strings.Contains(perrs[0].Message, "plus") {
		t.Fatalf("got %v, want a type error at typed.rego:10", err)
	}
}

// TestParseModulesOrderAndFirstError: modules come in file order whatever
// the parallel parse did, and the error is the first broken file's.
func TestParseModulesOrderAndFirstError(t *testing.T) {
	fsys := fstest.MapFS{}
	var want []string
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		fsys[name+".rego"] = &fstest.MapFile{Data: []byte("package " + name + "\n")}
		want = append(want, name+".rego")
	}
	fsys["h_test.rego"] = &fstest.MapFile{Data: []byte("package h\n")}
	modules, err := ParseModules(fsys, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range modules {
		got = append(got, m.Package.Location.File)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("modules of %v, want %v", got, want)
	}
	fsys["c.rego"].Data = []byte("package c\nbroken broken\n")
	fsys["f.rego"].Data = []byte("package f\nbroken broken\n")
	if _, err := ParseModules(fsys, false); err == nil || !strings.Contains(err.Error(), "c.rego") {
		t.Errorf("error %v, want the one of c.rego", err)
	}
}

// BenchmarkCompile measures what every lint pays before its first object:
// parsing and compiling the built-in rules. Profile it with
// go test ./internal/engine -run '^$' -bench Compile -cpuprofile cpu.out
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := Compile(dslint.Policies, nil, RuleConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPauseGCRestoresOnceAllResume: overlapping pauses (parses running at
// once) restore the GC percent when the last one resumes, not before.
func TestPauseGCRestoresOnceAllResume(t *testing.T) {
	percent := func() int { // the current GC percent, left as it is
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	defer debug.SetGCPercent(debug.SetGCPercent(123))
	first, second := pauseGC(), pauseGC()
	first()
	if p := percent(); p != -1 {
		t.Errorf("GC percent %d with one parse still running, want -1 (off)", p)
	}
	second()
	if p := percent(); p != 123 {
		t.Errorf("GC percent %d once every parse is done, want 123", p)
	}
}
