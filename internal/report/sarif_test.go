package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/dslint/dslint/internal/finding"
)

// writeSARIFLog runs the sarif format on res and parses the output back with
// go-sarif's own types.
func writeSARIFLog(t *testing.T, res *finding.Result) (*sarif.Report, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "sarif", res, Options{}); err != nil {
		t.Fatal(err)
	}
	log, err := sarif.FromBytes(buf.Bytes())
	if err != nil {
		t.Fatalf("output is not SARIF: %v\n%s", err, buf.Bytes())
	}
	if len(log.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(log.Runs))
	}
	return log, buf.Bytes()
}

func sarifStr(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestSARIFStructure(t *testing.T) {
	res := sample()
	log, out := writeSARIFLog(t, res)
	run := log.Runs[0]

	if log.Version != "2.1.0" {
		t.Errorf("version = %q, want 2.1.0", log.Version)
	}
	if !bytes.HasSuffix(out, []byte("}\n")) {
		t.Error("output does not end with a newline")
	}
	for _, unset := range []string{`"index": -1`, `"parentIndex": -1`} {
		if bytes.Contains(out, []byte(unset)) {
			t.Errorf("output contains %s", unset)
		}
	}
	_, again := writeSARIFLog(t, sample())
	if !bytes.Equal(out, again) {
		t.Error("two runs on the same result differ")
	}

	d := run.Tool.Driver
	if sarifStr(d.Name) != "dslint" || sarifStr(d.InformationURI) != "https://github.com/dslint/dslint" || sarifStr(d.Version) != sarifToolVersion {
		t.Errorf("driver = %s %s %s", sarifStr(d.Name), sarifStr(d.InformationURI), sarifStr(d.Version))
	}

	// One descriptor per rule, sorted by id.
	wantRules := []struct{ id, name, level, ghSeverity string }{
		{"daemonset-missing-control-plane-toleration", "DaemonsetMissingControlPlaneToleration", "warning", "warning"},
		{"invalid-toleration", "InvalidToleration", "error", "error"},
		{"toleration-without-node-selector", "TolerationWithoutNodeSelector", "warning", "warning"},
		{"wildcard-toleration", "WildcardToleration", "warning", "warning"},
	}
	if len(d.Rules) != len(wantRules) {
		t.Fatalf("got %d rules, want %d", len(d.Rules), len(wantRules))
	}
	for i, w := range wantRules {
		r := d.Rules[i]
		if sarifStr(r.ID) != w.id || sarifStr(r.Name) != w.name {
			t.Errorf("rule %d = %s (%s), want %s (%s)", i, sarifStr(r.ID), sarifStr(r.Name), w.id, w.name)
		}
		if r.DefaultConfiguration == nil || r.DefaultConfiguration.Level != w.level {
			t.Errorf("rule %s: default level is not %s", w.id, w.level)
		}
		if r.ShortDescription == nil || r.FullDescription == nil || r.Help == nil || r.Help.Text == nil || r.Help.Markdown == nil {
			t.Errorf("rule %s: missing a description or help", w.id)
		}
		if sarifStr(r.HelpURI) != "https://github.com/dslint/dslint/blob/main/docs/rules.md#"+w.id {
			t.Errorf("rule %s: helpUri = %s", w.id, sarifStr(r.HelpURI))
		}
		if r.Properties == nil {
			t.Fatalf("rule %s: no properties", w.id)
		}
		p := r.Properties
		if got := strings.Join(p.Tags, ","); got != "kubernetes,scheduling" {
			t.Errorf("rule %s: tags = %s", w.id, got)
		}
		if p.Properties["precision"] != "very-high" || p.Properties["problem.severity"] != w.ghSeverity {
			t.Errorf("rule %s: properties = %v", w.id, p.Properties)
		}
	}
	md := sarifStr(d.Rules[0].Help.Markdown)
	for _, want := range []string{
		"A DaemonSet without a node constraint",
		"**Fix:** Tolerate node-role.kubernetes.io/control-plane:NoSchedule.",
		"- [DaemonSet](https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("help markdown lacks %q:\n%s", want, md)
		}
	}

	// One result per finding, suppressed ones included, in order.
	if len(run.Results) != len(res.Findings) {
		t.Fatalf("got %d results, want %d", len(run.Results), len(res.Findings))
	}
	for i, r := range run.Results {
		f := res.Findings[i]
		if sarifStr(r.RuleID) != f.Rule {
			t.Errorf("result %d: ruleId = %s, want %s", i, sarifStr(r.RuleID), f.Rule)
		}
		if r.RuleIndex < 0 || r.RuleIndex >= len(d.Rules) || sarifStr(d.Rules[r.RuleIndex].ID) != f.Rule {
			t.Errorf("result %d: ruleIndex %d does not point at %s", i, r.RuleIndex, f.Rule)
		}
		if r.Level != sarifLevel(f.Severity) {
			t.Errorf("result %d: level = %s, want %s", i, r.Level, sarifLevel(f.Severity))
		}
		if r.Message == nil || sarifStr(r.Message.Text) != f.Message {
			t.Errorf("result %d: wrong message", i)
		}
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation == nil {
			t.Fatalf("result %d: want one physical location", i)
		}
		pl := r.Locations[0].PhysicalLocation
		if sarifStr(pl.ArtifactLocation.URI) != f.File || sarifStr(pl.ArtifactLocation.URIBaseID) != "%SRCROOT%" {
			t.Errorf("result %d: artifact = %s %s", i, sarifStr(pl.ArtifactLocation.URI), sarifStr(pl.ArtifactLocation.URIBaseID))
		}
		if pl.Region == nil || pl.Region.StartLine == nil || *pl.Region.StartLine != f.Line ||
			pl.Region.StartColumn == nil || *pl.Region.StartColumn != f.Column {
			t.Errorf("result %d: region is not %d:%d", i, f.Line, f.Column)
		}
		ll := r.Locations[0].LogicalLocations
		wantFQN := f.Object.Kind + "/" + f.Object.Namespace + "/" + f.Object.Name
		if len(ll) != 1 || sarifStr(ll[0].Name) != f.Object.Name || sarifStr(ll[0].Kind) != "resource" || sarifStr(ll[0].FullyQualifiedName) != wantFQN {
			t.Errorf("result %d: wrong logical location", i)
		}
		if r.Properties == nil || r.Properties.Properties["path"] != f.Path {
			t.Errorf("result %d: properties lack path %s", i, f.Path)
		}
		if len(r.PartialFingerprints[sarifFingerprintKey]) != 64 {
			t.Errorf("result %d: no %s fingerprint", i, sarifFingerprintKey)
		}
		if !f.Suppressed {
			if len(r.Suppressions) != 0 {
				t.Errorf("result %d: unsuppressed finding has suppressions", i)
			}
			continue
		}
		if len(r.Suppressions) != 1 {
			t.Fatalf("result %d: suppressed finding has %d suppressions, want 1", i, len(r.Suppressions))
		}
		s := r.Suppressions[0]
		if sarifStr(s.Kind) != "inSource" || sarifStr(s.Status) != "accepted" || sarifStr(s.Justification) != f.Suppression.Reason {
			t.Errorf("result %d: suppression = %s %s %s", i, sarifStr(s.Kind), sarifStr(s.Status), sarifStr(s.Justification))
		}
	}
}

