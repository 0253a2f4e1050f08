package engine

import (
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Parsing and compiling the Rego is most of the time a small run takes, so
// both are cut to what evaluation needs: the modules are parsed in parallel,
// and the built-in modules skip the compiler's checks, which `make test`
// runs on them (TestBuiltinModulesPassEveryCheck, and in strict mode the
// Rego gate's TestRegoStrict).

// checkStages are the stages of OPA's compiler (v1.22) that only look for
// mistakes: each reports errors and rewrites nothing later stages or
// evaluation read, so leaving them out gives the same compiled rules, a
// third sooner. TestCheckStagesRewriteNothing proves it for the built-in
// modules. The type check's environment is read at evaluation only by
// `with` on a function, which no built-in module uses
// (TestBuiltinModulesMockNoFunction).
var checkStages = []ast.StageID{
	ast.StageCheckUnusedImports,
	ast.StageCheckKeywordOverrides,
	ast.StageCheckDuplicateImports,
	ast.StageCheckVoidCalls,
	ast.StageCheckRuleConflicts,
	ast.StageCheckUndefinedFuncs,
	ast.StageCheckSafetyRuleHeads,
	ast.StageCheckRecursion,
	ast.StageCheckTypes,
	ast.StageCheckUnsafeBuiltins,
	ast.StageCheckDeprecatedBuiltins,
}

// newCompiler is the compiler every module is compiled with: Rego v1, in the
// sandbox.
func newCompiler() *ast.Compiler {
	return ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1).WithCapabilities(Sandbox())
}

// compile compiles the modules once; every query of the engine is prepared
// on the same compiler. The built-in modules alone skip the checkStages;
// with the users' policies among them, every check runs, and its errors are
// PolicyErrors.
func compile(modules, policies []*ast.Module) (*ast.Compiler, error) {
	c := newCompiler()
	if len(policies) == 0 {
		c.WithSkipStages(checkStages...)
	}
	if c.Compile(byFile(modules)); c.Failed() {
		if len(policies) > 0 {
			return nil, astErrors(c.Errors)
		}
		return nil, fmt.Errorf("compile rules: %w", c.Errors)
	}
	return c, nil
}

// byFile keys modules by their file name, as the compiler takes them.
func byFile(modules []*ast.Module) map[string]*ast.Module {
	m := make(map[string]*ast.Module, len(modules))
	for _, mod := range modules {
		m[mod.Package.Location.File] = mod
	}
	return m
}

// ParseModules parses the *.rego files of fsys with their annotations; with
// tests set, *_test.rego files are included. The files are parsed in
// parallel; the modules come in the order of the files' names, and an
// error is that of the first file, in that order, that does not parse.
func ParseModules(fsys fs.FS, tests bool) ([]*ast.Module, error) {
	defer pauseGC()()
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".rego" {
			return err
		}
		if tests || !strings.HasSuffix(p, "_test.rego") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	modules := make([]*ast.Module, len(files))
	errs := make([]error, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				modules[i], errs[i] = parseModule(fsys, files[i])
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return modules, nil
}

func parseModule(fsys fs.FS, name string) (*ast.Module, error) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	return ast.ParseModuleWithOpts(name, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
}

// Parsing the rules allocates some 15 MB in a few milliseconds on every
// core. A collection that starts then (at GOGC 300, one does) slows the
// parse with its mark assists: an eighth of a small run's CPU. So the
// collector waits until the modules are parsed, and collects, if it must,
// during the compile, which leaves a core free. The soft memory limit
// (cmd/dslint) still bounds the heap meanwhile.
var gcPause struct {
	sync.Mutex
	depth   int // parses running
	percent int // the GC percent to restore when the last one ends
}

// pauseGC turns the garbage collector off until every caller that paused it
// has called the function it returned.
func pauseGC() (resume func()) {
	gcPause.Lock()
	defer gcPause.Unlock()
	if gcPause.depth == 0 {
		gcPause.percent = debug.SetGCPercent(-1)
	}
	gcPause.depth++
	return func() {
		gcPause.Lock()
		defer gcPause.Unlock()
		if gcPause.depth--; gcPause.depth == 0 {
			debug.SetGCPercent(gcPause.percent)
		}
	}
}
