package engine

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/dslint/dslint/internal/finding"
)

// rulesPrefix is the package path under which every rule lives.
var rulesPrefix = ast.MustParseRef("data.dslint.rules")

var ruleID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// RuleID returns the rule id of a module's package (the last element of
// data.dslint.rules["<id>"]), or "" when the module is not a rule.
func RuleID(m *ast.Module) string {
	p := m.Package.Path
	if len(p) != len(rulesPrefix)+1 || !p.HasPrefix(rulesPrefix) {
		return ""
	}
	s, ok := p[len(p)-1].Value.(ast.String)
	if !ok {
		return ""
	}
	return string(s)
}

// RulesOf reads the metadata of every rule module. A rule without a title,
// description, severity or remediation is an error: its documentation and
// SARIF descriptor would be empty. custom.needs_inventory: true marks a rule
// that finds nothing without a node inventory, so that a suppression of it
// is not called unused in a run without one; custom.fixable: true, a rule
// whose findings carry a fix (dslint fix).
func RulesOf(modules []*ast.Module) ([]finding.Rule, error) {
	var out []finding.Rule
	seen := map[string]string{}
	for _, m := range modules {
		id := RuleID(m)
		if id == "" {
			continue
		}
		file := m.Package.Location.File
		a := packageAnnotations(m)
		if a == nil {
			continue // a rule may span files; its metadata is in one of them
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%s: rule %s already has metadata in %s", file, id, prev)
		}
		seen[id] = file
		r, err := ruleFromAnnotations(id, a)
		if err != nil {
			return nil, fmt.Errorf("%s: rule %s: %w", file, id, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// RulesIn reads the metadata of the rules of fsys, sorted by id, without
// compiling them: listing or explaining the rules needs no more, and
// compiling is most of the time dslint takes to start.
func RulesIn(fsys fs.FS) ([]finding.Rule, error) {
	modules, err := ParseModules(fsys, false)
	if err != nil {
		return nil, err
	}
	rules, err := RulesOf(modules)
	slices.SortFunc(rules, func(a, b finding.Rule) int { return strings.Compare(a.ID, b.ID) })
	return rules, err
}

func packageAnnotations(m *ast.Module) *ast.Annotations {
	for _, a := range m.Annotations {
		if a.Scope == "package" {
			return a
		}
	}
	return nil
}

func ruleFromAnnotations(id string, a *ast.Annotations) (finding.Rule, error) {
	if !ruleID.MatchString(id) {
		return finding.Rule{}, fmt.Errorf("id must be lowercase words joined by '-'")
	}
	r := finding.Rule{
		ID:          id,
		Title:       strings.TrimSpace(a.Title),
		Description: strings.TrimSpace(a.Description),
		Intent:      strings.TrimSpace(customString(a, "intent")),
		Remediation: strings.TrimSpace(customString(a, "remediation")),
		Bad:         customString(a, "bad"),
		Good:        customString(a, "good"),
		Config:      customString(a, "config"),
		RaisedBy:    customString(a, "source"),
	}
	for _, rr := range a.RelatedResources {
		r.Related = append(r.Related, finding.Link{URL: rr.Ref.String(), Description: rr.Description})
	}
	sev, err := finding.ParseSeverity(customString(a, "severity"))
	if err != nil {
		return finding.Rule{}, fmt.Errorf("metadata custom.severity: %w", err)
	}
	r.Severity = sev
	for name, into := range map[string]*bool{"needs_inventory": &r.NeedsInventory, "needs_owners": &r.NeedsOwners, "fixable": &r.Fixable} {
		switch v := a.Custom[name].(type) {
		case nil:
		case bool:
			*into = v
		default:
			return finding.Rule{}, fmt.Errorf("metadata custom.%s must be true or false, not %v", name, v)
		}
	}
	for field, v := range map[string]string{"title": r.Title, "description": r.Description, "custom.remediation": r.Remediation} {
		if v == "" {
			return finding.Rule{}, fmt.Errorf("metadata has no %s", field)
		}
	}
	return r, nil
}

func customString(a *ast.Annotations, key string) string {
	s, _ := a.Custom[key].(string)
	return s
}
