// Package regogate holds dslint's Rego to the bar its Go is held to: every
// Rego file of the repository formatted as opa fmt formats it, and every
// module compiling in strict mode, as opa check --strict compiles it.
// make rego-check runs its tests (and Regal, from its own tool module);
// tools/regofmt rewrites the files with the same formatter.
package regogate

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/dslint/dslint/internal/engine"
)

// Dirs are the directories, relative to the repository's root, whose Rego
// is gated: the library, the built-in rules, the example custom policies
// and any policy among the fixtures.
var Dirs = []string{"rego", "rules", "examples/policies", "fixtures"}

// Files are the *.rego files under the Dirs of root, sorted, named
// relative to root with slashes.
func Files(root string) ([]string, error) {
	var files []string
	for _, dir := range Dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".rego" {
				return err
			}
			rel, err := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
			return err
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	slices.Sort(files)
	return files, nil
}

// Format is src formatted as opa fmt formats Rego v1 with the OPA that
// dslint is built with, run until it changes nothing: one pass can leave
// work for a second (v1.22.2 turns "} if x else := y" into "} if x" and
// " else := y" on the next line, which the next pass moves again).
func Format(name string, src []byte) ([]byte, error) {
	for range 3 {
		out, err := format.SourceWithOpts(name, src, format.Opts{RegoVersion: ast.RegoV1})
		if err != nil || bytes.Equal(out, src) {
			return out, err
		}
		src = out
	}
	return src, nil
}

// Formatted reports whether the Rego file at path is formatted.
func Formatted(path string) (bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	out, err := Format(path, src)
	if err != nil {
		return false, err
	}
	return bytes.Equal(src, out), nil
}

// Strict compiles the Rego files at paths together, tests included, in
// strict mode (unused variables and imports, shadowed input and data,
// deprecated built-ins...) and in the sandbox policies run in, and returns
// the errors; a file that does not parse gives its parse errors.
func Strict(paths []string) (ast.Errors, error) {
	modules := map[string]*ast.Module{}
	var errs ast.Errors
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		m, err := ast.ParseModuleWithOpts(path, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if perrs, ok := err.(ast.Errors); ok {
			errs = append(errs, perrs...)
			continue
		}
		if err != nil {
			return nil, err
		}
		modules[path] = m
	}
	if len(errs) > 0 {
		return errs, nil
	}
	c := ast.NewCompiler().
		WithDefaultRegoVersion(ast.RegoV1).
		WithCapabilities(engine.Sandbox()).
		WithEnablePrintStatements(true).
		WithStrict(true).
		SetErrorLimit(0) // every error, not the first ten
	c.Compile(modules)
	return c.Errors, nil
}
