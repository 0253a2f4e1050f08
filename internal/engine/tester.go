package engine

import "github.com/open-policy-agent/opa/v1/ast"

// TestCompiler is a compiler for running the Rego unit tests of the users'
// policies with OPA's tester (dslint test): the sandbox of the rules, Rego
// v1, and print() kept, so that a failing test can say what it saw.
func TestCompiler() *ast.Compiler {
	return ast.NewCompiler().
		WithDefaultRegoVersion(ast.RegoV1).
		WithCapabilities(Sandbox()).
		WithEnablePrintStatements(true)
}

// PolicyErrorsOf turns OPA's parse and compile errors of the users' modules
// into positioned PolicyErrors.
func PolicyErrorsOf(err error) PolicyErrors { return astErrors(err) }

// ValidRuleID is true for an id a rule may have: lowercase words of
// letters and digits joined by '-' (dslint new-rule checks it up front).
func ValidRuleID(id string) bool { return ruleID.MatchString(id) }
