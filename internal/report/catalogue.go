package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/dslint/dslint/internal/finding"
)

// CatalogueFormats are the formats of `dslint rules`.
var CatalogueFormats = []string{"text", "json", "markdown"}

// WriteCatalogue prints the rule list. The markdown form is docs/rules.md.
func WriteCatalogue(w io.Writer, format string, rules []finding.Rule) error {
	switch format {
	case "text":
		return catalogueText(w, rules)
	case "json":
		return catalogueJSON(w, rules)
	case "markdown":
		return catalogueMarkdown(w, rules)
	}
	return fmt.Errorf("unknown format %q", format)
}

func catalogueText(w io.Writer, rules []finding.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tFIX\tTITLE")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, fixMark(r, "yes", "-"), r.Title)
	}
	fmt.Fprintln(tw, "\nRun \"dslint explain RULE\" for the details of one rule; \"dslint fix\" makes the fixes of the rules marked yes.")
	return tw.Flush()
}

type jsonRule struct {
	finding.Rule
	Severity string `json:"severity"`
	HelpURI  string `json:"helpUri"`
}

func catalogueJSON(w io.Writer, rules []finding.Rule) error {
	out := make([]jsonRule, 0, len(rules))
	for _, r := range rules {
		out = append(out, jsonRule{Rule: r, Severity: r.Severity.String(), HelpURI: r.HelpURI()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func catalogueMarkdown(w io.Writer, rules []finding.Rule) error {
	var b strings.Builder
	b.WriteString("# Rules\n\n<!-- Generated from the rules' metadata by `make docs`; do not edit. -->\n\n")
	b.WriteString(CatalogueTable(rules, ""))
	for _, r := range rules {
		b.WriteString("\n")
		b.WriteString(ruleMarkdown(r, "##"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CatalogueTable is the markdown table of rules, each linked to its section
// of docs/rules.md through doc ("" within docs/rules.md itself). The README
// carries the same table.
func CatalogueTable(rules []finding.Rule, doc string) string {
	var b strings.Builder
	b.WriteString("| Rule | Severity | `dslint fix` | What it finds |\n|---|---|---|---|\n")
	for _, r := range rules {
		fmt.Fprintf(&b, "| [`%s`](%s#%s) | %s | %s | %s |\n", r.ID, doc, r.ID, r.Severity, fixMark(r, "yes", ""), r.Title)
	}
	return b.String()
}

// ruleMarkdown documents one rule; SARIF help and docs/rules.md share it.
func ruleMarkdown(r finding.Rule, heading string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n\n**%s** · severity `%s`%s\n\n%s\n", heading, r.ID, r.Title, r.Severity, fixMark(r, " · fixable by `dslint fix`", ""), r.Description)
	if r.Intent != "" {
		fmt.Fprintf(&b, "\n**When it fires, and when it stays quiet:** %s\n", oneLine(r.Intent))
	}
	if r.Config != "" {
		fmt.Fprintf(&b, "\nWith this `.dslint.yaml`:\n\n```yaml\n%s```\n", r.Config)
	}
	if r.Bad != "" {
		fmt.Fprintf(&b, "\nFails:\n\n```yaml\n%s```\n", r.Bad)
	}
	if r.Good != "" {
		fmt.Fprintf(&b, "\nPasses:\n\n```yaml\n%s```\n", r.Good)
	}
	fmt.Fprintf(&b, "\n**Fix:** %s\n", oneLine(r.Remediation))
	if len(r.Related) > 0 {
		b.WriteString("\nSee also:\n\n")
		for _, l := range r.Related {
			fmt.Fprintf(&b, "- [%s](%s)\n", linkText(l), l.URL)
		}
	}
	return b.String()
}

// Explain prints one rule for a terminal.
func Explain(w io.Writer, r finding.Rule) error {
	_, err := io.WriteString(w, ruleText(r))
	return err
}

// ruleText documents one rule as plain text; dslint explain and the SARIF
// help text share it.
func ruleText(r finding.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s%s)\n%s\n\n%s\n", r.ID, r.Severity, fixMark(r, ", fixable by dslint fix", ""), r.Title, r.Description)
	if r.Intent != "" {
		fmt.Fprintf(&b, "\nWhen it fires, and when it stays quiet:\n%s", indent(r.Intent+"\n"))
	}
	if r.Config != "" {
		fmt.Fprintf(&b, "\nWith this .dslint.yaml:\n\n%s", indent(r.Config))
	}
	if r.Bad != "" {
		fmt.Fprintf(&b, "\nFails:\n\n%s", indent(r.Bad))
	}
	if r.Good != "" {
		fmt.Fprintf(&b, "\nPasses:\n\n%s", indent(r.Good))
	}
	fmt.Fprintf(&b, "\nFix:\n%s\n", indent(r.Remediation+"\n"))
	for _, l := range r.Related {
		fmt.Fprintf(&b, "See: %s (%s)\n", l.URL, linkText(l))
	}
	return b.String()
}

// fixMark is yes for a rule whose findings dslint fix repairs, else no.
func fixMark(r finding.Rule, yes, no string) string {
	if r.Fixable {
		return yes
	}
	return no
}

func linkText(l finding.Link) string {
	if l.Description != "" {
		return l.Description
	}
	return l.URL
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			b.WriteString("    ")
		}
		b.WriteString(l)
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// The README's rule table sits between these markers.
const (
	tableStart = "<!-- rules:start -->\n"
	tableEnd   = "<!-- rules:end -->"
)

// ReplaceRuleTable puts table between the rule-table markers of doc.
func ReplaceRuleTable(doc []byte, table string) ([]byte, error) {
	s := string(doc)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		return nil, fmt.Errorf("no %q ... %q block", strings.TrimSpace(tableStart), tableEnd)
	}
	return []byte(s[:i+len(tableStart)] + table + s[j:]), nil
}
