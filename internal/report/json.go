package report

import (
	"encoding/json"
	"io"

	"github.com/dslint/dslint/internal/finding"
)

// jsonVersion is bumped only on an incompatible change of the JSON shape.
const jsonVersion = 1

type jsonFinding struct {
	Rule       string         `json:"rule"`
	Severity   string         `json:"severity"`
	Message    string         `json:"message"`
	File       string         `json:"file"`
	Line       int            `json:"line"`
	Column     int            `json:"column"`
	Object     finding.Object `json:"object"`
	Path       string         `json:"path"`
	Suppressed bool           `json:"suppressed"`
	// Suppression is present only on suppressed findings.
	Suppression *jsonSuppression `json:"suppression,omitempty"`
	// Approximate is present, true, when line and column are not the
	// field's own (a Helm template where the field came from a value).
	Approximate bool `json:"approximate,omitempty"`
	// Chart is present on findings in a rendered Helm chart.
	Chart *finding.Chart `json:"chart,omitempty"`
	// Value is present on an approximate finding whose field came from a
	// chart value: the value, and where the values files set it.
	Value *finding.Value `json:"value,omitempty"`
	// Fix is present on a finding whose rule declares its repair.
	Fix *jsonFix `json:"fix,omitempty"`
}

// jsonFix is a finding's repair: the edits to the object, by field path,
// and the same edits as text of the file, or a note saying why there are
// none.
type jsonFix struct {
	Edits        []jsonEdit        `json:"edits"`
	Replacements []jsonReplacement `json:"replacements,omitempty"`
	Note         string            `json:"note,omitempty"`
}

// jsonEdit is one edit: op is remove, replace, add (an item appended to
// the list at path) or quote; value is what replace writes and add adds.
type jsonEdit struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// jsonReplacement replaces the bytes [offset, offset+length) of the file,
// from line:column to endLine:endColumn (end exclusive, columns in
// characters), with text; length 0 is an insertion, text "" a deletion.
type jsonReplacement struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Offset    int    `json:"offset"`
	Length    int    `json:"length"`
	Text      string `json:"text"`
}

// jsonSuppression says how a finding was suppressed and where.
type jsonSuppression struct {
	Kind   string `json:"kind"`   // "annotation" or "comment"
	Reason string `json:"reason"` // empty when the user gave none
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type jsonReport struct {
	Version  int               `json:"version"`
	Findings []jsonFinding     `json:"findings"`
	Skipped  []finding.Skipped `json:"skipped"`
	Summary  finding.Summary   `json:"summary"`
	// Notes are remarks about the run as a whole; [] for none.
	Notes []string `json:"notes"`
}

func writeJSON(w io.Writer, res *finding.Result) error {
	out := jsonReport{
		Version:  jsonVersion,
		Findings: make([]jsonFinding, 0, len(res.Findings)),
		Skipped:  res.Skipped,
		Summary:  res.Summary,
		Notes:    res.Notes,
	}
	if out.Skipped == nil {
		out.Skipped = []finding.Skipped{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	for _, f := range res.Findings {
		jf := jsonFinding{
			Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message,
			File: f.File, Line: f.Line, Column: f.Column,
			Object: f.Object, Path: f.Path, Suppressed: f.Suppressed,
			Approximate: f.Approximate, Chart: f.Chart, Value: f.Value,
			Fix: jsonFixOf(f.Fix),
		}
		if f.Suppressed {
			s := f.Suppression
			jf.Suppression = &jsonSuppression{Kind: s.Kind, Reason: s.Reason, File: s.File, Line: s.Line, Column: s.Column}
		}
		out.Findings = append(out.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func jsonFixOf(fx *finding.Fix) *jsonFix {
	if fx == nil {
		return nil
	}
	out := &jsonFix{Edits: make([]jsonEdit, 0, len(fx.Edits)), Note: fx.Reason}
	for _, e := range fx.Edits {
		out.Edits = append(out.Edits, jsonEdit{Op: e.Op, Path: editPath(e), Value: e.Value})
	}
	for _, r := range fx.Replacements {
		out.Replacements = append(out.Replacements, jsonReplacement(r))
	}
	return out
}
