// Package report prints a lint result in one of the output formats. Each
// format lives in its own file and is pinned by golden files in testdata/.
package report

import (
	"fmt"
	"io"

	"github.com/dslint/dslint/internal/finding"
)

// Formats lists the formats Write accepts, in the order the CLI shows them.
var Formats = []string{"text", "json", "sarif", "github", "markdown", "junit", "gitlab", "checkstyle"}

// Options change how a report looks, not what it says.
type Options struct {
	Color          bool // ANSI colors (text only)
	ShowSuppressed bool // print suppressed findings (text only)
	Quiet          bool // no summary line (text and github)
}

// Write prints res in the named format.
func Write(w io.Writer, format string, res *finding.Result, opts Options) error {
	switch format {
	case "text":
		return writeText(w, res, opts)
	case "json":
		return writeJSON(w, res)
	case "sarif":
		return writeSARIF(w, res)
	case "github":
		return writeGitHub(w, res, opts)
	case "markdown":
		return writeMarkdown(w, res)
	case "junit":
		return writeJUnit(w, res)
	case "gitlab":
		return writeGitLab(w, res)
	case "checkstyle":
		return writeCheckstyle(w, res)
	}
	return fmt.Errorf("unknown format %q", format)
}
