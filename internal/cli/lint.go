package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/report"
)

var failOnLevels = []string{"error", "warning", "info", "none"}

type lintFlags struct {
	format    string
	output    string
	reports   reportFlags
	failOn    string
	quiet     bool
	parseOnly bool
	showSupp  bool
	configFlags
	fix fixFlags
}

func runLint(e *env, args []string) (int, error) {
	return lintOrFix(e, args, false)
}

// lintOrFix is dslint lint, and, with fixing (or --fix), dslint fix.
func lintOrFix(e *env, args []string, fixing bool) (int, error) {
	var fl lintFlags
	fs := newFlagSet(e, "lint", "dslint [lint] [flags] PATH...   (\"-\" reads stdin; no PATH means \".\")")
	if fixing {
		fs = newFlagSet(e, "fix", "dslint fix [--diff] [--rule ID]... [flags] PATH...   (\"-\" reads stdin and prints it fixed)")
	}
	fl.fix.register(fs, fixing)
	fs.StringVarP(&fl.format, "format", "f", "text", "output format: "+quoteList(report.Formats))
	fs.StringVarP(&fl.output, "output", "o", "", "write the report to `FILE` instead of stdout")
	fs.Var(&fl.reports, "report", "also write a report in FORMAT to FILE, from the same run; repeatable (FORMAT: "+quoteList(report.Formats)+")")
	fs.StringVar(&fl.failOn, "fail-on", "warning", "lowest severity that makes the exit code 1: "+quoteList(failOnLevels))
	fs.BoolVarP(&fl.quiet, "quiet", "q", false, "no summary line")
	fs.BoolVar(&fl.showSupp, "show-suppressed", false, "print suppressed findings too (text format; json, sarif and markdown always carry them)")
	fl.configFlags.register(fs)
	fl.configFlags.registerRules(fs)
	fs.BoolVar(&fl.parseOnly, "parse-only", false, "read and parse the inputs, run no rule (for benchmarks)")
	_ = fs.MarkHidden("parse-only")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	fl.fix.on = fl.fix.on || fixing
	if !oneOf(fl.format, report.Formats) {
		return 0, usagef("unknown --format %q (want %s)", fl.format, quoteList(report.Formats))
	}
	if !oneOf(fl.failOn, failOnLevels) {
		return 0, usagef("unknown --fail-on %q (want %s)", fl.failOn, quoteList(failOnLevels))
	}
	if err := checkOutputs(fl); err != nil {
		return 0, err
	}
	paths, srcs, err := inputs(fs)
	if err != nil {
		return 0, err
	}
	rc, err := loadRunConfig(e, fl.configFlags, paths, fl.failOn, fs.Changed("fail-on"), fl.parseOnly)
	if err != nil {
		return 0, err
	}
	if srcs = rc.exclude(srcs); len(srcs) == 0 {
		// Files named one by one (pre-commit passes the staged ones) that
		// the config excludes are a deliberate choice: nothing to lint.
		if !onlyFiles(paths) {
			return 0, usagef("no manifests left in %v once the config's exclude globs apply", paths)
		}
		if !fl.quiet {
			fmt.Fprintf(e.stderr, "dslint: every file named is excluded by %s: nothing to lint\n", rc.file.File)
		}
	}
	fl.failOn = rc.failOn
	opts, err := rc.options(fl.parseOnly)
	if err != nil {
		return 0, err
	}
	if err := fl.fix.check(opts); err != nil {
		return 0, err
	}
	if fl.fix.on {
		return runFixes(e, fl, srcs, opts)
	}
	e, _, err = e.withStdinBuffered(srcs, fl.wantsReplacements())
	if err != nil {
		return 0, err
	}
	out, problems := lint.Run(context.Background(), srcs, e.stdin, opts)
	if err := inventoryError(problems); err != nil {
		return 0, err
	}
	res := out.Result
	if fl.wantsReplacements() {
		describeFixes(e, res.Findings)
	}
	if note := unusedNodesNote(out); note != "" {
		res.Notes = append(res.Notes, note)
	}
	if err := writeReports(e, fl, res); err != nil {
		return 0, err
	}
	if code := problemsExit(e, problems); code != ExitOK {
		return code, nil
	}
	if fails(res, fl.failOn) {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// onlyFiles is true when every path names a file, not a directory or stdin.
func onlyFiles(paths []string) bool {
	for _, p := range paths {
		if info, err := os.Stat(p); p == manifest.Stdin || err != nil || info.IsDir() {
			return false
		}
	}
	return true
}

// inputs are the manifests the PATH arguments name ("." without any).
func inputs(fs *pflag.FlagSet) ([]string, []manifest.Source, error) {
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	srcs, err := manifest.Discover(paths, discovery(fs))
	if err != nil {
		return nil, nil, usageError{err}
	}
	if len(srcs) == 0 {
		return nil, nil, usagef("no manifests found in %v (looked for *.yaml, *.yml and *.json files)", paths)
	}
	return paths, srcs, nil
}

// writeReport prints the report to stdout or to --output. The file is written
// only once the report is complete.
func writeReport(e *env, fl lintFlags, res *finding.Result) error {
	opts := report.Options{Quiet: fl.quiet, ShowSuppressed: fl.showSupp}
	if fl.output == "" {
		opts.Color = fl.format == "text" && isTerminal(e.stdout) && os.Getenv("NO_COLOR") == ""
		return report.Write(e.stdout, fl.format, res, opts)
	}
	return writeReportFile(fl.output, fl.format, res, opts)
}

// fails is true when an unsuppressed finding is at or above the --fail-on level.
func fails(res *finding.Result, failOn string) bool {
	if failOn == "none" {
		return false
	}
	threshold, _ := finding.ParseSeverity(failOn)
	for _, f := range res.Findings {
		if !f.Suppressed && f.Severity >= threshold {
			return true
		}
	}
	return false
}