// TestSARIFSuppression checks both kinds of suppression: the user's reason
// as the justification, a fallback without one, and the suppression's place.
func TestSARIFSuppression(t *testing.T) {
	for _, c := range []struct {
		name          string
		s             finding.Suppression
		justification string
		location      string // file:line:col, "" for none
	}{
		{"comment", finding.Suppression{Kind: finding.SuppressedByComment, Reason: "needed on every node",
			File: "a.yaml", Line: 7, Column: 20}, "needed on every node", "a.yaml:7:20"},
		{"annotation without reason", finding.Suppression{Kind: finding.SuppressedByAnnotation,
			File: "a.yaml", Line: 5, Column: 5}, "suppressed in source", "a.yaml:5:5"},
		{"unknown place", finding.Suppression{Kind: finding.SuppressedByAnnotation, Reason: "r"}, "r", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := finding.Finding{Rule: "invalid-toleration", Severity: finding.Error, Message: "m",
				File: "a.yaml", Line: 9, Column: 3, Suppressed: true, Suppression: c.s}
			sups := sarifResult(f, 0).Suppressions
			if len(sups) != 1 {
				t.Fatalf("got %d suppressions, want 1", len(sups))
			}
			s := sups[0]
			// An annotation is written in the analyzed manifest just as a
			// comment is: both are "inSource" (SARIF 2.1.0 §3.35.2).
			if sarifStr(s.Kind) != "inSource" || sarifStr(s.Status) != "accepted" || sarifStr(s.Justification) != c.justification {
				t.Errorf("suppression = %s %s %q", sarifStr(s.Kind), sarifStr(s.Status), sarifStr(s.Justification))
			}
			got := ""
			if s.Location != nil && s.Location.PhysicalLocation != nil {
				pl := s.Location.PhysicalLocation
				got = sarifStr(pl.ArtifactLocation.URI)
				if r := pl.Region; r != nil && r.StartLine != nil && r.StartColumn != nil {
					got += fmt.Sprintf(":%d:%d", *r.StartLine, *r.StartColumn)
				}
			}
			if got != c.location {
				t.Errorf("suppression location = %q, want %q", got, c.location)
			}
		})
	}
}

