// Package differential compares the Rego library (rego/*.rego) with the
// upstream Go functions it reimplements (k8s.io/api, component-helpers,
// apimachinery) on generated cases: seeded and deterministic in the default
// run, driven by the fuzzer in the Fuzz* targets. Inputs are the k8s structs
// marshalled to JSON, so the Rego side sees the real API field names and the
// omitempty shapes (an empty string field is absent).
package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
)

// maxPrinted caps the disagreements printed per comparison.
const maxPrinted = 20

var (
	librariesOnce sync.Once
	libraries     map[string]*library // by package path, "data.dslint.lib.labels"
	librariesErr  error
)

// library is one rego/*.rego module, or why it failed to parse.
type library struct {
	file   string
	module *ast.Module
	err    error
}

// parseLibraries parses each framework file (rego/*.rego, tests excluded)
// on its own with engine.ParseModules, as the engine would, so that a file
// that does not parse only matters if a comparison needs it.
func parseLibraries() (map[string]*library, error) {
	files, err := fs.Glob(dslint.Policies, "rego/*.rego")
	if err != nil {
		return nil, err
	}
	libs := map[string]*library{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.rego") {
			continue
		}
		src, err := fs.ReadFile(dslint.Policies, file)
		if err != nil {
			return nil, err
		}
		ms, err := engine.ParseModules(fstest.MapFS{file: {Data: src}}, false)
		lib := &library{file: file, err: err}
		if err == nil {
			lib.module = ms[0]
			libs[lib.module.Package.Path.String()] = lib
		} else {
			// The package clause is the first line without a comment.
			libs[packageOf(string(src))] = lib
		}
	}
	return libs, nil
}

func packageOf(src string) string {
	for line := range strings.Lines(src) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "package "); ok {
			return "data." + strings.TrimSpace(rest)
		}
	}
	return ""
}

// modulesFor returns the modules of the given packages and of every package
// they import, transitively. Any of them failing to parse fails the test;
// other files do not matter.
func modulesFor(t testing.TB, packages ...string) []*ast.Module {
	t.Helper()
	librariesOnce.Do(func() { libraries, librariesErr = parseLibraries() })
	if librariesErr != nil {
		t.Fatal(librariesErr)
	}
	var out []*ast.Module
	seen := map[string]bool{}
	for len(packages) > 0 {
		pkg := packages[0]
		packages = packages[1:]
		if seen[pkg] || !strings.HasPrefix(pkg, "data.dslint.lib.") {
			continue
		}
		seen[pkg] = true
		lib, ok := libraries[pkg]
		switch {
		case !ok:
			t.Fatalf("no module under rego/ has package %s", pkg)
		case lib.err != nil:
			t.Fatalf("%s: %v", lib.file, lib.err)
		}
		out = append(out, lib.module)
		for _, imp := range lib.module.Imports {
			packages = append(packages, imp.Path.String())
		}
	}
	return out
}

var (
	queriesMu sync.Mutex
	queries   = map[string]*rego.PreparedEvalQuery{}
)

// prepare compiles query (which binds x) against the library packages it
// uses, once per process; the prepared query is safe for concurrent use.
func prepare(t testing.TB, query string, packages ...string) *rego.PreparedEvalQuery {
	t.Helper()
	queriesMu.Lock()
	defer queriesMu.Unlock()
	if pq, ok := queries[query]; ok {
		return pq
	}
	opts := []func(*rego.Rego){rego.Query(query), rego.StrictBuiltinErrors(true)}
	for _, m := range modulesFor(t, packages...) {
		opts = append(opts, rego.ParsedModule(m))
	}
	pq, err := rego.New(opts...).PrepareForEval(context.Background())
	if err != nil {
		t.Fatalf("prepare %s: %v", query, err)
	}
	queries[query] = &pq
	return &pq
}

