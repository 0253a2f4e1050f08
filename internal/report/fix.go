package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// editPath is an edit's field path as findings print theirs; an append
// names the list.
func editPath(e finding.Edit) string { return manifest.FormatPath(e.Target()) }

// DescribeEdits says a fix's edits in words, for a viewer offering it and
// for dslint fix naming what it cannot make: "remove
// spec.tolerations[0].value; set spec.tolerations[1].operator to
// \"Exists\"".
func DescribeEdits(edits []finding.Edit) string {
	words := make([]string, 0, len(edits))
	for _, e := range edits {
		words = append(words, describeEdit(e))
	}
	return strings.Join(words, "; ")
}

func describeEdit(e finding.Edit) string {
	path := editPath(e)
	switch e.Op {
	case finding.EditReplace:
		return fmt.Sprintf("set %s to %s", path, compactJSON(e.Value))
	case finding.EditAdd:
		return fmt.Sprintf("add %s to %s", compactJSON(e.Value), path)
	case finding.EditQuote:
		return "quote " + path
	}
	return "remove " + path
}

// compactJSON is v on one line, as JSON: {"key":"a","operator":"Exists"}.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// fixable counts the unsuppressed findings with a fix that dslint fix
// makes. A fix that cannot be made where the object is written (a chart's,
// a generated object's) has a Reason, and does not count.
func fixable(fs []finding.Finding) int {
	n := 0
	for _, f := range fs {
		if !f.Suppressed && f.Fix != nil && f.Fix.Reason == "" {
			n++
		}
	}
	return n
}