func TestSARIFFingerprint(t *testing.T) {
	base := sample().Findings[2]
	fingerprint := func(f finding.Finding) string {
		t.Helper()
		log, _ := writeSARIFLog(t, &finding.Result{Findings: []finding.Finding{f}, Rules: sampleRules()})
		return log.Runs[0].Results[0].PartialFingerprints[sarifFingerprintKey]
	}
	want := fingerprint(base)

	moved := base
	moved.Line += 7
	moved.Column = 1
	moved.Message = "reworded"
	if got := fingerprint(moved); got != want {
		t.Errorf("fingerprint changed when only the position and message changed: %s != %s", got, want)
	}
	for name, change := range map[string]func(*finding.Finding){
		"field path": func(f *finding.Finding) { f.Path = "spec.template.spec.tolerations[1].value" },
		"file":       func(f *finding.Finding) { f.File = "jobs/other.yaml" },
		"rule":       func(f *finding.Finding) { f.Rule = "wildcard-toleration" },
		"object":     func(f *finding.Finding) { f.Object.Name = "eval" },
		"namespace":  func(f *finding.Finding) { f.Object.Namespace = "" },
	} {
		f := base
		change(&f)
		if fingerprint(f) == want {
			t.Errorf("fingerprint did not change with the %s", name)
		}
	}
}

