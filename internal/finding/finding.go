// Package finding holds the result model shared by the engine, the CLI and
// every report format: findings, rule metadata and the run summary.
package finding

import (
	"cmp"
	"fmt"
	"slices"
)

// Severity of a finding. The zero value is not a valid severity.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "none"
}

// Object identifies the Kubernetes object a finding is about.
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// Finding is one problem at one position.
type Finding struct {
	Rule       string
	Severity   Severity
	Message    string
	File       string // as the user named it, slash-separated
	Line       int    // 1-based
	Column     int    // 1-based
	Object     Object
	Path       string // field path, e.g. spec.template.spec.tolerations[1].operator
	Suppressed bool
	// Suppression says how the finding was suppressed; zero unless Suppressed.
	Suppression Suppression
	// Approximate marks a position that is not the field's own line: in a
	// Helm template where the field came from a value or an include, the
	// nearest parent written in the template, or the document's start.
	Approximate bool
	// Chart names the Helm chart render the finding is in; nil outside
	// charts.
	Chart *Chart
	// Value is the Helm value an approximate finding's field came from,
	// and where it is set; nil when not known.
	Value *Value
	// Fix is the finding's repair, for the rules that declare one; nil
	// for the others.
	Fix *Fix
}

// Value is a Helm chart value and where it is set.
type Value struct {
	Ref    string `json:"ref"` // .Values.tolerations
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// Chart is the Helm chart render a finding is in.
type Chart struct {
	Path string `json:"path"` // the chart directory, as reports name it
	// Values names the value set of the config's charts: entry the chart
	// was rendered with; empty for the command line's values.
	Values string `json:"values,omitempty"`
	// Hook lists the Helm hook events of the object, comma-separated
	// ("test", "pre-install,pre-upgrade"); empty for a release manifest.
	Hook string `json:"hook,omitempty"`
}

// Suppression is the user's decision to silence a finding: an
// ignore.dslint.io annotation of the object or a "# dslint:ignore" comment.
type Suppression struct {
	Kind   string // SuppressedByAnnotation or SuppressedByComment
	Reason string // the reason the user wrote; empty when none was given
	File   string // where the suppression is written
	Line   int
	Column int
}

// Kinds of Suppression.
const (
	SuppressedByAnnotation = "annotation"
	SuppressedByComment    = "comment"
)

// Sort orders findings by file, line, column and rule, as every format prints them.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
		)
	})
}

// Link is a related upstream document.
type Link struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Rule is a rule's metadata, read from its # METADATA block.
type Rule struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Intent says when the rule fires and when it deliberately stays quiet
	// (metadata custom.intent); every built-in rule has one.
	Intent      string   `json:"intent,omitempty"`
	Severity    Severity `json:"-"`
	Remediation string   `json:"remediation"`
	Related     []Link   `json:"related,omitempty"`
	Bad         string   `json:"bad,omitempty"`  // a manifest that fails the rule
	Good        string   `json:"good,omitempty"` // the same manifest, fixed
	// Config is the .dslint.yaml the examples are judged with, for a rule
	// that reads the config (metadata custom.config); "" for none.
	Config string `json:"config,omitempty"`
	// RaisedBy names the part of dslint that raises the rule's findings
	// when it is not Rego: "parser" or "suppression" (metadata custom.source).
	RaisedBy string `json:"-"`
	// NeedsInventory marks a rule that finds nothing without a node
	// inventory (metadata custom.needs_inventory).
	NeedsInventory bool `json:"-"`
	// NeedsOwners marks a rule that finds nothing unless the config
	// declares a pool with owners (metadata custom.needs_owners).
	NeedsOwners bool `json:"-"`
	// Fixable marks a rule whose findings carry a fix that dslint fix
	// makes (metadata custom.fixable).
	Fixable bool `json:"fixable,omitempty"`
	// Custom marks a rule of the user's policies (--policy, policies:).
	Custom bool `json:"custom,omitempty"`
}

// HelpURI is where a rule's documentation lives: docs/rules.md for a
// built-in rule, the first related resource of a custom one ("" for none).
func (r Rule) HelpURI() string {
	if r.Custom {
		if len(r.Related) > 0 {
			return r.Related[0].URL
		}
		return ""
	}
	return "https://github.com/dslint/dslint/blob/main/docs/rules.md#" + r.ID
}

// Skipped is an input, or a document of one, that was not linted, with
// the reason.
type Skipped struct {
	File string `json:"file"`
	// Line is where the skipped document or List item starts; 0 when the
	// whole file was skipped.
	Line   int      `json:"line,omitempty"`
	Reason string   `json:"reason"`
	Kind   SkipKind `json:"-"`
}

