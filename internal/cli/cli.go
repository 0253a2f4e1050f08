// Package cli is dslint's command line: subcommands, flags and exit codes.
// It is the only package that knows about flags; Main returns the exit code
// and only package main exits.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// Exit codes (SPEC §2).
const (
	ExitOK       = 0 // nothing at or above --fail-on
	ExitFindings = 1 // findings at or above --fail-on
	ExitUsage    = 2 // usage or configuration error, unreadable path, no input
	ExitInternal = 3 // a bug
)

// env is what a command runs with: its streams, and the engine built once.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// usageError is an error the user can fix by changing the command line.
type usageError struct{ error }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

type command struct {
	name, summary string
	run           func(e *env, args []string) (int, error)
}

func commands() []command {
	return []command{
		{"lint", "lint files and directories (the default command)", runLint},
		{"fix", "make the fixes of fixable findings in the files (--diff prints them)", runFix},
		{"schedule", "show which nodes each workload's pods can land on (needs --nodes)", runSchedule},
		{"rules", "list the rules", runRules},
		{"explain", "explain one rule: what, why, a bad and a good example, the fix", runExplain},
		{"init", "write a commented starter .dslint.yaml", runInit},
		{"test", "run the Rego tests and fixtures of custom policies", runTest},
		{"new-rule", "write a custom rule to start from, with tests and fixtures", runNewRule},
		{"export-policy", "write the pools with owners as a ValidatingAdmissionPolicy and its binding", runExportPolicy},
		{"version", "print the version", runVersion},
	}
}

// Main runs dslint with args (without the program name) and returns the exit
// code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "dslint: internal error: %v\n%s", p, debug.Stack())
			code = ExitInternal
		}
	}()
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		printUsage(stdout)
		return ExitOK
	}
	cmd := commands()[0]
	if len(args) > 0 {
		if i := slices.IndexFunc(commands(), func(c command) bool { return c.name == args[0] }); i >= 0 {
			cmd, args = commands()[i], args[1:]
		}
	}
	code, err := cmd.run(e, args)
	if err == nil {
		return code
	}
	if errors.Is(err, pflag.ErrHelp) {
		return ExitOK
	}
	fmt.Fprintf(stderr, "dslint: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	return ExitInternal
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `dslint checks that Kubernetes workloads land on the nodes they are meant for:
tolerations, node selectors, node affinity and DaemonSet coverage, with the
Kubernetes scheduler's own semantics.

Usage:
  dslint [lint] [flags] PATH...   lint files and directories ("-" reads stdin)
  dslint schedule --nodes FILE [flags] PATH...
  dslint rules [--format text|json|markdown] [--policy DIR]
  dslint explain [--policy DIR] RULE
  dslint init [DIR]               write a commented starter .dslint.yaml
  dslint test [flags] [DIR...]    run the tests of custom policies
  dslint new-rule [--dir DIR] ID
  dslint export-policy [-c FILE] [-o FILE] [--action Deny|Warn|Audit]
  dslint version

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run "dslint COMMAND --help" for the flags of a command.
Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or input error, 3 internal error.
`)
}

// newFlagSet is a flag set that reports errors to the caller instead of
// exiting, and prints help to stdout.
func newFlagSet(e *env, name, usage string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(e.stdout)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "Usage: %s\n\nFlags:\n%s", usage, fs.FlagUsages())
	}
	fs.SortFlags = false
	return fs
}

// parseFlags parses args and turns flag errors into usage errors.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard) // errors are printed once, by Main
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return err // pflag has printed the usage
	}
	if err != nil {
		return usagef("%s: %v (see dslint %s --help)", fs.Name(), err, fs.Name())
	}
	return nil
}

func runVersion(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "version", "dslint version")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	fmt.Fprintf(e.stdout, "dslint %s\n", version())
	return ExitOK, nil
}

// version is the module version when built with go install pkg@version, or
// the VCS revision when built from a checkout.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel+" + s.Value[:12]
		}
	}
	return "devel"
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func oneOf(value string, allowed []string) bool { return slices.Contains(allowed, value) }

func quoteList(xs []string) string { return strings.Join(xs, "|") }