// TestSARIFEdgeCases covers input the sample does not: rules missing from
// res.Rules, a duplicate rule, a cluster-scoped object, file names that need
// escaping, and unknown positions and objects.
func TestSARIFEdgeCases(t *testing.T) {
	log, _ := writeSARIFLog(t, sarifEdgeCases())
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	var ids []string
	for _, r := range rules {
		ids = append(ids, sarifStr(r.ID))
	}
	if got, want := strings.Join(ids, " "), "aaa-unknown-rule invalid-toleration zzz-unknown-rule"; got != want {
		t.Errorf("rule ids = %s, want %s", got, want)
	}
	if r := rules[0]; sarifStr(r.Name) != "AaaUnknownRule" || r.ShortDescription == nil || r.FullDescription == nil ||
		r.Help == nil || r.HelpURI != nil || r.DefaultConfiguration != nil {
		t.Errorf("an unknown rule should have a minimal descriptor that GitHub accepts")
	}
	for i, r := range run.Results {
		if sarifStr(rules[r.RuleIndex].ID) != sarifStr(r.RuleID) {
			t.Errorf("result %d: ruleIndex %d does not point at %s", i, r.RuleIndex, sarifStr(r.RuleID))
		}
	}
	uri := func(i int) string {
		pl := run.Results[i].Locations[0].PhysicalLocation
		if pl == nil {
			return "<none>"
		}
		return sarifStr(pl.ArtifactLocation.URI) + " " + sarifStr(pl.ArtifactLocation.URIBaseID)
	}
	for i, want := range []string{
		"cluster/node%20pool%231.yaml %SRCROOT%",
		"%3Cstdin%3E %SRCROOT%",
		"file:///abs/path.yaml <nil>",
		"<none>",
	} {
		if got := uri(i); got != want {
			t.Errorf("result %d: artifact = %s, want %s", i, got, want)
		}
	}
	ll := run.Results[0].Locations[0].LogicalLocations
	if len(ll) != 1 || sarifStr(ll[0].FullyQualifiedName) != "ClusterRole/node-admin" {
		t.Errorf("cluster-scoped object: wrong logical location")
	}
	if r := sarifResult(finding.Finding{File: "a.yaml"}, 0).Locations[0].PhysicalLocation.Region; r != nil {
		t.Errorf("a finding without a line should have no region")
	}
	if r := sarifResult(finding.Finding{File: "a.yaml", Line: 2}, 0).Locations[0].PhysicalLocation.Region; r == nil || r.StartColumn != nil {
		t.Errorf("a finding without a column should have a region without startColumn")
	}
	if n := len(run.Results[3].Locations[0].LogicalLocations); n != 0 {
		t.Errorf("a finding without an object should have no logical location, got %d", n)
	}
}

func sarifEdgeCases() *finding.Result {
	return &finding.Result{
		Findings: []finding.Finding{
			{Rule: "zzz-unknown-rule", Severity: finding.Warning, Message: "m1",
				File: "cluster/node pool#1.yaml", Line: 3, Column: 1,
				Object: finding.Object{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "node-admin"}},
			{Rule: "invalid-toleration", Severity: finding.Error, Message: "m2", File: "<stdin>", Line: 1,
				Object: finding.Object{Kind: "Pod", Namespace: "default", Name: "p"}, Path: "spec.tolerations[0]"},
			{Rule: "aaa-unknown-rule", Severity: finding.Info, Message: "m3", File: "/abs/path.yaml", Line: 2, Column: 3,
				Object: finding.Object{Kind: "Pod", Name: "q"}},
			{Rule: "zzz-unknown-rule", Severity: finding.Warning, Message: "m4"},
		},
		Rules: []finding.Rule{sampleRules()[1], sampleRules()[1]}, // a duplicate, too
	}
}

