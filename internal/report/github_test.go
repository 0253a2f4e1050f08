package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
)

func writeGitHubLines(t *testing.T, res *finding.Result, opts Options) []string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "github", res, opts); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline:\n%s", out)
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

func TestGitHubCommands(t *testing.T) {
	lines := writeGitHubLines(t, sample(), Options{})
	want := []string{
		`::warning file=deploy/logging.yaml,line=9,col=5,title=daemonset-missing-control-plane-toleration::daemonset "fluent-bit" does not tolerate "node-role.kubernetes.io/control-plane:NoSchedule": it will not run on control-plane nodes`,
		`::notice file=deploy/logging.yaml,line=14,col=11,title=wildcard-toleration::toleration with "operator: Exists" and no key tolerates every taint`,
		`::error file=jobs/train.yaml,line=12,col=20,title=invalid-toleration::toleration value "true" must be empty when operator is "Exists"`,
		`::notice file=chart/templates/ds.yaml::skipped: helm template syntax (render it first: helm template … | dslint -)`,
		`::notice title=dslint::2 Node objects among the inputs (test/nodes.yaml) are not used as the node inventory; to check placement against them, name their file with --nodes (or nodes: in .dslint.yaml)`,
		`3 files, 4 objects, 2 workloads checked (3 documents skipped: 2 not Kubernetes objects, 1 workload fragment; 1 file skipped: helm template syntax): 1 error, 1 warning, 1 info (1 suppressed)`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range lines {
		if strings.Contains(l, "toleration-without-node-selector") || strings.Contains(l, `dedicated taint "gpu"`) {
			t.Errorf("suppressed finding printed: %s", l)
		}
	}

	quiet := writeGitHubLines(t, sample(), Options{Quiet: true})
	if len(quiet) != len(want)-1 || strings.HasPrefix(quiet[len(quiet)-1], "3 files") {
		t.Errorf("quiet output should lack only the summary line:\n%s", strings.Join(quiet, "\n"))
	}
}

// TestGitHubEscaping checks that what the runner reads back is what dslint
// meant, however many separators and newlines the values hold.
func TestGitHubEscaping(t *testing.T) {
	f := finding.Finding{
		Rule: "a:b,c", Severity: finding.Error,
		Message: "100% of \"k:v,w\"::x\r\n::error file=evil::injected",
		File:    "dir/50%,a:b\nc.yaml", Line: 3, Column: 7,
	}
	lines := writeGitHubLines(t, &finding.Result{Findings: []finding.Finding{f}}, Options{Quiet: true})
	wantLine := `::error file=dir/50%25%2Ca%3Ab%0Ac.yaml,line=3,col=7,title=a%3Ab%2Cc::100%25 of "k:v,w"::x%0D%0A::error file=evil::injected`
	if len(lines) != 1 || lines[0] != wantLine {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), wantLine)
	}
	cmd, props, data := parseWorkflowCommand(t, lines[0])
	if cmd != "error" || props["file"] != f.File || props["line"] != "3" || props["col"] != "7" || props["title"] != f.Rule {
		t.Errorf("runner reads %s %q", cmd, props)
	}
	if data != f.Message {
		t.Errorf("runner reads message %q, want %q", data, f.Message)
	}

	for in, want := range map[string]string{
		"%":          "%25",
		"%0A":        "%250A",
		"a\rb\nc":    "a%0Db%0Ac",
		"k:v,w":      "k%3Av%2Cw",
		"plain/path": "plain/path",
	} {
		if got := escapeProperty(in); got != want {
			t.Errorf("escapeProperty(%q) = %q, want %q", in, got, want)
		}
	}
	if got := escapeData("k:v,w 5%\n"); got != "k:v,w 5%25%0A" {
		t.Errorf("escapeData leaves ':' and ',' alone and escapes '%%' and newlines; got %q", got)
	}
}

func TestGitHubUnknownPosition(t *testing.T) {
	res := &finding.Result{
		Findings: []finding.Finding{{Rule: "r", Severity: finding.Warning, Message: "m"}},
		Skipped:  []finding.Skipped{{File: "a.yaml", Line: 4, Reason: "not YAML"}},
	}
	lines := writeGitHubLines(t, res, Options{Quiet: true})
	want := "::warning title=r::m\n::notice file=a.yaml,line=4::skipped: not YAML"
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// parseWorkflowCommand reads a line the way the Actions runner does: the
// command ends at the first "::" after the leading one, properties are
// comma-separated key=value pairs, and escapes are undone last.
func parseWorkflowCommand(t *testing.T, line string) (cmd string, props map[string]string, data string) {
	t.Helper()
	rest, ok := strings.CutPrefix(line, "::")
	if !ok {
		t.Fatalf("not a workflow command: %s", line)
	}
	info, data, ok := strings.Cut(rest, "::")
	if !ok {
		t.Fatalf("no end of command: %s", line)
	}
	cmd, list, _ := strings.Cut(info, " ")
	props = map[string]string{}
	for _, p := range strings.Split(list, ",") {
		k, v, _ := strings.Cut(p, "=")
		props[k] = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(v)
	}
	return cmd, props, strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(data)
}
