package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/dslint/dslint/internal/finding"
)

const (
	sarifToolName    = "dslint"
	sarifToolURI     = "https://github.com/dslint/dslint"
	sarifToolVersion = "0.1.0"

	// sarifSrcRoot is the uriBaseId every artifact URI is relative to: the
	// directory dslint ran in, which in CI is the repository checkout.
	sarifSrcRoot = "%SRCROOT%"

	// sarifFingerprintKey names dslint's partial fingerprint. Bump the
	// version suffix if the fingerprint's inputs ever change.
	sarifFingerprintKey = "dslintFingerprint/v1"

	sarifSuppressionJustification = "suppressed in source"
)

// sarifRuleTags are the tags every dslint rule carries in SARIF.
var sarifRuleTags = []string{"kubernetes", "scheduling"}

// writeSARIF prints res as a SARIF 2.1.0 log with one run: a reporting
// descriptor per rule and a result per finding, suppressed ones included.
func writeSARIF(w io.Writer, res *finding.Result) error {
	run := sarif.NewRunWithInformationURI(sarifToolName, sarifToolURI)
	run.Tool.Driver.WithVersion(sarifToolVersion)

	rules, index := sarifRules(res)
	run.Tool.Driver.WithRules(rules)
	// The base is the directory dslint ran in, which it cannot name as an
	// absolute URI that means anything to a consumer, so the entry carries only
	// a description (SARIF 3.14.14 allows omitting uri when it is unknown).
	srcRoot := sarif.NewArtifactLocation().WithDescription(
		sarif.NewTextMessage("The directory dslint ran in; file paths are relative to it."))
	run.WithOriginalUriBaseIds(map[string]sarif.ArtifactLocation{sarifSrcRoot: *srcRoot})

	for _, f := range res.Findings {
		run.AddResult(sarifResult(f, index[f.Rule]))
	}

	log := sarif.NewReport()
	log.AddRun(run)
	var compact bytes.Buffer
	if err := log.Write(&compact); err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	trimmed, err := omitUnsetIndexes(compact.Bytes())
	if err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, trimmed, "", "  "); err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	out.WriteByte('\n')
	_, err = out.WriteTo(w)
	return err
}

// sarifRules returns one descriptor per rule, sorted by id, and the index of
// each id. A rule that a finding names but res.Rules lacks gets a minimal
// descriptor, so that every result's ruleIndex is valid.
func sarifRules(res *finding.Result) ([]*sarif.ReportingDescriptor, map[string]int) {
	byID := make(map[string]*finding.Rule, len(res.Rules))
	for i := range res.Rules {
		if _, dup := byID[res.Rules[i].ID]; !dup {
			byID[res.Rules[i].ID] = &res.Rules[i]
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	unknown := map[string]bool{}
	for _, f := range res.Findings {
		if _, ok := byID[f.Rule]; !ok && !unknown[f.Rule] {
			unknown[f.Rule] = true
			ids = append(ids, f.Rule)
		}
	}
	slices.Sort(ids)

	rules := make([]*sarif.ReportingDescriptor, 0, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
		if r, ok := byID[id]; ok {
			rules = append(rules, sarifRule(*r))
		} else {
			rules = append(rules, sarifUnknownRule(id))
		}
	}
	return rules, index
}

func sarifRule(r finding.Rule) *sarif.ReportingDescriptor {
	d := sarif.NewRule(r.ID).
		WithName(pascalCase(r.ID)).
		WithHelp(sarif.NewMultiformatMessageString().
			WithText(ruleText(r)).
			WithMarkdown(ruleMarkdown(r, "##"))).
		WithProperties(sarif.NewPropertyBag().
			WithTags(slices.Clone(sarifRuleTags)).
			Add("precision", "very-high").
			Add("problem.severity", githubSeverity(r.Severity)))
	if r.Title != "" {
		d.WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Title))
	}
	if r.Description != "" {
		d.WithFullDescription(sarif.NewMultiformatMessageString().WithText(r.Description))
	}
	if lvl := sarifLevel(r.Severity); lvl != "" {
		d.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(lvl))
	}
	if uri := r.HelpURI(); uri != "" {
		d.WithHelpURI(uri)
	}
	return d
}

