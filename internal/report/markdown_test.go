package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
)

func writeMarkdownString(t *testing.T, res *finding.Result) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "markdown", res, Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// tableRows returns the lines of out that are table rows, header and
// delimiter rows included.
func tableRows(out string) []string {
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	return rows
}

// cellSeparators counts the pipes GitHub splits a row at: those not
// preceded by a backslash.
func cellSeparators(row string) int {
	n := 0
	for i := range len(row) {
		if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
			n++
		}
	}
	return n
}

func TestMarkdownSuppressedInDetails(t *testing.T) {
	out := writeMarkdownString(t, sample())
	before, details, ok := strings.Cut(out, "<details><summary>1 suppressed</summary>")
	if !ok {
		t.Fatalf("no details block for the suppressed finding:\n%s", out)
	}
	details, after, ok := strings.Cut(details, "</details>")
	if !ok {
		t.Fatalf("details block not closed:\n%s", out)
	}
	const suppressed = "toleration-without-node-selector"
	if strings.Contains(before, suppressed) || strings.Contains(after, suppressed) {
		t.Errorf("suppressed finding outside the details block:\n%s", out)
	}
	for _, want := range []string{
		"| Severity | Location | Rule | Message | Suppressed by | Reason |",
		"| warning | `jobs/train.yaml:13:11` | [`toleration-without-node-selector`](https://github.com/dslint/dslint/blob/main/docs/rules.md#toleration-without-node-selector) | tolerates the dedicated taint \"gpu\" but has no node constraint | comment | the scheduler extender places training jobs |",
	} {
		if !strings.Contains(details, want+"\n") {
			t.Errorf("details block lacks %q:\n%s", want, details)
		}
	}
	for _, want := range []string{
		"## dslint\n\n3 files, 4 objects, 2 workloads checked (3 documents skipped: 2 not Kubernetes objects, 1 workload fragment; 1 file skipped: helm template syntax): 1 error, 1 warning, 1 info (1 suppressed)\n",
		"| error | `jobs/train.yaml:12:20` | [`invalid-toleration`](https://github.com/dslint/dslint/blob/main/docs/rules.md#invalid-toleration) |",
	} {
		if !strings.Contains(before, want) {
			t.Errorf("findings table lacks %q:\n%s", want, before)
		}
	}
	if !strings.Contains(after, "- `chart/templates/ds.yaml`: helm template syntax") {
		t.Errorf("skipped input not listed after the tables:\n%s", after)
	}
	if strings.Contains(after, "not a Kubernetes object") || strings.Contains(after, "fragment") {
		t.Errorf("skipped documents listed, not only counted:\n%s", after)
	}
}

func TestMarkdownEscaping(t *testing.T) {
	res := &finding.Result{
		Findings: []finding.Finding{
			{Rule: "no-metadata", Severity: finding.Error, File: "a|b.yaml", Line: 1, Column: 2,
				Message: "value \"x|y\" is wrong\nsecond line\r\nthird | <b>*not bold*</b> `code` [link](u) a\\|b"},
			{Rule: "invalid-toleration", Severity: finding.Warning, File: "odd`name``.yaml", Line: 3, Column: 4,
				Message: "m", Suppressed: true,
				Suppression: finding.Suppression{Kind: finding.SuppressedByAnnotation, Reason: "a | b\nc"}},
			{Rule: "invalid-toleration", Severity: finding.Info, File: "c.yaml", Line: 5, Message: "n",
				Suppressed: true, Suppression: finding.Suppression{Kind: finding.SuppressedByComment}},
		},
		Rules: sampleRules(),
	}
	res.Count()
	out := writeMarkdownString(t, res)
	rows := tableRows(out)
	if len(rows) != 7 {
		t.Fatalf("got %d table rows, want 7 (a row broke apart?):\n%s", len(rows), out)
	}
	for i, r := range rows {
		want := 5
		if i >= 3 {
			want = 7
		}
		if n := cellSeparators(r); n != want {
			t.Errorf("row %q has %d cell separators, want %d", r, n, want)
		}
	}
	for _, want := range []string{
		"| error | `a\\|b.yaml:1:2` | `no-metadata` | " +
			"value \"x\\|y\" is wrong<br>second line<br>third \\| &lt;b&gt;\\*not bold\\*&lt;/b&gt; \\`code\\` \\[link\\](u) a\\\\\\|b |",
		"| warning | ```odd`name``.yaml:3:4``` |",
		"| annotation | a \\| b<br>c |",
		"| info | `c.yaml:5` | [`invalid-toleration`](https://github.com/dslint/dslint/blob/main/docs/rules.md#invalid-toleration) | n | comment | — |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := mdCode("`x`"); got != "`` `x` ``" {
		t.Errorf("mdCode(`x`) = %s", got)
	}
}

