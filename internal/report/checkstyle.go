package report

import (
	"encoding/xml"
	"io"

	"github.com/dslint/dslint/internal/finding"
)

// checkstyleReport is a Checkstyle XML report, the shape Jenkins
// warnings-ng and reviewdog read: a <file> per file with findings, in the
// order of its first finding, and an <error> per finding.
type checkstyleReport struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// writeCheckstyle prints the unsuppressed findings as Checkstyle XML.
// dslint's severities are Checkstyle's own (error, warning, info); the source
// names the rule as dslint.<rule id>.
func writeCheckstyle(w io.Writer, res *finding.Result) error {
	report := checkstyleReport{Version: "4.3"}
	at := map[string]int{}
	for _, f := range res.Findings {
		if f.Suppressed {
			continue
		}
		i, seen := at[f.File]
		if !seen {
			i = len(report.Files)
			at[f.File] = i
			report.Files = append(report.Files, checkstyleFile{Name: f.File})
		}
		report.Files[i].Errors = append(report.Files[i].Errors, checkstyleError{
			Line: f.Line, Column: f.Column, Severity: f.Severity.String(),
			Message: f.Message, Source: "dslint." + f.Rule,
		})
	}
	return writeXML(w, report)
}

// writeXML prints v as an indented XML document with its header, ending in
// a newline (the XML formats: checkstyle, junit).
func writeXML(w io.Writer, v any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
