package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/dslint/dslint/internal/finding"
)

// fixSample is a result whose findings carry fixes, as dslint lint -f json
// reports them (replacements filled in): an insertion (a toleration
// added), a removal, a replacement, a quoted value, a suppressed finding
// with a fix, a chart's fix that cannot be made in a file, and a finding
// without a fix. The replacements are those dslint reported for files
// with these problems.
func fixSample() *finding.Result {
	ds := finding.Object{APIVersion: "apps/v1", Kind: "DaemonSet", Namespace: "logging", Name: "fluent-bit"}
	job := finding.Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "ml", Name: "train"}
	tolerations := []any{"spec", "template", "spec", "tolerations"}
	at := func(steps ...any) []any { return append(append([]any{}, tolerations...), steps...) }
	controlPlane := map[string]any{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}
	res := &finding.Result{
		Findings: []finding.Finding{
			// deploy/logging.yaml: the list of tolerations ends the file, so
			// the new one is inserted at its end.
			{Rule: "daemonset-missing-control-plane-toleration", Severity: finding.Info,
				Message: `daemonset "fluent-bit" does not tolerate the control-plane taint "node-role.kubernetes.io/control-plane:NoSchedule"`,
				File:    "deploy/logging.yaml", Line: 16, Column: 7, Object: ds, Path: "spec.template.spec.tolerations",
				Fix: &finding.Fix{
					Edits: []finding.Edit{{Op: finding.EditAdd, Path: at("-"), Value: controlPlane}},
					Replacements: []finding.Replacement{{Line: 23, Column: 1, EndLine: 23, EndColumn: 1, Offset: 577, Length: 0,
						Text: "        - key: node-role.kubernetes.io/control-plane\n          operator: Exists\n          effect: NoSchedule\n"}},
					Source: "deploy/logging.yaml", Line: 1, Column: 1, Expect: []string{"[]"},
				}},
			{Rule: "redundant-daemonset-toleration", Severity: finding.Info, Suppressed: true,
				Message: `daemonset "fluent-bit" tolerates "node.kubernetes.io/not-ready:NoExecute", which the DaemonSet controller adds anyway`,
				File:    "deploy/logging.yaml", Line: 20, Column: 11, Object: ds, Path: "spec.template.spec.tolerations[1]",
				Suppression: finding.Suppression{Kind: finding.SuppressedByComment, Reason: "kept for the audit",
					File: "deploy/logging.yaml", Line: 20, Column: 45},
				Fix: &finding.Fix{
					Edits:        []finding.Edit{{Op: finding.EditRemove, Path: at(1)}},
					Replacements: []finding.Replacement{{Line: 20, Column: 1, EndLine: 23, EndColumn: 1, Offset: 412, Length: 165}},
					Source:       "deploy/logging.yaml", Line: 1, Column: 1,
				}},
			{Rule: "wildcard-toleration", Severity: finding.Info,
				Message: `toleration with "operator: Exists" and no key tolerates every taint`,
				File:    "deploy/agent.yaml", Line: 14, Column: 11, Path: "spec.template.spec.tolerations[0]",
				Object: finding.Object{APIVersion: "apps/v1", Kind: "DaemonSet", Namespace: "kube-system", Name: "node-agent"}},
			// jobs/train.yaml
			{Rule: "invalid-toleration", Severity: finding.Error,
				Message: `toleration value "true" must be empty when operator is "Exists"`,
				File:    "jobs/train.yaml", Line: 16, Column: 11, Object: job, Path: "spec.template.spec.tolerations[0].value",
				Fix: &finding.Fix{
					Edits:        []finding.Edit{{Op: finding.EditRemove, Path: at(0, "value")}},
					Replacements: []finding.Replacement{{Line: 16, Column: 1, EndLine: 17, EndColumn: 1, Offset: 260, Length: 24}},
					Source:       "jobs/train.yaml", Line: 1, Column: 1,
				}},
			{Rule: "invalid-toleration", Severity: finding.Error,
				Message: `toleration operator "exists" is not supported: use "Equal" or "Exists" (did you mean "Exists"?)`,
				File:    "jobs/train.yaml", Line: 19, Column: 11, Object: job, Path: "spec.template.spec.tolerations[1].operator",
				Fix: &finding.Fix{
					Edits:        []finding.Edit{{Op: finding.EditReplace, Path: at(1, "operator"), Value: "Exists"}},
					Replacements: []finding.Replacement{{Line: 19, Column: 21, EndLine: 19, EndColumn: 27, Offset: 353, Length: 6, Text: "Exists"}},
					Source:       "jobs/train.yaml", Line: 1, Column: 1,
				}},
			{Rule: "invalid-toleration", Severity: finding.Error,
				Message: `toleration value yes is not a string (YAML reads it as the boolean true); quote it ("yes")`,
				File:    "jobs/train.yaml", Line: 23, Column: 11, Object: job, Path: "spec.template.spec.tolerations[2].value",
				Fix: &finding.Fix{
					Edits:        []finding.Edit{{Op: finding.EditQuote, Path: at(2, "value")}},
					Replacements: []finding.Replacement{{Line: 23, Column: 18, EndLine: 23, EndColumn: 21, Offset: 457, Length: 3, Text: `"yes"`}},
					Source:       "jobs/train.yaml", Line: 1, Column: 1,
				}},
			// A chart's template is not edited: the fix has edits and a
			// note, no replacements.
			{Rule: "invalid-toleration", Severity: finding.Error,
				Message: `toleration value "x" must be empty when operator is "Exists"`,
				File:    "charts/inference/templates/tests/test.yaml", Line: 11, Column: 9,
				Object: finding.Object{APIVersion: "v1", Kind: "Pod", Namespace: "ml", Name: "inference-test"},
				Path:   "spec.tolerations[0].value",
				Chart:  &finding.Chart{Path: "charts/inference"},
				Fix: &finding.Fix{
					Edits:  []finding.Edit{{Op: finding.EditRemove, Path: []any{"spec", "tolerations", 0, "value"}}},
					Reason: "rendered from a Helm chart: make the change in the template or the values",
				}},
		},
		Inputs:  []string{"deploy/agent.yaml", "deploy/logging.yaml", "jobs/train.yaml", "charts/inference/templates/tests/test.yaml"},
		Summary: finding.Summary{Files: 4, Objects: 4, Workloads: 4},
		Rules:   fixRules(),
	}
	res.Count()
	return res
}