func TestOmitUnsetIndexes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"index":-1}`, `{}`},
		{`{"a":1,"index":-1}`, `{"a":1}`},
		{`{"index":-1,"a":1}`, `{"a":1}`},
		{`{"index":-1,"parentIndex":-1,"a":1}`, `{"a":1}`},
		{`{"index":-1,"parentIndex":-1}`, `{}`},
		{`{"a":1,"index":-1,"parentIndex":-1}`, `{"a":1}`},
		{`{"index":-1,"a":1,"parentIndex":-1,"b":2}`, `{"a":1,"b":2}`},
		{`{"index":0,"parentIndex":3}`, `{"index":0,"parentIndex":3}`},
		{`{"index":{"index":-1},"x":[{"parentIndex":-1,"y":"index"}]}`, `{"index":{},"x":[{"y":"index"}]}`},
		{`{"rank":-1,"id":-1,"s":"\"index\":-1","a":[-1,"index",-1]}`, `{"rank":-1,"id":-1,"s":"\"index\":-1","a":[-1,"index",-1]}`},
		{`[{"index":-1.0},{"index":-10}]`, `[{"index":-1.0},{"index":-10}]`},
	} {
		got, err := omitUnsetIndexes([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !jsonEqual(t, got, []byte(c.want)) {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	if _, err := omitUnsetIndexes([]byte(`{"index":`)); err == nil {
		t.Error("want an error for truncated JSON")
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// TestSARIFMultitool validates the SARIF output with Microsoft's SARIF
// Multitool, GitHub code scanning rules included. The validator exits 0
// whatever it finds, so the test reads its findings from the SARIF log it
// writes with -o.
func TestSARIFMultitool(t *testing.T) {
	bin := os.Getenv("DSLINT_SARIF_MULTITOOL")
	if bin == "" {
		t.Skip("set DSLINT_SARIF_MULTITOOL to the sarif-multitool binary to validate SARIF (see .ci/run)")
	}
	for name, res := range map[string]*finding.Result{
		"sample":     sample(),
		"edge-cases": sarifEdgeCases(),
		"fixes":      fixSample(),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, name+".sarif")
			var buf bytes.Buffer
			if err := Write(&buf, "sarif", res, Options{}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			validate(t, bin, file)
		})
	}
	// Reports of real runs, written by .ci/run with dslint -f sarif.
	for _, file := range filepath.SplitList(os.Getenv("DSLINT_SARIF_FILES")) {
		t.Run(filepath.Base(file), func(t *testing.T) { validate(t, bin, file) })
	}
}

func validate(t *testing.T, bin, file string) {
	t.Helper()
	errs, warns := runMultitool(t, bin, file)
	for _, w := range warns {
		t.Logf("validator warning: %s", w)
	}
	for _, e := range errs {
		t.Errorf("validator error: %s", e)
	}
}

// runMultitool validates file and returns the errors and warnings the
// validator reports.
func runMultitool(t *testing.T, bin, file string) (errs, warns []string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "validation.sarif")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "validate", "--rule-kind", "Gh;Sarif", "--output", out, file)
	console, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, console)
	}
	log, err := sarif.Open(out)
	if err != nil {
		t.Fatalf("reading the validator's log: %v\n%s", err, console)
	}
	for _, run := range log.Runs {
		for _, inv := range run.Invocations {
			if inv.ExecutionSuccessful != nil && !*inv.ExecutionSuccessful {
				errs = append(errs, "the validator did not run successfully")
			}
			for _, n := range append(inv.ToolConfigurationNotifications, inv.ToolExecutionNotifications...) {
				if n.Level == "error" && n.Message != nil {
					errs = append(errs, "validator notification: "+sarifStr(n.Message.Text))
				}
			}
		}
		for _, r := range run.Results {
			line := multitoolMessage(run, r)
			// A result without a level takes its rule's default, and
			// without that, "warning" (SARIF §3.27.10).
			switch level := multitoolLevel(run, r); level {
			case "error":
				errs = append(errs, line)
			case "warning":
				warns = append(warns, line)
			}
		}
	}
	if len(errs) > 0 {
		t.Logf("validator console output:\n%s", console)
	}
	return errs, warns
}

func multitoolRule(run *sarif.Run, r *sarif.Result) *sarif.ReportingDescriptor {
	if run.Tool == nil || run.Tool.Driver == nil {
		return nil
	}
	for _, d := range run.Tool.Driver.Rules {
		if sarifStr(d.ID) == sarifStr(r.RuleID) {
			return d
		}
	}
	return nil
}

func multitoolLevel(run *sarif.Run, r *sarif.Result) string {
	if r.Level != "" {
		return r.Level
	}
	if d := multitoolRule(run, r); d != nil && d.DefaultConfiguration != nil && d.DefaultConfiguration.Level != "" {
		return d.DefaultConfiguration.Level
	}
	return "warning"
}

// multitoolMessage renders a validator result as "RULE: message", filling the
// rule's message string with the result's arguments.
func multitoolMessage(run *sarif.Run, r *sarif.Result) string {
	if r.Message == nil {
		return sarifStr(r.RuleID)
	}
	text := sarifStr(r.Message.Text)
	if r.Message.Text == nil {
		if d := multitoolRule(run, r); d != nil && r.Message.ID != nil {
			if m, ok := d.MessageStrings[*r.Message.ID]; ok && m.Text != nil {
				text = *m.Text
			}
		}
		for i, a := range r.Message.Arguments {
			text = strings.ReplaceAll(text, fmt.Sprintf("{%d}", i), a)
		}
	}
	return sarifStr(r.RuleID) + ": " + text
}
