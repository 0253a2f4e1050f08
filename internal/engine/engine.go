// Package engine compiles the Rego rules once and evaluates them on one
// Kubernetes object at a time. Rules are found by package path
// (data.dslint.rules.<id>) and described by their # METADATA blocks.
package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
)

// Settings are the run's settings that rules read at data.dslint.config.
type Settings struct {
	Disabled     []string        `json:"-"` // rules not compiled at all
	SystemTaints []string        `json:"systemTaints,omitempty"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
}

// Engine holds the compiled rules. It is safe for concurrent use.
type Engine struct {
	query rego.PreparedEvalQuery
	rules map[string]finding.Rule
}

// Raw is a finding as a rule reports it, before its path becomes a position.
type Raw struct {
	Rule     string
	Severity finding.Severity
	Message  string
	Path     []any // string keys and int indexes
}

// Verdict is what the rules say about one object.
type Verdict struct {
	Findings []Raw
	Workload bool
}

// New compiles the Rego modules of fsys (every *.rego that is not a test),
// once for the whole run.
func New(ctx context.Context, fsys fs.FS, settings Settings) (*Engine, error) {
	modules, err := ParseModules(fsys, false)
	if err != nil {
		return nil, err
	}
	rules, err := RulesOf(modules)
	if err != nil {
		return nil, err
	}
	var data map[string]any
	raw, _ := json.Marshal(settings)
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, err
	}
	opts := []func(*rego.Rego){
		rego.Query("report := data.dslint.main.report; workload := data.dslint.main.workload"),
		rego.Store(inmem.NewFromObject(map[string]any{"dslint": map[string]any{"config": data}})),
	}
	for _, m := range modules {
		if !slices.Contains(settings.Disabled, RuleID(m)) {
			opts = append(opts, rego.ParsedModule(m))
		}
	}
	pq, err := rego.New(opts...).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("compile rules: %w", err)
	}
	e := &Engine{query: pq, rules: map[string]finding.Rule{}}
	for _, r := range rules {
		e.rules[r.ID] = r
	}
	return e, nil
}

// Rules returns the metadata of every rule, sorted by id.
func (e *Engine) Rules() []finding.Rule {
	out := make([]finding.Rule, 0, len(e.rules))
	for _, r := range e.rules {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b finding.Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Rule returns one rule's metadata.
func (e *Engine) Rule(id string) (finding.Rule, bool) {
	r, ok := e.rules[id]
	return r, ok
}

// Check evaluates every rule on one object node.
func (e *Engine) Check(ctx context.Context, obj *yaml.Node) (Verdict, error) {
	input, err := toValue(obj)
	if err != nil {
		return Verdict{}, err
	}
	rs, err := e.query.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return Verdict{}, fmt.Errorf("evaluate rules: %w", err)
	}
	if len(rs) == 0 {
		return Verdict{}, nil
	}
	var v Verdict
	v.Workload, _ = rs[0].Bindings["workload"].(bool)
	reports, _ := rs[0].Bindings["report"].([]any)
	for _, r := range reports {
		raw, err := e.decodeFinding(r)
		if err != nil {
			return Verdict{}, err
		}
		v.Findings = append(v.Findings, raw)
	}
	return v, nil
}

// decodeFinding reads one finding object a rule reported.
func (e *Engine) decodeFinding(x any) (Raw, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return Raw{}, fmt.Errorf("rule reported %v, not a finding object", x)
	}
	id, _ := m["rule"].(string)
	rule, ok := e.rules[id]
	if !ok {
		return Raw{}, fmt.Errorf("finding of unknown rule %q", id)
	}
	raw := Raw{Rule: id, Severity: rule.Severity}
	raw.Message, _ = m["message"].(string)
	if s, ok := m["severity"].(string); ok {
		sev, err := finding.ParseSeverity(s)
		if err != nil {
			return Raw{}, fmt.Errorf("rule %s: %w", id, err)
		}
		raw.Severity = sev
	}
	steps, _ := m["path"].([]any)
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			raw.Path = append(raw.Path, s)
		case json.Number:
			i, err := s.Int64()
			if err != nil {
				return Raw{}, fmt.Errorf("rule %s: path index %v is not an integer", id, s)
			}
			raw.Path = append(raw.Path, int(i))
		default:
			return Raw{}, fmt.Errorf("rule %s: path element %v is neither a key nor an index", id, s)
		}
	}
	return raw, nil
}

// ParseModules parses the *.rego files of fsys with their annotations; with
// tests set, *_test.rego files are included.
func ParseModules(fsys fs.FS, tests bool) ([]*ast.Module, error) {
	var modules []*ast.Module
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".rego" {
			return err
		}
		if strings.HasSuffix(p, "_test.rego") && !tests {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts(p, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		modules = append(modules, m)
		return nil
	})
	return modules, err
}
