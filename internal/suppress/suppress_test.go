package suppress

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

var known = []string{"wildcard-toleration", "invalid-toleration", "no-matching-nodes", MissingReason, Unused}

func ranAll(string) bool { return true }

func info(string) finding.Severity { return finding.Info }

// comments parses src and returns its dslint:ignore comments.
func comments(t *testing.T, src string) []Directive {
	t.Helper()
	f := manifest.Parse("f.yaml", []byte(src))
	if len(f.SyntaxErrors) > 0 {
		t.Fatalf("bad test input: %v", f.SyntaxErrors)
	}
	return Comments(f)
}

func TestCommentsArePositionedAndParsed(t *testing.T) {
	src := `apiVersion: v1
kind: Pod
metadata:
  name: p  # dslint:ignore wildcard-toleration,invalid-toleration  the reason, with commas
spec:
  # dslint:ignore all
  tolerations:
    #dslint:ignore
    - operator: Exists
`
	got := comments(t, src)
	want := []struct {
		line, col int
		rules     []string
		reason    string
		alone     bool
	}{
		{4, 12, []string{"wildcard-toleration", "invalid-toleration"}, "the reason, with commas", false},
		{6, 3, []string{"all"}, "", true},
		{8, 5, nil, "", true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d directives, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.line || g.Column != w.col || !slices.Equal(g.Rules, w.rules) || g.Reason != w.reason || g.Kind != finding.SuppressedByComment || g.Alone != w.alone {
			t.Errorf("directive %d = %d:%d %v %q %s alone %v, want %d:%d %v %q alone %v", i, g.Line, g.Column, g.Rules, g.Reason, g.Kind, g.Alone, w.line, w.col, w.rules, w.reason, w.alone)
		}
	}
}

func TestTextThatIsNotACommentSuppressesNothing(t *testing.T) {
	src := `apiVersion: v1
kind: ConfigMap
metadata:
  name: c
data:
  script: |
    # dslint:ignore wildcard-toleration inside a block scalar
  quoted: "x # dslint:ignore wildcard-toleration inside quotes"
  url: http://example.com/#dslint:ignore
`
	if got := comments(t, src); len(got) != 0 {
		t.Errorf("strings were taken for comments: %+v", got)
	}
}

func finding1(rule string, line int, obj string) finding.Finding {
	return finding.Finding{Rule: rule, Severity: finding.Warning, File: "f.yaml", Line: line, Column: 7, Object: finding.Object{Kind: "Pod", Name: obj}}
}

// comment is a comment alone on its line, which covers the line below.
func comment(line int, reason string, rules ...string) Directive {
	return Directive{Kind: finding.SuppressedByComment, Rules: rules, Reason: reason, File: "f.yaml", Line: line, Column: 5, Text: "comment", Alone: true}
}

// trailing is a comment at the end of a line of YAML, which covers that line.
func trailing(line int, reason string, rules ...string) Directive {
	d := comment(line, reason, rules...)
	d.Alone, d.Column = false, 30
	return d
}

func annotation(obj, reason string, rules ...string) Directive {
	return Directive{Kind: finding.SuppressedByAnnotation, Rules: rules, Reason: reason, File: "f.yaml", Line: 3, Column: 5, Object: finding.Object{Kind: "Pod", Name: obj}, Text: "annotation"}
}

func summary(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%d %s", f.Line, f.Rule)
		if f.Suppressed {
			s += " suppressed by " + f.Suppression.Kind
		}
		out = append(out, s)
	}
	return out
}

