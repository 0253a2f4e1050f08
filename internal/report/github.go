package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/dslint/dslint/internal/finding"
)

// writeGitHub prints one GitHub Actions workflow command per unsuppressed
// finding, which the runner turns into an annotation on the file and line,
// a notice per skipped input and per note, then the summary as a plain log
// line. Suppressed findings are left out: an annotation cannot say that it
// is suppressed.
func writeGitHub(w io.Writer, res *finding.Result, opts Options) error {
	var b strings.Builder
	for _, f := range res.Findings {
		if f.Suppressed {
			continue
		}
		b.WriteString(workflowCommand(githubCommand(f.Severity), []githubProperty{
			{"file", f.File}, {"line", positive(f.Line)}, {"col", positive(f.Column)}, {"title", f.Rule},
		}, f.Message))
	}
	for _, s := range skippedFiles(res.Skipped) {
		b.WriteString(workflowCommand("notice", []githubProperty{
			{"file", s.File}, {"line", positive(s.Line)},
		}, "skipped: "+s.Reason))
	}
	for _, n := range res.Notes {
		b.WriteString(workflowCommand("notice", []githubProperty{{"title", "dslint"}}, n))
	}
	if !opts.Quiet {
		b.WriteString(summaryLine(res))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// githubCommand is the annotation command for a severity.
func githubCommand(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "notice"
}

type githubProperty struct{ key, value string }

// workflowCommand is "::command key=value,...::data" and a newline. Empty
// values are left out, as GitHub's toolkit does.
func workflowCommand(command string, props []githubProperty, data string) string {
	var set []string
	for _, p := range props {
		if p.value != "" {
			set = append(set, p.key+"="+escapeProperty(p.value))
		}
	}
	line := "::" + command
	if len(set) > 0 {
		line += " " + strings.Join(set, ",")
	}
	return line + "::" + escapeData(data) + "\n"
}

// escapeData escapes a command's data the way GitHub's toolkit does, so that
// a newline cannot end the command early or start a new one.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value: as data, and also the ':' and ','
// that would end the value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// positive formats n, or returns "" for an unknown (zero) line or column.
func positive(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}
