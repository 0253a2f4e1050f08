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