func TestApply(t *testing.T) {
	cases := []struct {
		name       string
		findings   []finding.Finding
		directives []Directive
		ran        func(string) bool
		want       []string // the findings after Apply, then the ones it raised
	}{
		{
			name:       "a comment on the line above",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p")},
			directives: []Directive{comment(9, "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration suppressed by comment"},
		},
		{
			name:       "a comment at the end of the line",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p")},
			directives: []Directive{trailing(10, "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration suppressed by comment"},
		},
		{
			name:       "a comment at the end of the line above covers that line only",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p")},
			directives: []Directive{trailing(9, "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration", "9 unused-suppression"},
		},
		{
			name:       "a comment alone on its line covers the next line only",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p"), finding1("wildcard-toleration", 11, "p")},
			directives: []Directive{comment(10, "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration", "11 wildcard-toleration suppressed by comment"},
		},
		{
			name:       "two lines above is too far",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p")},
			directives: []Directive{comment(8, "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration", "8 unused-suppression"},
		},
		{
			name:       "another rule is not suppressed",
			findings:   []finding.Finding{finding1("invalid-toleration", 10, "p")},
			directives: []Directive{comment(9, "why", "wildcard-toleration")},
			want:       []string{"10 invalid-toleration", "9 unused-suppression"},
		},
		{
			name:       "an annotation covers its own object only",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p"), finding1("wildcard-toleration", 20, "q")},
			directives: []Directive{annotation("p", "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration suppressed by annotation", "20 wildcard-toleration"},
		},
		{
			name:       "all covers every rule, a comment wins over an annotation",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p"), finding1("invalid-toleration", 12, "p")},
			directives: []Directive{annotation("p", "why", All), trailing(10, "why", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration suppressed by comment", "12 invalid-toleration suppressed by annotation"},
		},
		{
			name:       "no reason still suppresses, and is reported",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p")},
			directives: []Directive{comment(9, "", "wildcard-toleration")},
			want:       []string{"10 wildcard-toleration suppressed by comment", "9 suppression-without-reason"},
		},
		{
			name:       "no rule",
			findings:   []finding.Finding{finding1("wildcard-toleration", 10, "p")},
			directives: []Directive{comment(9, "")},
			want:       []string{"10 wildcard-toleration", "9 unused-suppression"},
		},
		{
			name:       "unknown rule",
			directives: []Directive{comment(9, "why", "wildcard-tolerations")},
			want:       []string{"9 unused-suppression"},
		},
		{
			name:       "a rule that did not run makes no unused suppression",
			directives: []Directive{comment(9, "why", "no-matching-nodes")},
			ran:        func(id string) bool { return id != "no-matching-nodes" },
		},
		{
			name:       "findings about suppressions are not suppressed",
			findings:   []finding.Finding{finding1(Unused, 10, "p")},
			directives: []Directive{trailing(10, "why", All)},
			want:       []string{"10 unused-suppression", "10 unused-suppression"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ran := c.ran
			if ran == nil {
				ran = ranAll
			}
			fs := slices.Clone(c.findings)
			fs = append(fs, Apply(fs, slices.Clone(c.directives), Catalogue{Known: known, Ran: ran, Severity: info})...)
			if got := summary(fs); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestSuppressionCarriesTheReasonAndPosition(t *testing.T) {
	fs := []finding.Finding{finding1("wildcard-toleration", 10, "p")}
	Apply(fs, []Directive{comment(9, "drains every pool", "wildcard-toleration")}, Catalogue{Known: known, Ran: ranAll, Severity: info})
	want := finding.Suppression{Kind: finding.SuppressedByComment, Reason: "drains every pool", File: "f.yaml", Line: 9, Column: 5}
	if fs[0].Suppression != want {
		t.Errorf("suppression = %+v, want %+v", fs[0].Suppression, want)
	}
}

// The message of an unused comment says which line it covers.
func TestUnusedCommentNamesTheLineItCovers(t *testing.T) {
	for _, c := range []struct {
		d    Directive
		want string
	}{
		{trailing(9, "why", "wildcard-toleration"), "its line has no wildcard-toleration finding"},
		{comment(9, "why", "wildcard-toleration"), "the next line has no wildcard-toleration finding"},
	} {
		out := Apply(nil, []Directive{c.d}, Catalogue{Known: known, Ran: ranAll, Severity: info})
		if len(out) != 1 || !strings.Contains(out[0].Message, c.want) {
			t.Errorf("alone %v: got %+v, want a message with %q", c.d.Alone, out, c.want)
		}
	}
}

func TestUnknownRuleMessageSuggests(t *testing.T) {
	out := Apply(nil, []Directive{comment(9, "why", "wildcard-tolerations")}, Catalogue{Known: known, Ran: ranAll, Severity: info})
	if len(out) != 1 || !strings.Contains(out[0].Message, `did you mean "wildcard-toleration"`) {
		t.Errorf("got %+v", out)
	}
}

func TestAnnotations(t *testing.T) {
	src := `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    other.io/x: "y"
    ignore.dslint.io/wildcard-toleration: "  runs everywhere  "
    ignore.dslint.io/: "no rule"
`
	f := manifest.Parse("f.yaml", []byte(src))
	objs, _ := manifest.Objects(f.Docs[0])
	ref := finding.Object{Kind: "Pod", Name: "p"}
	got := Annotations("f.yaml", objs[0], ref, manifest.Origin{File: "f.yaml", Node: objs[0].Node}.Locate)
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	if g := got[0]; !slices.Equal(g.Rules, []string{"wildcard-toleration"}) || g.Reason != "runs everywhere" || g.Line != 7 || g.Column != 5 ||
		g.Path != `metadata.annotations["ignore.dslint.io/wildcard-toleration"]` || g.Object != ref {
		t.Errorf("first = %+v", g)
	}
	if g := got[1]; g.Rules != nil || g.Line != 8 {
		t.Errorf("second = %+v", g)
	}
}

// The findings about suppressions have the severity the catalogue gives
// their rule, and none is made of a rule that did not run (turned off).
func TestSuppressionRulesAsTheCatalogueSetsThem(t *testing.T) {
	ds := []Directive{comment(9, "", "wildcard-toleration"), comment(20, "why", "invalid-toleration")}
	severity := func(id string) finding.Severity {
		return map[string]finding.Severity{MissingReason: finding.Error, Unused: finding.Warning}[id]
	}
	out := Apply(nil, slices.Clone(ds), Catalogue{Known: known, Ran: ranAll, Severity: severity})
	var got []string
	for _, f := range out {
		got = append(got, f.Rule+" "+f.Severity.String())
	}
	slices.Sort(got)
	if want := []string{MissingReason + " error", Unused + " warning", Unused + " warning"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	ranNot := func(off string) func(string) bool { return func(id string) bool { return id != off } }
	for off, on := range map[string]string{MissingReason: Unused, Unused: MissingReason} {
		out := Apply(nil, slices.Clone(ds), Catalogue{Known: known, Ran: ranNot(off), Severity: severity})
		if slices.ContainsFunc(out, func(f finding.Finding) bool { return f.Rule == off }) || !slices.ContainsFunc(out, func(f finding.Finding) bool { return f.Rule == on }) {
			t.Errorf("%s off: %+v, want findings of %s only", off, out, on)
		}
	}
}
