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
}

type jsonReport struct {
	Version  int               `json:"version"`
	Findings []jsonFinding     `json:"findings"`
	Skipped  []finding.Skipped `json:"skipped"`
	Summary  finding.Summary   `json:"summary"`
}

func writeJSON(w io.Writer, res *finding.Result) error {
	out := jsonReport{
		Version:  jsonVersion,
		Findings: make([]jsonFinding, 0, len(res.Findings)),
		Skipped:  res.Skipped,
		Summary:  res.Summary,
	}
	if out.Skipped == nil {
		out.Skipped = []finding.Skipped{}
	}
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, jsonFinding{
			Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message,
			File: f.File, Line: f.Line, Column: f.Column,
			Object: f.Object, Path: f.Path, Suppressed: f.Suppressed,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
