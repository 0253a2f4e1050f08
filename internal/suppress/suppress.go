// Package suppress applies the suppressions users write in their manifests:
// `ignore.dslint.io/<rule-id>: "<reason>"` annotations on an object and
// `# dslint:ignore <rule-id> <reason>` comments, at the end of a finding's
// line (that line only) or alone on the line above it. It runs after the
// findings have their positions and before they are reported, and it
// reports the suppressions that are themselves wrong: without a reason,
// naming no rule or an unknown one, or unused.
package suppress

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/suggest"
)

// Rules about suppressions. Like parse-error they are raised by Go, not by
// Rego, and their metadata lives in rules/<id>.rego.
const (
	MissingReason = "suppression-without-reason"
	Unused        = "unused-suppression"
)

// All is the rule id that stands for every rule.
const All = "all"

// AnnotationPrefix starts the annotation keys that suppress findings.
const AnnotationPrefix = "ignore.dslint.io/"

// Directive is one suppression the user wrote.
type Directive struct {
	Kind   string   // finding.SuppressedByAnnotation or finding.SuppressedByComment
	Rules  []string // rule ids, or All
	Reason string
	File   string
	Line   int // of the annotation key or of the comment's "#"
	Column int
	// Object is the annotated object; for a comment, the object the
	// comment is in, when it is inside one.
	Object finding.Object
	Path   string // the annotation's field path; empty for a comment
	Text   string // how messages name it: annotation "…" or comment "…"
	// Alone marks a comment with nothing before it on its line: it is about
	// the line below. A comment after code is about its own line only.
	Alone bool
	used  bool
}

// Catalogue tells which rules exist, which of them ran, and the severity of
// the rules about suppressions.
type Catalogue struct {
	Known []string          // every rule id, the disabled ones included
	Ran   func(string) bool // false for a rule that was disabled or could not fire
	// Severity is the severity of a rule's findings; asked only of
	// MissingReason and Unused, which report nothing when they did not run
	// (turned off).
	Severity func(string) finding.Severity
}

// ran is true when the rule id ran; every rule did when Ran is not set.
func (c Catalogue) ran(id string) bool { return c.Ran == nil || c.Ran(id) }

// Apply marks the findings the directives suppress, in place, and returns
// the findings about the directives themselves. A comment wins over an
// annotation: it is the more precise of the two. Findings about
// suppressions cannot be suppressed.
func Apply(findings []finding.Finding, ds []Directive, cat Catalogue) []finding.Finding {
	if len(ds) == 0 {
		return nil
	}
	type lineKey struct {
		file string
		line int
	}
	type objectKey struct {
		file string
		obj  finding.Object
	}
	byLine := map[lineKey][]int{}
	byObject := map[objectKey][]int{}
	for i, d := range ds {
		if d.Kind == finding.SuppressedByComment {
			k := lineKey{d.File, d.covers()}
			byLine[k] = append(byLine[k], i)
		} else {
			k := objectKey{d.File, d.Object}
			byObject[k] = append(byObject[k], i)
		}
	}
	for fi := range findings {
		f := &findings[fi]
		if f.Rule == MissingReason || f.Rule == Unused {
			continue
		}
		candidates := slices.Concat(byLine[lineKey{f.File, f.Line}], byObject[objectKey{f.File, f.Object}])
		for _, di := range candidates {
			d := &ds[di]
			if !slices.Contains(d.Rules, f.Rule) && !slices.Contains(d.Rules, All) {
				continue
			}
			d.used = true
			f.Suppressed = true
			f.Suppression = finding.Suppression{Kind: d.Kind, Reason: d.Reason, File: d.File, Line: d.Line, Column: d.Column}
			break
		}
	}
	var out []finding.Finding
	for _, d := range ds {
		out = append(out, d.problems(cat)...)
	}
	return out
}

// problems are the findings about one directive, of the rules about
// suppressions that are on.
func (d *Directive) problems(cat Catalogue) []finding.Finding {
	var out []finding.Finding
	add := func(rule, format string, args ...any) {
		if !cat.ran(rule) {
			return
		}
		out = append(out, finding.Finding{
			Rule: rule, Severity: cat.Severity(rule), Message: fmt.Sprintf(format, args...),
			File: d.File, Line: d.Line, Column: d.Column, Object: d.Object, Path: d.Path,
		})
	}
	if len(d.Rules) == 0 {
		add(Unused, "%s names no rule: write the rule id, then the reason (dslint:ignore <rule-id> <reason>)", d.Text)
		return out
	}
	if d.Reason == "" {
		add(MissingReason, "%s gives no reason: say why the finding is acceptable, so the next reader can judge it", d.Text)
	}
	for _, id := range d.Rules {
		if id == All || slices.Contains(cat.Known, id) {
			continue
		}
		msg := fmt.Sprintf("%s names rule %q, which does not exist, so it suppresses nothing", d.Text, id)
		if s := suggest.Closest(id, cat.Known); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		add(Unused, "%s", msg)
		return out
	}
	if d.used || !d.ran(cat) {
		return out
	}
	what := "the object"
	switch {
	case d.Kind != finding.SuppressedByComment:
	case d.Alone:
		what = "the next line"
	default:
		what = "its line"
	}
	add(Unused, "%s suppresses nothing: %s has no %s finding; remove it", d.Text, what, d.ruleNames())
	return out
}

// covers is the line whose findings a comment suppresses.
func (d *Directive) covers() int {
	if d.Alone {
		return d.Line + 1
	}
	return d.Line
}

// ran is true when every rule the directive names ran, so that its being
// unused means something.
func (d *Directive) ran(cat Catalogue) bool {
	for _, id := range d.Rules {
		if id != All && !cat.ran(id) {
			return false
		}
	}
	return true
}

func (d *Directive) ruleNames() string {
	if slices.Contains(d.Rules, All) {
		return "dslint"
	}
	return strings.Join(d.Rules, " or ")
}

// commentPattern reads "# dslint:ignore rule-a,rule-b the reason".
var commentPattern = regexp.MustCompile(`^#\s*dslint:ignore(?:\s+(\S+))?(?:\s+(.*?))?\s*$`)

// parseComment reads a comment that starts with "#"; ok is false when it is
// not a dslint:ignore directive.
func parseComment(text string) (rules []string, reason string, ok bool) {
	m := commentPattern.FindStringSubmatch(text)
	if m == nil {
		return nil, "", false
	}
	if m[1] != "" {
		rules = strings.Split(strings.Trim(m[1], ","), ",")
		rules = slices.DeleteFunc(rules, func(s string) bool { return s == "" })
	}
	return rules, m[2], true
}
