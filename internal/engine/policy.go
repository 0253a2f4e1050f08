package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/dslint/dslint/internal/finding"
)

// Custom policies are the users' own rules: the *.rego files of the --policy
// directories and of the config's policies:. They are written exactly like
// the built-in rules (package dslint.rules["<id>"], a # METADATA block, a
// report set built with data.dslint.lib.result) and compiled together with
// them, in the sandbox.

// SandboxRemoved are the built-ins no policy may call: each reaches outside
// the run (the network, the host's resolver). opa.runtime stays, and returns
// no environment: dslint gives OPA no runtime information. OPA has no
// built-in that reads files.
var SandboxRemoved = []string{"http.send", "net.lookup_ip_addr"}

// Sandbox is the capabilities every module is compiled with: OPA's
// built-ins minus SandboxRemoved. A policy that calls a removed built-in
// does not compile ("undefined function http.send" at its line).
func Sandbox() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(slices.Clone(caps.Builtins), func(b *ast.Builtin) bool {
		return slices.Contains(SandboxRemoved, b.Name)
	})
	caps.AllowNet = []string{} // and no host for anything that could reach one
	return caps
}

// PolicyError is a problem with a user's policy, at a position in it: the
// user's to fix (exit 2), unlike a failure of the built-in rules.
type PolicyError struct {
	File         string
	Line, Column int
	Message      string
}

func (e PolicyError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Message)
}

// PolicyErrors are all the problems found in the policies, in file order.
type PolicyErrors []PolicyError

func (es PolicyErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// LoadPolicies parses the *.rego files under dirs (a directory is walked
// recursively; a file is taken as it is); with tests, *_test.rego files too.
// Positions name the files as the user named the directories. Every syntax
// error of every file is reported, as PolicyErrors.
func LoadPolicies(dirs []string, tests bool) ([]*ast.Module, error) {
	var modules []*ast.Module
	var errs PolicyErrors
	seen := map[string]bool{}
	for _, dir := range dirs {
		info, err := os.Stat(dir)
		if err != nil {
			errs = append(errs, PolicyError{File: dir, Message: "policy directory: " + unwrapPath(err).Error()})
			continue
		}
		if !info.IsDir() && filepath.Ext(dir) != ".rego" {
			errs = append(errs, PolicyError{File: dir, Message: "a policy must be a directory or a .rego file"})
			continue
		}
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, PolicyError{File: filepath.ToSlash(p), Message: unwrapPath(err).Error()})
				return nil
			}
			if d.IsDir() {
				if p != dir && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if filepath.Ext(p) != ".rego" || (!tests && strings.HasSuffix(p, "_test.rego")) {
				return nil
			}
			name := filepath.ToSlash(p)
			if real, err := filepath.EvalSymlinks(p); err == nil {
				if seen[real] {
					return nil
				}
				seen[real] = true
			}
			src, err := os.ReadFile(p)
			if err != nil {
				errs = append(errs, PolicyError{File: name, Message: unwrapPath(err).Error()})
				return nil
			}
			m, err := ast.ParseModuleWithOpts(name, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
			if err != nil {
				errs = append(errs, astErrors(err)...)
				return nil
			}
			modules = append(modules, m)
			return nil
		})
		if err != nil {
			errs = append(errs, PolicyError{File: dir, Message: err.Error()})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return modules, nil
}

// checkPolicies refuses user modules that would take the place of dslint's
// own: a built-in package, or a rule id the built-in rules use.
func checkPolicies(builtin, user []*ast.Module) error {
	own := map[string]bool{}
	for _, m := range builtin {
		own[m.Package.Path.String()] = true
	}
	var errs PolicyErrors
	for _, m := range user {
		pkg := m.Package.Path.String()
		loc := m.Package.Location
		at := func(format string, args ...any) {
			errs = append(errs, PolicyError{File: loc.File, Line: loc.Row, Column: loc.Col, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case own[pkg] && RuleID(m) != "":
			at("rule %q is a built-in rule: give yours another id", RuleID(m))
		case own[pkg] || strings.HasPrefix(pkg, "data.dslint.lib.") || pkg == "data.dslint.main":
			at("package %s belongs to dslint: put helpers in a package of your own (package dslint.custom.<name>, say)", strings.TrimPrefix(pkg, "data."))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// astErrors turns OPA's parse and compile errors into positioned ones.
func astErrors(err error) PolicyErrors {
	var aerrs ast.Errors
	if !errors.As(err, &aerrs) {
		return PolicyErrors{{Message: err.Error()}}
	}
	out := make(PolicyErrors, 0, len(aerrs))
	for _, e := range aerrs {
		pe := PolicyError{Message: e.Message}
		if e.Details != nil {
			// A type error says what the arguments are and what was wanted.
			for _, l := range e.Details.Lines() {
				pe.Message += "\n\t" + strings.TrimSpace(l)
			}
		}
		if e.Location != nil {
			pe.File, pe.Line, pe.Column = e.Location.File, e.Location.Row, max(e.Location.Col, 1)
		}
		for _, name := range SandboxRemoved {
			if e.Message == "undefined function "+name {
				pe.Message = fmt.Sprintf("%s is not available to policies: dslint runs them without network access (removed built-ins: %s)", name, strings.Join(SandboxRemoved, ", "))
			}
		}
		out = append(out, pe)
	}
	return out
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// policyRules reads the metadata of the user's rules, as RulesOf does for
// the built-in ones; a rule package with no # METADATA block in any of its
// files is an error at its package line.
func policyRules(policies []*ast.Module) ([]finding.Rule, error) {
	var errs PolicyErrors
	described := map[string]bool{}
	var rules []finding.Rule
	for _, m := range policies {
		id := RuleID(m)
		if id == "" || packageAnnotations(m) == nil {
			continue
		}
		r, err := RulesOf([]*ast.Module{m})
		if err != nil {
			loc := m.Package.Location
			errs = append(errs, PolicyError{File: loc.File, Line: loc.Row, Column: loc.Col, Message: strings.TrimPrefix(err.Error(), loc.File+": ")})
			continue
		}
		if described[id] {
			loc := m.Package.Location
			errs = append(errs, PolicyError{File: loc.File, Line: loc.Row, Column: loc.Col, Message: fmt.Sprintf("rule %s already has a # METADATA block in another file", id)})
			continue
		}
		described[id] = true
		for i := range r {
			r[i].Custom = true
		}
		rules = append(rules, r...)
	}
	for _, m := range policies {
		if id := RuleID(m); id != "" && !described[id] {
			loc := m.Package.Location
			errs = append(errs, PolicyError{File: loc.File, Line: loc.Row, Column: loc.Col, Message: fmt.Sprintf("rule %s has no # METADATA block (title, description, custom.severity, custom.remediation) in any of its files", id)})
			described[id] = true
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return rules, nil
}