// sarifUnknownRule describes a rule dslint has no metadata for. An id alone
// would do for SARIF, but GitHub code scanning rejects a descriptor without
// shortDescription, fullDescription and help.
func sarifUnknownRule(id string) *sarif.ReportingDescriptor {
	text := fmt.Sprintf("No metadata is available for rule %s.", id)
	return sarif.NewRule(id).
		WithName(pascalCase(id)).
		WithShortDescription(sarif.NewMultiformatMessageString().WithText(id)).
		WithFullDescription(sarif.NewMultiformatMessageString().WithText(text)).
		WithHelp(sarif.NewMultiformatMessageString().WithText(text))
}

func sarifResult(f finding.Finding, ruleIndex int) *sarif.Result {
	r := sarif.NewRuleResult(f.Rule).
		WithRuleIndex(ruleIndex).
		WithMessage(sarif.NewTextMessage(f.Message)).
		WithPartialFingerprints(map[string]string{sarifFingerprintKey: sarifFingerprint(f)}).
		WithProperties(sarifProperties(f))
	if lvl := sarifLevel(f.Severity); lvl != "" {
		r.WithLevel(lvl)
	}

	loc := sarif.NewLocation()
	if f.File != "" {
		loc.WithPhysicalLocation(sarifPhysicalLocation(f.File, f.Line, f.Column))
	}
	if f.Object.Name != "" || f.Object.Kind != "" {
		loc.AddLogicalLocation(sarif.NewLogicalLocation().
			WithName(f.Object.Name).
			WithKind("resource").
			WithFullyQualifiedName(objectFQN(f.Object)))
	}
	r.AddLocation(loc)
	if v := f.Value; v != nil && v.File != "" {
		// Where the chart value the field came from is set: an
		// annotation in a pull request can land on the values file.
		r.AddRelatedLocation(sarif.NewLocation().WithID(1).
			WithPhysicalLocation(sarifPhysicalLocation(v.File, v.Line, v.Column)).
			WithMessage(sarif.NewTextMessage("the value " + v.Ref + " is set here")))
	}

	if f.Suppressed {
		r.AddSuppression(sarifSuppression(f.Suppression))
	}
	if fx := sarifFix(f); fx != nil {
		r.WithFixes([]*sarif.Fix{fx})
	}
	return r
}

// sarifFix is the finding's fix as the text edits of its file, for a
// viewer to offer; nil when it has none (no fix, or one that cannot be
// made in the file). Regions count columns in characters, as results do.
func sarifFix(f finding.Finding) *sarif.Fix {
	if f.Fix == nil || len(f.Fix.Replacements) == 0 || f.File == "" {
		return nil
	}
	change := sarif.NewArtifactChange().WithArtifactLocation(sarifArtifactLocation(f.File))
	for _, r := range f.Fix.Replacements {
		rep := sarif.NewReplacement().WithDeletedRegion(sarif.NewRegion().
			WithStartLine(r.Line).WithStartColumn(r.Column).
			WithEndLine(r.EndLine).WithEndColumn(r.EndColumn))
		if r.Text != "" {
			rep.WithInsertedContent(sarif.NewArtifactContent().WithText(r.Text))
		}
		change.AddReplacement(rep)
	}
	return sarif.NewFix().
		WithDescription(sarif.NewTextMessage(DescribeEdits(f.Fix.Edits))).
		AddArtifactChange(change)
}

// sarifProperties are what SARIF has no field for: the field path, and in
// a Helm chart the value set and hook, and whether the region is only
// near the field (approximate).
func sarifProperties(f finding.Finding) *sarif.PropertyBag {
	p := sarif.NewPropertyBag().Add("path", f.Path)
	if f.Approximate {
		p.Add("approximate", true)
	}
	if v := f.Value; v != nil {
		p.Add("value", v.Ref)
	}
	if c := f.Chart; c != nil {
		p.Add("chart", c.Path)
		if c.Values != "" {
			p.Add("values", c.Values)
		}
		if c.Hook != "" {
			p.Add("hook", c.Hook)
		}
	}
	return p
}