func fixRules() []finding.Rule {
	rule := func(id, title string, sev finding.Severity, fixable bool) finding.Rule {
		return finding.Rule{ID: id, Title: title, Description: title + ".", Severity: sev, Remediation: "Fix it.", Fixable: fixable}
	}
	return []finding.Rule{
		rule("daemonset-missing-control-plane-toleration", "DaemonSet skips control-plane nodes", finding.Info, true),
		rule("invalid-toleration", "Toleration the API server rejects", finding.Error, true),
		rule("redundant-daemonset-toleration", "Toleration the DaemonSet controller adds anyway", finding.Info, true),
		rule("wildcard-toleration", "Toleration of every taint", finding.Info, false),
	}
}

// TestFixGolden pins what every format says of findings with fixes: JSON
// and SARIF print them, the others count the fixable ones.
func TestFixGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, format, fixSample(), Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, "fix."+format, b.Bytes())
		})
	}
}

// TestJSONFix: a finding with a fix has its edits, by field path (an
// append names the list), its replacements, and a note when it has none;
// a finding without one has no "fix"; the plumbing fields stay out.
func TestJSONFix(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", fixSample(), Options{}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Findings []map[string]json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		0: `{"edits":[{"op":"add","path":"spec.template.spec.tolerations","value":{"effect":"NoSchedule","key":"node-role.kubernetes.io/control-plane","operator":"Exists"}}],
			"replacements":[{"line":23,"column":1,"endLine":23,"endColumn":1,"offset":577,"length":0,"text":"        - key: node-role.kubernetes.io/control-plane\n          operator: Exists\n          effect: NoSchedule\n"}]}`,
		3: `{"edits":[{"op":"remove","path":"spec.template.spec.tolerations[0].value"}],
			"replacements":[{"line":16,"column":1,"endLine":17,"endColumn":1,"offset":260,"length":24,"text":""}]}`,
		4: `{"edits":[{"op":"replace","path":"spec.template.spec.tolerations[1].operator","value":"Exists"}],
			"replacements":[{"line":19,"column":21,"endLine":19,"endColumn":27,"offset":353,"length":6,"text":"Exists"}]}`,
		5: `{"edits":[{"op":"quote","path":"spec.template.spec.tolerations[2].value"}],
			"replacements":[{"line":23,"column":18,"endLine":23,"endColumn":21,"offset":457,"length":3,"text":"\"yes\""}]}`,
		6: `{"edits":[{"op":"remove","path":"spec.tolerations[0].value"}],
			"note":"rendered from a Helm chart: make the change in the template or the values"}`,
	}
	for i, f := range out.Findings {
		raw, has := f["fix"]
		if fixSample().Findings[i].Fix == nil {
			if has {
				t.Errorf("finding %d has no fix, but the report gives one: %s", i, raw)
			}
			continue
		}
		if !has {
			t.Errorf("finding %d: no fix in the report", i)
			continue
		}
		for _, plumbing := range []string{"source", "expect", "Source", "Expect", "Line"} {
			if bytes.Contains(raw, []byte(`"`+plumbing+`"`)) {
				t.Errorf("finding %d: the fix prints %s: %s", i, plumbing, raw)
			}
		}
		if w, ok := want[i]; ok && !jsonEqual(t, raw, []byte(w)) {
			t.Errorf("finding %d: fix = %s\nwant %s", i, raw, w)
		}
	}
}

// TestSARIFFixes: a result whose fix has replacements offers it, as one
// change to the result's own file; an insertion is an empty region, a
// deletion inserts nothing.
func TestSARIFFixes(t *testing.T) {
	res := fixSample()
	log, _ := writeSARIFLog(t, res)
	results := log.Runs[0].Results
	want := map[int]struct {
		description string
		regions     string // start-end of each replacement
		inserted    []string
	}{
		0: {`add {"effect":"NoSchedule","key":"node-role.kubernetes.io/control-plane","operator":"Exists"} to spec.template.spec.tolerations`,
			"23:1-23:1", []string{"        - key: node-role.kubernetes.io/control-plane\n          operator: Exists\n          effect: NoSchedule\n"}},
		1: {"remove spec.template.spec.tolerations[1]", "20:1-23:1", []string{""}},
		3: {"remove spec.template.spec.tolerations[0].value", "16:1-17:1", []string{""}},
		4: {`set spec.template.spec.tolerations[1].operator to "Exists"`, "19:21-19:27", []string{"Exists"}},
		5: {"quote spec.template.spec.tolerations[2].value", "23:18-23:21", []string{`"yes"`}},
	}
	for i, r := range results {
		w, ok := want[i]
		if !ok {
			if len(r.Fixes) != 0 {
				t.Errorf("result %d (%s): %d fixes, want none: no replacements to offer", i, res.Findings[i].Path, len(r.Fixes))
			}
			continue
		}
		if len(r.Fixes) != 1 || len(r.Fixes[0].ArtifactChanges) != 1 {
			t.Fatalf("result %d: want one fix with one artifact change", i)
		}
		fx := r.Fixes[0]
		if fx.Description == nil || sarifStr(fx.Description.Text) != w.description {
			t.Errorf("result %d: description = %q, want %q", i, sarifStr(fx.Description.Text), w.description)
		}
		change := fx.ArtifactChanges[0]
		loc := r.Locations[0].PhysicalLocation.ArtifactLocation
		if sarifStr(change.ArtifactLocation.URI) != sarifStr(loc.URI) || sarifStr(change.ArtifactLocation.URIBaseID) != "%SRCROOT%" {
			t.Errorf("result %d: the change is to %s %s, want the result's %s", i,
				sarifStr(change.ArtifactLocation.URI), sarifStr(change.ArtifactLocation.URIBaseID), sarifStr(loc.URI))
		}
		var regions []string
		var inserted []string
		for _, rep := range change.Replacements {
			regions = append(regions, sarifRegion(rep.DeletedRegion))
			text := ""
			if rep.InsertedContent != nil {
				text = sarifStr(rep.InsertedContent.Text)
				if text == "" {
					t.Errorf("result %d: inserted content without text", i)
				}
			}
			inserted = append(inserted, text)
		}
		if got := strings.Join(regions, " "); got != w.regions {
			t.Errorf("result %d: regions %s, want %s", i, got, w.regions)
		}
		if strings.Join(inserted, "|") != strings.Join(w.inserted, "|") {
			t.Errorf("result %d: inserted %q, want %q", i, inserted, w.inserted)
		}
	}
}

func sarifRegion(r *sarif.Region) string {
	if r == nil || r.StartLine == nil || r.StartColumn == nil || r.EndLine == nil || r.EndColumn == nil {
		return "<incomplete>"
	}
	return fmt.Sprintf("%d:%d-%d:%d", *r.StartLine, *r.StartColumn, *r.EndLine, *r.EndColumn)
}

// TestFixableCount: the summary counts the fixes dslint fix makes: not a
// suppressed finding's, nor one that cannot be made in a file.
func TestFixableCount(t *testing.T) {
	res := fixSample()
	want := "4 files, 4 objects, 4 workloads checked: 4 errors, 0 warnings, 2 info (1 suppressed); 4 fixable (dslint fix --diff shows the edits)\n"
	if got := summaryLine(res); got != want {
		t.Errorf("summary = %q\nwant %q", got, want)
	}
	if got := summaryLine(sample()); strings.Contains(got, "fixable") {
		t.Errorf("summary of findings without fixes = %q", got)
	}
}

// TestDescribeEdits: a fix of several edits is described edit by edit.
func TestDescribeEdits(t *testing.T) {
	got := DescribeEdits([]finding.Edit{
		{Op: finding.EditRemove, Path: []any{"spec", "tolerations", 0, "tolerationSeconds"}},
		{Op: finding.EditReplace, Path: []any{"spec", "tolerations", 0, "effect"}, Value: "NoExecute"},
		{Op: finding.EditAdd, Path: []any{"spec", "tolerations", "-"}, Value: map[string]any{"operator": "Exists"}},
		{Op: finding.EditQuote, Path: []any{"spec", "nodeSelector", "gpu"}},
	})
	want := `remove spec.tolerations[0].tolerationSeconds; set spec.tolerations[0].effect to "NoExecute"; add {"operator":"Exists"} to spec.tolerations; quote spec.nodeSelector.gpu`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCatalogueFixable: dslint rules --format json marks the rules with a
// fix, and only those.
func TestCatalogueFixable(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCatalogue(&buf, "json", fixRules()); err != nil {
		t.Fatal(err)
	}
	var rules []struct {
		ID      string `json:"id"`
		Fixable *bool  `json:"fixable"`
	}
	if err := json.Unmarshal(buf.Bytes(), &rules); err != nil {
		t.Fatal(err)
	}
	for i, r := range rules {
		fixable := r.Fixable != nil && *r.Fixable
		if fixable != fixRules()[i].Fixable || r.Fixable != nil && !*r.Fixable {
			t.Errorf("%s: fixable = %v, want %v, and absent when false", r.ID, r.Fixable, fixRules()[i].Fixable)
		}
	}
}