// toInput turns a value into the generic JSON form the Rego input takes,
// going through encoding/json so struct tags and omitempty apply.
func toInput(t testing.TB, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := util.UnmarshalJSON(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// evalBool evaluates a query binding x to a boolean function's result; an
// undefined result (the function did not hold) is false. Builtin errors are
// strict, so a library that would quietly turn an error into "undefined"
// shows up here.
func evalBool(pq *rego.PreparedEvalQuery, input any) (bool, error) {
	rs, err := pq.Eval(context.Background(), rego.EvalInput(input))
	if err != nil {
		return false, err
	}
	switch len(rs) {
	case 0:
		return false, nil
	case 1:
		b, ok := rs[0].Bindings["x"].(bool)
		if !ok {
			return false, fmt.Errorf("x = %v, not a boolean", rs[0].Bindings["x"])
		}
		return b, nil
	default:
		return false, fmt.Errorf("%d results, want at most one", len(rs))
	}
}

func mustJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(raw)
}

// tally counts the cases of one comparison and reports disagreements.
type tally struct {
	t        testing.TB
	name     string
	cases    int
	trues    int // cases the oracle says true
	disagree int
}

// check evaluates one case: input is what Rego sees, want the Go oracle's
// answer.
func (c *tally) check(pq *rego.PreparedEvalQuery, input any, want bool) {
	c.t.Helper()
	c.cases++
	if want {
		c.trues++
	}
	got, err := evalBool(pq, input)
	if err == nil && want == got {
		return
	}
	c.disagree++
	if c.disagree > maxPrinted {
		return
	}
	report := map[string]any{"input": input, "go": want, "rego": got}
	if err != nil {
		report["rego"] = "error: " + err.Error()
	}
	c.t.Errorf("%s: disagreement: %s", c.name, mustJSON(report))
}

func (c *tally) done() {
	c.t.Helper()
	if c.disagree > maxPrinted {
		c.t.Errorf("%s: %d more disagreements not printed", c.name, c.disagree-maxPrinted)
	}
	c.t.Logf("%s: %d cases (%d true), %d disagreements", c.name, c.cases, c.trues, c.disagree)
}

// cases is the number of generated cases per comparison.
func cases() int {
	if testing.Short() {
		return 5000
	}
	return 25000
}

// src makes a case's choices: from a seeded generator in the default run,
// or from fuzz bytes (one byte per choice, 0 once they run out) in the
// fuzz targets, where free strings chosen by the fuzzer join every pool.
type src struct {
	r    *rand.Rand
	b    []byte
	free []string
}

func seeded(seed uint64) *src {
	return &src{r: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// fromBytes reads choices from fuzz bytes. Free strings that are not
// valid UTF-8 skip the case: JSON (and so the API and the Rego input) can't
// carry them, and encoding/json would replace the bad bytes.
func fromBytes(t *testing.T, b []byte, free ...string) *src {
	for _, f := range free {
		if !utf8.ValidString(f) {
			t.Skip("free string is not valid UTF-8")
		}
	}
	return &src{b: b, free: free}
}

// intn is a choice in [0, n).
func (s *src) intn(n int) int {
	if n <= 1 {
		return 0
	}
	if s.r != nil {
		return s.r.IntN(n)
	}
	if len(s.b) == 0 {
		return 0
	}
	c := int(s.b[0])
	s.b = s.b[1:]
	return c % n
}

// chance is true with probability 1/n.
func (s *src) chance(n int) bool { return s.intn(n) == 0 }

// pick takes a string from pool; now and then (or when the fuzzer says so)
// a string from outside it.
func (s *src) pick(pool []string) string {
	if s.r != nil {
		if s.chance(40) {
			return s.randomString()
		}
		return pool[s.intn(len(pool))]
	}
	i := s.intn(len(pool) + len(s.free))
	if i < len(pool) {
		return pool[i]
	}
	return s.free[i-len(pool)]
}

// pickMostly picks from good four times in five and from odd otherwise,
// so that cases that parse, and then match or not, stay common while the
// edge cases still come up. The fuzzer sees one pool.
func (s *src) pickMostly(good, odd []string) string {
	if s.r == nil {
		return s.pick(append(good[:len(good):len(good)], odd...))
	}
	if s.chance(5) {
		return s.pick(odd)
	}
	return s.pick(good)
}

const alphabet = "abAZ09-_.+/ é"

// randomString is a short string of label-ish characters or digits.
func (s *src) randomString() string {
	var b strings.Builder
	n := s.intn(9)
	if s.chance(2) {
		if s.chance(3) {
			b.WriteByte("+-0"[s.intn(3)])
		}
		for range n + s.intn(14) {
			b.WriteByte(byte('0' + s.intn(10)))
		}
		return b.String()
	}
	runes := []rune(alphabet)
	for range n {
		b.WriteRune(runes[s.intn(len(runes))])
	}
	return b.String()
}

// differential compares one Rego query with the upstream oracle on cases()
// seeded cases drawn by gen.
func differential[C interface{ oracle() bool }](t *testing.T, name, query, pkg string, seed uint64, gen func(*src) C) {
	t.Parallel()
	pq := prepare(t, query, pkg)
	tl := &tally{t: t, name: name}
	s := seeded(seed)
	for range cases() {
		c := gen(s)
		tl.check(pq, toInput(t, c), c.oracle())
	}
	tl.done()
}