// sarifSuppression records the user's suppression. Both kinds are "inSource"
// (SARIF §3.35.2): an annotation, like a comment, is written in the manifest
// that was analyzed, on the object that encloses the finding; "external" is
// for suppressions kept outside it, in a sidecar file or a database. The
// location tells the two apart: the annotation key or the comment.
func sarifSuppression(s finding.Suppression) *sarif.Suppression {
	justification := s.Reason
	if justification == "" {
		justification = sarifSuppressionJustification
	}
	sup := sarif.NewSuppression().
		WithKind("inSource").
		WithStatus("accepted").
		WithJustification(justification)
	if s.File != "" {
		sup.WithLocation(sarif.NewLocation().WithPhysicalLocation(sarifPhysicalLocation(s.File, s.Line, s.Column)))
	}
	return sup
}

// sarifPhysicalLocation is a file with a region for what is known of the
// position: none without a line, no startColumn without a column.
func sarifPhysicalLocation(file string, line, column int) *sarif.PhysicalLocation {
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(sarifArtifactLocation(file))
	if line > 0 {
		region := sarif.NewRegion().WithStartLine(line)
		if column > 0 {
			region.WithStartColumn(column)
		}
		phys.WithRegion(region)
	}
	return phys
}

// sarifArtifactLocation turns a slash-separated file name into a URI: a
// relative one, resolved against %SRCROOT%, or a file URI for absolute paths.
func sarifArtifactLocation(file string) *sarif.ArtifactLocation {
	if path.IsAbs(file) || hasDriveLetter(file) {
		p := file
		if !path.IsAbs(p) {
			p = "/" + p
		}
		return sarif.NewArtifactLocation().WithURI((&url.URL{Scheme: "file", Path: p}).String())
	}
	// url.URL escapes what a URI cannot hold (spaces, '#', '%', '?') and
	// prefixes "./" when the first segment has a colon.
	return sarif.NewArtifactLocation().
		WithURI((&url.URL{Path: file}).String()).
		WithURIBaseID(sarifSrcRoot)
}

func hasDriveLetter(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/' &&
		(('a' <= p[0] && p[0] <= 'z') || ('A' <= p[0] && p[0] <= 'Z'))
}

// objectFQN is "<kind>/<namespace>/<name>", without the namespace part for
// cluster-scoped (or unnamespaced) objects.
func objectFQN(o finding.Object) string {
	parts := []string{o.Kind}
	if o.Namespace != "" {
		parts = append(parts, o.Namespace)
	}
	return strings.Join(append(parts, o.Name), "/")
}

// sarifFingerprint identifies a finding independently of its line and column,
// so that code scanning keeps tracking it when lines above it move.
func sarifFingerprint(f finding.Finding) string {
	h := sha256.New()
	parts := []string{f.Rule, f.File, f.Object.Kind, f.Object.Namespace, f.Object.Name, f.Path}
	if f.Chart != nil && f.Chart.Values != "" {
		parts = append(parts, f.Chart.Values) // one chart, linted with several value sets
	}
	for _, s := range parts {
		// Length-prefix each part so that no two different inputs hash the same.
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sarifLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return sarif.LevelError
	case finding.Warning:
		return sarif.LevelWarning
	case finding.Info:
		return sarif.LevelNote
	}
	return ""
}

// githubSeverity is the problem.severity GitHub code scanning reads.
func githubSeverity(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Info:
		return "recommendation"
	}
	return "warning"
}

// pascalCase turns a rule id such as invalid-toleration into InvalidToleration.
func pascalCase(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		r, n := utf8.DecodeRuneInString(part)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(part[n:])
	}
	return b.String()
}

// omitUnsetIndexes removes the -1 "unset" sentinels go-sarif writes for
// every artifact and logical location index and region offset (plain ints,
// no omitempty). They mean the same as an absent property, but the SARIF
// Multitool flags the indexes (SARIF2004 OmitSentinelIndex), and they are
// noise to anyone reading the file.
func omitUnsetIndexes(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	pruneUnsetIndexes(tree)
	return json.Marshal(tree)
}

func pruneUnsetIndexes(v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range []string{"index", "parentIndex", "byteOffset", "charOffset"} {
			if v[k] == json.Number("-1") {
				delete(v, k)
			}
		}
		for _, c := range v {
			pruneUnsetIndexes(c)
		}
	case []any:
		for _, c := range v {
			pruneUnsetIndexes(c)
		}
	}
}
