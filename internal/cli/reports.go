package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/report"
)

// extraReport is one --report FORMAT=FILE: a further report of the same run.
type extraReport struct{ format, file string }

// reportFlags are the --report flags, in the order given.
type reportFlags []extraReport

func (r *reportFlags) String() string {
	var s []string
	for _, x := range *r {
		s = append(s, x.format+"="+x.file)
	}
	return strings.Join(s, ",")
}

func (r *reportFlags) Type() string { return "FORMAT=FILE" }

// Set checks one --report value as the flag is parsed, so that a bad one
// is a usage error that quotes it.
func (r *reportFlags) Set(value string) error {
	format, file, ok := strings.Cut(value, "=")
	switch {
	case !ok:
		return fmt.Errorf("want FORMAT=FILE, FORMAT one of %s", quoteList(report.Formats))
	case !oneOf(format, report.Formats):
		return fmt.Errorf("unknown format %q (want %s)", format, quoteList(report.Formats))
	case file == "":
		return fmt.Errorf("no file after %q", format+"=")
	}
	*r = append(*r, extraReport{format, file})
	return nil
}

// checkOutputs refuses two reports to one file (--output or --report): the
// second would overwrite the first.
func checkOutputs(fl lintFlags) error {
	written := map[string]string{}
	claim := func(file, flag string) error {
		abs, err := filepath.Abs(file)
		if err != nil {
			return usagef("%s %q: %v", flag, file, err)
		}
		if before, ok := written[abs]; ok {
			return usagef("%s and %s write the same file %q", before, flag, file)
		}
		written[abs] = flag
		return nil
	}
	if fl.output != "" {
		if err := claim(fl.output, "--output "+fl.output); err != nil {
			return err
		}
	}
	for _, r := range fl.reports {
		if err := claim(r.file, "--report "+r.format+"="+r.file); err != nil {
			return err
		}
	}
	return nil
}

// writeReports prints the main report (writeReport), then each --report
// file. Each file is written only once its report is complete, and never
// in color.
func writeReports(e *env, fl lintFlags, res *finding.Result) error {
	if err := writeReport(e, fl, res); err != nil {
		return err
	}
	opts := report.Options{Quiet: fl.quiet, ShowSuppressed: fl.showSupp}
	for _, r := range fl.reports {
		if err := writeReportFile(r.file, r.format, res, opts); err != nil {
			return err
		}
	}
	return nil
}

// writeReportFile renders a report in full, then writes it to file.
func writeReportFile(file, format string, res *finding.Result, opts report.Options) error {
	var buf bytes.Buffer
	if err := report.Write(&buf, format, res, opts); err != nil {
		return err
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return usagef("write report: %v", err)
	}
	return nil
}