// SkipKind is why something was skipped, for counting by reason.
type SkipKind int

// Kinds of Skipped. The zero value is a file skipped for another reason.
const (
	// SkippedNotObject is a document or List item with no apiVersion or
	// kind, or a top-level sequence.
	SkippedNotObject SkipKind = iota + 1
	// SkippedFragment is a workload without a complete pod template: a
	// Kustomize patch or a test assertion, not an object of its own.
	SkippedFragment
	// SkippedTemplate is a file with Helm template syntax.
	SkippedTemplate
)

// The reasons of the documents skipped, as reports print them.
const (
	ReasonNotObject = "not a Kubernetes object"
	ReasonFragment  = "fragment: a workload without a complete pod template (a patch or test assertion)"
)

// IsDocument is true for a document or List item skipped, as opposed to a
// whole file: reports count those and list only the files.
func (s Skipped) IsDocument() bool {
	return s.Kind == SkippedNotObject || s.Kind == SkippedFragment
}

// Summary counts what a run looked at and found.
type Summary struct {
	Files      int `json:"files"`
	Objects    int `json:"objects"`
	Workloads  int `json:"workloads"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
	Nodes      int `json:"-"` // nodes of the inventory workloads were placed on
	Pools      int `json:"-"` // the pools those nodes form
}

// Result is everything a report prints.
type Result struct {
	Findings []Finding
	Skipped  []Skipped
	Summary  Summary
	// Notes are remarks about the run as a whole, printed with the summary:
	// lowercase sentences that say what to do.
	Notes []string
	Rules []Rule // every rule that ran, for SARIF descriptors
	// Inputs are the files that were read whole, as reports name them, in
	// input order: each input file, <stdin>, the files a kustomize build's
	// objects came from. The JUnit report lists the clean ones as passing
	// tests.
	Inputs []string
}

// Count fills the severity counts of the summary from the findings.
func (r *Result) Count() {
	s := &r.Summary
	s.Errors, s.Warnings, s.Infos, s.Suppressed = 0, 0, 0, 0
	for _, f := range r.Findings {
		switch {
		case f.Suppressed:
			s.Suppressed++
		case f.Severity == Error:
			s.Errors++
		case f.Severity == Warning:
			s.Warnings++
		default:
			s.Infos++
		}
	}
}

// Fix is the repair of a finding that has one right answer, as its rule
// declares it: edits to the object, and, once dslint has read the file
// again, the same edits as text.
type Fix struct {
	Edits []Edit
	// Replacements are the edits as text in File, in file order; empty
	// when the file cannot be edited (a chart, a generated object) or the
	// edits cannot be made there (Reason says why).
	Replacements []Replacement
	// Reason says why a fix has no replacements: "rendered from a Helm
	// chart", "the object was changed by a kustomize patch"...
	Reason string
	// Source is the file on disk the object is written in, to edit
	// ("-" for standard input); empty when no file holds it as linted: a
	// chart's template, an object a generator made.
	Source string
	// Rendered, for an object of a Helm chart, is the rendered text it was
	// read from: dslint fix shows the edits there, and writes nothing.
	Rendered []byte
	// Line and Column are where the object's mapping starts in Source (in
	// Rendered, for a chart's object).
	Line, Column int
	// Expect holds, for each edit, the value at its path (at its list, for
	// an append) in the object as linted, as JSON ("null" when absent): an
	// edit is made only where the file holds the same, which a kustomize
	// patch may have changed.
	Expect []string
}

// Edit is one change to an object, by field path, as a rule declares it.
type Edit struct {
	// Op is EditRemove, EditReplace, EditAdd or EditQuote.
	Op string
	// Path is the field the edit is about; an EditAdd's ends in "-" when
	// it appends to a list.
	Path []any
	// Value is what EditReplace writes and EditAdd adds.
	Value any
}

// Target is the field the edit changes: Path, but for an append, the list
// (Path without its "-").
func (e Edit) Target() []any {
	if n := len(e.Path); n > 0 && e.Path[n-1] == "-" {
		return e.Path[:n-1]
	}
	return e.Path
}

// The operations of an Edit.
const (
	EditRemove  = "remove"  // remove the key or the list item at Path
	EditReplace = "replace" // replace the scalar at Path with Value
	EditAdd     = "add"     // append Value to the list at Path (ending "-"), creating it when absent
	EditQuote   = "quote"   // write the plain scalar at Path, read as a boolean or number, as a string
)

// Replacement is a region of a file and the text that replaces it.
// Positions are 1-based; the end is exclusive; offsets are bytes of the
// file as it is on disk (a byte order mark included).
type Replacement struct {
	Line, Column       int
	EndLine, EndColumn int
	Offset, Length     int
	Text               string
}