func TestMarkdownNoFindings(t *testing.T) {
	res := &finding.Result{Summary: finding.Summary{Files: 1, Objects: 2, Workloads: 1}}
	want := "## dslint\n\n1 file, 2 objects, 1 workload checked: 0 errors, 0 warnings, 0 info\n\nNo findings.\n"
	if got := writeMarkdownString(t, res); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}

	only := sample()
	only.Findings = only.Findings[3:] // the suppressed one
	only.Skipped = nil
	only.Count()
	out := writeMarkdownString(t, only)
	if !strings.Contains(out, "\nNo findings.\n\n<details><summary>1 suppressed</summary>") {
		t.Errorf("with only suppressed findings, want \"No findings.\" then the details block:\n%s", out)
	}
}

func TestMarkdownRowCap(t *testing.T) {
	const n = markdownMaxRows + 2
	res := &finding.Result{}
	for i := range n {
		res.Findings = append(res.Findings, finding.Finding{Rule: "r", Severity: finding.Warning,
			File: "a.yaml", Line: i + 1, Column: 1, Message: fmt.Sprintf("finding %d", i+1)})
	}
	for i := range n + 1 {
		res.Findings = append(res.Findings, finding.Finding{Rule: "r", Severity: finding.Warning,
			File: "b.yaml", Line: i + 1, Column: 1, Message: "s", Suppressed: true})
	}
	for i := range n + 3 {
		res.Skipped = append(res.Skipped, finding.Skipped{File: fmt.Sprintf("t%d.yaml", i), Reason: "template"})
	}
	res.Count()
	out := writeMarkdownString(t, res)

	main, details, _ := strings.Cut(out, "<details>")
	if got := len(tableRows(main)) - 2; got != markdownMaxRows {
		t.Errorf("findings table has %d rows, want %d", got, markdownMaxRows)
	}
	if !strings.Contains(main, fmt.Sprintf("| finding %d |", markdownMaxRows)) || strings.Contains(main, fmt.Sprintf("| finding %d |", markdownMaxRows+1)) {
		t.Errorf("the table should show the first %d findings in order", markdownMaxRows)
	}
	if !strings.Contains(main, "\n_2 findings not shown (GitHub limits a step summary to 1 MiB); `--format json` lists them all._\n") {
		t.Errorf("no line saying 2 findings were left out:\n%s", main[len(main)-300:])
	}
	details, skipped, _ := strings.Cut(details, "</details>")
	if got := len(tableRows(details)) - 2; got != markdownMaxRows {
		t.Errorf("suppressed table has %d rows, want %d", got, markdownMaxRows)
	}
	if !strings.Contains(details, fmt.Sprintf("<summary>%d suppressed</summary>", n+1)) || !strings.Contains(details, "_3 findings not shown ") {
		t.Errorf("details block should count every suppressed finding and say 3 were left out")
	}
	if got := strings.Count(skipped, "\n- `t"); got != markdownMaxRows {
		t.Errorf("skipped list has %d items, want %d", got, markdownMaxRows)
	}
	if !strings.Contains(skipped, "_5 skipped inputs not shown ") {
		t.Errorf("no line saying 5 skipped inputs were left out")
	}
	if len(out) > 1<<20 {
		t.Errorf("report is %d bytes, more than GitHub's 1 MiB step summary", len(out))
	}
}
