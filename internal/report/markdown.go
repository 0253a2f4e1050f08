package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dslint/dslint/internal/finding"
)

// markdownMaxRows caps each table and list of the markdown report, to stay
// within the 1 MiB GitHub takes of a step's summary.
const markdownMaxRows = 500

// writeMarkdown prints the report for $GITHUB_STEP_SUMMARY or a PR comment:
// the summary, a table of the findings, the suppressed ones folded away in a
// <details> block, and the skipped inputs.
func writeMarkdown(w io.Writer, res *finding.Result) error {
	var open, suppressed []finding.Finding
	for _, f := range res.Findings {
		if f.Suppressed {
			suppressed = append(suppressed, f)
		} else {
			open = append(open, f)
		}
	}
	documented := make(map[string]string, len(res.Rules))
	for _, r := range res.Rules {
		documented[r.ID] = r.HelpURI()
	}

	var b strings.Builder
	b.WriteString("## dslint\n\n")
	b.WriteString(summaryLine(res))
	b.WriteString("\n")
	for _, n := range res.Notes {
		b.WriteString("> **Note:** " + mdText(n) + "\n\n")
	}
	if len(open) == 0 {
		b.WriteString("No findings.\n")
	} else {
		markdownFindings(&b, open, documented, false)
	}
	if len(suppressed) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d suppressed</summary>\n\n", len(suppressed))
		markdownFindings(&b, suppressed, documented, true)
		b.WriteString("\n</details>\n")
	}
	if files := skippedFiles(res.Skipped); len(files) > 0 {
		markdownSkipped(&b, files)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownFindings writes a table of fs, with the suppression's kind and
// reason when withSuppression.
func markdownFindings(b *strings.Builder, fs []finding.Finding, documented map[string]string, withSuppression bool) {
	b.WriteString("| Severity | Location | Rule | Message |")
	if withSuppression {
		b.WriteString(" Suppressed by | Reason |")
	}
	b.WriteString("\n|---|---|---|---|")
	if withSuppression {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	shown := min(len(fs), markdownMaxRows)
	for _, f := range fs[:shown] {
		fmt.Fprintf(b, "| %s | %s | %s | %s |", f.Severity, tableCode(location(f)), ruleLink(f.Rule, documented), mdText(f.Message))
		if withSuppression {
			fmt.Fprintf(b, " %s | %s |", orDash(mdText(f.Suppression.Kind)), orDash(mdText(f.Suppression.Reason)))
		}
		b.WriteString("\n")
	}
	leftOut(b, len(fs)-shown, "finding")
}

func markdownSkipped(b *strings.Builder, skipped []finding.Skipped) {
	b.WriteString("\n**Skipped:**\n\n")
	shown := min(len(skipped), markdownMaxRows)
	for _, s := range skipped[:shown] {
		loc := s.File
		if s.Line > 0 {
			loc = fmt.Sprintf("%s:%d", s.File, s.Line)
		}
		fmt.Fprintf(b, "- %s: %s\n", mdCode(loc), mdText(s.Reason))
	}
	leftOut(b, len(skipped)-shown, "skipped input")
}

// leftOut says how many rows a capped table or list does not show.
func leftOut(b *strings.Builder, n int, what string) {
	if n > 0 {
		fmt.Fprintf(b, "\n_%s not shown (GitHub limits a step summary to 1 MiB); `--format json` lists them all._\n", plural(n, what))
	}
}

// location is file:line:col, or as much of it as is known.
func location(f finding.Finding) string {
	loc := f.File
	if f.Line > 0 {
		loc += fmt.Sprintf(":%d", f.Line)
		if f.Column > 0 {
			loc += fmt.Sprintf(":%d", f.Column)
		}
	}
	return loc
}

// ruleLink links a rule to its section of docs/rules.md, as SARIF's helpUri
// does; a rule without metadata has no section to link to.
func ruleLink(id string, documented map[string]string) string {
	if documented[id] == "" {
		return tableCode(id)
	}
	return fmt.Sprintf("[%s](%s)", tableCode(id), documented[id])
}

// mdText escapes s for a table cell or list item: '|' would split the cell
// and a newline end the row, '<' could open an HTML tag and '*', '_', '`',
// '[' and ']' turn quoted values into emphasis, code or links.
func mdText(s string) string {
	return strings.NewReplacer(
		`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
		"&", "&amp;", "<", "&lt;", ">", "&gt;",
		"\r\n", "<br>", "\r", "<br>", "\n", "<br>",
	).Replace(s)
}

// mdCode is s as a code span that no backtick or newline in s can break.
func mdCode(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// tableCode is mdCode for a table cell. GitHub splits a row at every '|' not
// preceded by a backslash, code spans included, and drops that backslash
// before it renders the cell.
func tableCode(s string) string {
	return strings.ReplaceAll(mdCode(s), "|", `\|`)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
