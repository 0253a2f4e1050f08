package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dslint/dslint/internal/finding"
)

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

// writeText prints one line a finding, in the file:line:col form editors and
// terminals turn into links, then a summary line.
func writeText(w io.Writer, res *finding.Result, opts Options) error {
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return code + s + ansiReset
	}
	var b strings.Builder
	for _, f := range res.Findings {
		if f.Suppressed && !opts.ShowSuppressed {
			continue
		}
		sev := paint(severityColor(f.Severity), f.Severity.String())
		if f.Suppressed {
			sev += " (suppressed" + suppressedBy(f.Suppression) + ")"
		}
		note := chartNote(f)
		if note != "" {
			note = paint(ansiDim, note)
		}
		fmt.Fprintf(&b, "%s: %s: %s %s%s\n",
			paint(ansiBold, fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)),
			sev, f.Message, paint(ansiDim, "["+f.Rule+"]"), note)
	}
	for _, s := range skippedFiles(res.Skipped) {
		loc := s.File
		if s.Line > 0 {
			loc = fmt.Sprintf("%s:%d", s.File, s.Line)
		}
		fmt.Fprintf(&b, "%s: skipped: %s\n", loc, s.Reason)
	}
	if !opts.Quiet {
		writeNotes(&b, res.Notes)
		b.WriteString(summaryLine(res))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// chartNote says, after a finding of a Helm chart, which value set and
// hook it is from and whether its line is the field's own: " (values
// prod, hook test, approximate position)"; "" when there is nothing to say.
func chartNote(f finding.Finding) string {
	var parts []string
	if c := f.Chart; c != nil {
		if c.Values != "" {
			parts = append(parts, "values "+c.Values)
		}
		if c.Hook != "" {
			parts = append(parts, "hook "+c.Hook)
		}
	}
	if f.Approximate {
		parts = append(parts, "approximate position")
	}
	if v := f.Value; v != nil {
		from := "from " + v.Ref
		if v.File != "" {
			from += fmt.Sprintf(", set at %s:%d:%d", v.File, v.Line, v.Column)
		}
		parts = append(parts, from)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// writeNotes prints the notes about the run, one "note:" line each.
func writeNotes(b *strings.Builder, notes []string) {
	for _, n := range notes {
		b.WriteString("note: " + n + "\n")
	}
}

// suppressedBy says how and why a finding was suppressed, for the text format.
func suppressedBy(s finding.Suppression) string {
	if s.Kind == "" {
		return ""
	}
	by := " by " + s.Kind
	if s.Reason != "" {
		by += ": " + strconv.Quote(s.Reason)
	}
	return by
}

func severityColor(s finding.Severity) string {
	switch s {
	case finding.Error:
		return ansiRed
	case finding.Warning:
		return ansiYellow
	}
	return ansiCyan
}

// summaryLine counts what the run checked, skipped and found, and what
// of it dslint fix can repair.
func summaryLine(res *finding.Result) string {
	s := res.Summary
	parts := []string{
		plural(s.Files, "file"), plural(s.Objects, "object"), plural(s.Workloads, "workload"),
	}
	line := strings.Join(parts, ", ") + " checked"
	if s.Nodes > 0 {
		line += fmt.Sprintf(" against %s in %s", plural(s.Nodes, "node"), plural(s.Pools, "pool"))
	}
	if skipped := skippedSummary(res.Skipped); skipped != "" {
		line += " (" + skipped + ")"
	}
	found := fmt.Sprintf("%s, %s, %s", plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Infos, "info"))
	if s.Suppressed > 0 {
		found += fmt.Sprintf(" (%d suppressed)", s.Suppressed)
	}
	if n := fixable(res.Findings); n > 0 {
		found += fmt.Sprintf("; %d fixable (dslint fix --diff shows the edits)", n)
	}
	return line + ": " + found + "\n"
}

// skippedSummary counts the documents skipped by reason, then the files
// skipped whole: "12 documents skipped: 9 not Kubernetes objects, 3
// workload fragments; 1 file skipped: helm template syntax". "" for none.
func skippedSummary(skipped []finding.Skipped) string {
	count := map[finding.SkipKind]int{}
	for _, s := range skipped {
		count[s.Kind]++
	}
	var parts []string
	notObjects, fragments := count[finding.SkippedNotObject], count[finding.SkippedFragment]
	if docs := notObjects + fragments; docs > 0 {
		why := []string{}
		if notObjects > 0 {
			why = append(why, counted(notObjects, docs, "not a Kubernetes object", "not Kubernetes objects"))
		}
		if fragments > 0 {
			why = append(why, counted(fragments, docs, "a workload fragment", "workload fragments"))
		}
		parts = append(parts, plural(docs, "document")+" skipped: "+strings.Join(why, ", "))
	}
	templates := count[finding.SkippedTemplate]
	if files := len(skipped) - notObjects - fragments; files > 0 {
		part := plural(files, "file") + " skipped"
		if templates == files {
			part += ": helm template syntax"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// counted is "n <many>" for one reason among several; when it is the only
// reason (n == total), the count is already said: "<one>" or "<many>".
func counted(n, total int, one, many string) string {
	switch {
	case n == total && n == 1:
		return one
	case n == total:
		return many
	case n == 1:
		return "1 " + strings.TrimPrefix(strings.TrimPrefix(one, "a "), "an ")
	}
	return fmt.Sprintf("%d %s", n, many)
}

// skippedFiles are the files skipped whole, which the formats that print a
// line per finding list with their reason; skipped documents are only
// counted there (--format json lists every one).
func skippedFiles(skipped []finding.Skipped) []finding.Skipped {
	var files []finding.Skipped
	for _, s := range skipped {
		if !s.IsDocument() {
			files = append(files, s)
		}
	}
	return files
}

func plural(n int, word string) string {
	if n == 1 || word == "info" {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
