package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/dslint/dslint/internal/finding"
)

// gitlabIssue is one entry of a GitLab Code Quality report (the
// codequality artifact of a job, shown in merge requests on every tier).
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// writeGitLab prints the unsuppressed findings as a GitLab Code Quality
// report: a JSON array, [] when there are none. A fingerprint names what
// the finding is about, not where it is (rule, file, object and field
// path, and the how-many-th such finding): it stays the same across runs
// while lines move, so GitLab tells new findings from old ones.
func writeGitLab(w io.Writer, res *finding.Result) error {
	issues := []gitlabIssue{}
	seen := map[string]int{}
	for _, f := range res.Findings {
		if f.Suppressed {
			continue
		}
		parts := []string{f.Rule, f.File, f.Object.APIVersion, f.Object.Kind, f.Object.Namespace, f.Object.Name, f.Path}
		if f.Chart != nil && f.Chart.Values != "" {
			parts = append(parts, f.Chart.Values) // one chart, linted with several value sets
		}
		identity := strings.Join(parts, "\x00")
		n := seen[identity]
		seen[identity] = n + 1
		sum := sha256.Sum256([]byte(identity + "\x00" + strconv.Itoa(n)))
		issues = append(issues, gitlabIssue{
			Description: f.Message,
			CheckName:   f.Rule,
			Fingerprint: hex.EncodeToString(sum[:16]),
			Severity:    gitlabSeverity(f.Severity),
			Location:    gitlabLocation{Path: f.File, Lines: gitlabLines{Begin: max(f.Line, 1)}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}

// gitlabSeverity maps dslint's severities onto GitLab's five: an error is
// critical (the API server rejects it, or pods stay Pending), a warning
// major, an info item info.
func gitlabSeverity(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "critical"
	case finding.Warning:
		return "major"
	}
	return "info"
}
