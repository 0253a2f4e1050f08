// Package engine compiles the Rego rules once and evaluates them on one
// Kubernetes object at a time. Rules are found by package path
// (data.dslint.rules.<id>) and described by their # METADATA blocks.
package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/yamlvalue"
)

// Settings are the run's settings that rules read at data.dslint.config.
type Settings struct {
	Disabled []string `json:"-"` // rules not compiled at all
	// AllFields hands rules every field of the object. Without it, fields
	// no built-in rule reads (unreadFields) are left out of input; rules
	// written outside dslint need it.
	AllFields bool `json:"-"`
	// Inventory is the node inventory rules and placement read at
	// data.dslint.inventory (inventory.Inventory.Data); nil for none.
	Inventory    map[string]any  `json:"-"`
	SystemTaints []string        `json:"systemTaints,omitempty"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	// KubernetesVersion is the target version as "1.MINOR"; empty leaves
	// the library's default, the newest supported.
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
}

// Engine holds the compiled rules. It is safe for concurrent use.
type Engine struct {
	query      rego.PreparedEvalQuery // per object: findings, facts, workload
	aggregate  rego.PreparedEvalQuery // once per run: findings across objects
	placement  rego.PreparedEvalQuery // per workload: where its pods can land
	placeKey   rego.PreparedEvalQuery // per workload: all placement reads of it
	givenQ     rego.PreparedEvalQuery // per workload: what rules read of its placement
	placed     sync.Map               // placement key -> Placement, for the run
	givenByKey sync.Map               // placement key -> what rules read of its placement
	nodeCheck  rego.PreparedEvalQuery // per inventory node: validation problems
	rules      map[string]finding.Rule
	skip       map[string]bool // keys left out of input
	poolSets   [][2]int        // per inventory pool: its label set and taint set
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
	Facts    []Fact
	Workload bool
	Patch    bool // a Kustomize patch fragment: not an object of its own
}

// Fact is what a cross-object rule records about one object (its `facts`
// set) for its `aggregate` rule, which sees the facts of the whole run.
type Fact struct {
	Rule   string
	Object string // the object it came from, unique in the run
	Group  string // facts are handed to aggregate grouped by this key
	Path   []any  // the field the fact is about; cross-object findings point here
	File   string // where Path is, so that a finding can point at the other facts
	Line   int
	Data   map[string]any
}

// Cross is a finding of an aggregate rule, about the fact with index Fact.
type Cross struct {
	Rule     string
	Severity finding.Severity
	Message  string
	Fact     int
}

// New compiles the Rego modules of fsys (every *.rego that is not a test),
// once for the whole run.
func New(ctx context.Context, fsys fs.FS, settings Settings) (*Engine, error) {
	c, err := Compile(fsys, settings.Disabled)
	if err != nil {
		return nil, err
	}
	return c.Engine(ctx, settings)
}

// Compiled is the rules of fsys parsed and compiled, once; engines for
// different inventories are made from it.
type Compiled struct {
	rules    []finding.Rule
	compiler *ast.Compiler
}

// Compile parses and compiles the Rego modules of fsys (every *.rego that is
// not a test), leaving out the rules disabled.
func Compile(fsys fs.FS, disabled []string) (*Compiled, error) {
	return CompileWith(fsys, nil, disabled)
}

// CompileWith compiles the modules of fsys and the user's policies
// (LoadPolicies) together, in the sandbox. A problem in a policy is a
// PolicyErrors, positioned in the policy's file.
func CompileWith(fsys fs.FS, policies []*ast.Module, disabled []string) (*Compiled, error) {
	modules, err := ParseModules(fsys, false)
	if err != nil {
		return nil, err
	}
	if err := checkPolicies(modules, policies); err != nil {
		return nil, err
	}
	rules, err := RulesOf(modules)
	if err != nil {
		return nil, err
	}
	custom, err := policyRules(policies)
	if err != nil {
		return nil, err
	}
	rules = append(rules, custom...)
	var enabled []*ast.Module
	for _, m := range slices.Concat(modules, policies) {
		if !slices.Contains(disabled, RuleID(m)) {
			enabled = append(enabled, m)
		}
	}
	compiler, err := compile(enabled, policies)
	if err != nil {
		return nil, err
	}
	return &Compiled{rules: rules, compiler: compiler}, nil
}

// Engine makes an engine of the compiled rules for the run's settings
// (settings.Disabled is the compiler's business and is not read here).
func (c *Compiled) Engine(ctx context.Context, settings Settings) (*Engine, error) {
	var err error
	var data map[string]any
	raw, _ := json.Marshal(settings)
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, err
	}
	root := map[string]any{"config": data}
	if settings.Inventory != nil {
		root["inventory"] = settings.Inventory
	}
	// Rules read the store on every evaluation: it hands out Rego values as
	// they are, rather than converting the inventory each time.
	store := inmem.NewFromObjectWithOpts(map[string]any{"dslint": root}, inmem.OptReturnASTValuesOnRead(true))
	e := &Engine{rules: map[string]finding.Rule{}}
	for _, q := range []struct {
		query string
		into  *rego.PreparedEvalQuery
	}{
		{"data.dslint.main.result", &e.query},
		{"data.dslint.main.aggregate", &e.aggregate},
		{"data.dslint.main.placement", &e.placement},
		{"data.dslint.main.placement_key", &e.placeKey},
		{"data.dslint.lib.placement.given", &e.givenQ},
		{"data.dslint.main.node_problems", &e.nodeCheck},
	} {
		if *q.into, err = prepare(ctx, q.query, c.compiler, store); err != nil {
			return nil, err
		}
	}
	if !settings.AllFields {
		e.skip = unreadFields
	}
	if e.poolSets, err = poolSets(settings.Inventory); err != nil {
		return nil, err
	}
	for _, r := range c.rules {
		e.rules[r.ID] = r
	}
	return e, nil
}

// poolSets reads the label set and taint set of each pool of an inventory
// (inventory.Inventory.Data).
func poolSets(inv map[string]any) ([][2]int, error) {
	pools, _ := inv["pools"].([]any)
	sets := make([][2]int, 0, len(pools))
	for i, p := range pools {
		m, _ := p.(map[string]any)
		ls, ok1 := asInt(m["label_set"])
		ts, ok2 := asInt(m["taint_set"])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("inventory pool %d has no label_set and taint_set", i)
		}
		sets = append(sets, [2]int{ls, ts})
	}
	return sets, nil
}

func asInt(x any) (int, bool) {
	switch n := x.(type) {
	case int:
		return n, true
	case float64:
		return int(n), n == float64(int(n))
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

// compile compiles the modules once; every query of the engine is prepared
// on the same compiler.
func compile(modules, policies []*ast.Module) (*ast.Compiler, error) {
	byName := make(map[string]*ast.Module, len(modules))
	for _, m := range modules {
		byName[m.Package.Location.File] = m
	}
	c := ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1).WithCapabilities(Sandbox())
	if c.Compile(byName); c.Failed() {
		if len(policies) > 0 {
			return nil, astErrors(c.Errors)
		}
		return nil, fmt.Errorf("compile rules: %w", c.Errors)
	}
	return c, nil
}

func prepare(ctx context.Context, query string, compiler *ast.Compiler, store storage.Store) (rego.PreparedEvalQuery, error) {
	pq, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
	if err != nil {
		return pq, fmt.Errorf("compile rules: %w", err)
	}
	return pq, nil
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
	input, err := yamlvalue.Rego(obj, e.skip)
	if err != nil {
		return Verdict{}, err
	}
	if err := e.give(ctx, input); err != nil {
		return Verdict{}, err
	}
	// No metrics: nobody reads them, and they cost a few percent per object.
	rs, err := e.query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
	if err != nil {
		return Verdict{}, fmt.Errorf("evaluate rules: %w", err)
	}
	if len(rs) == 0 {
		return Verdict{}, nil
	}
	var v Verdict
	res, _ := rs[0].Expressions[0].Value.(map[string]any)
	v.Workload, _ = res["workload"].(bool)
	v.Patch, _ = res["patch"].(bool)
	reports, _ := res["report"].([]any)
	for _, r := range reports {
		raw, err := e.decodeFinding(r)
		if err != nil {
			return Verdict{}, err
		}
		v.Findings = append(v.Findings, raw)
	}
	facts, _ := res["facts"].([]any)
	for _, f := range facts {
		fact, err := decodeFact(f)
		if err != nil {
			return Verdict{}, err
		}
		v.Facts = append(v.Facts, fact)
	}
	return v, nil
}

func decodeFact(x any) (Fact, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return Fact{}, fmt.Errorf("rule recorded %v, not a fact object", x)
	}
	f := Fact{Data: m}
	f.Rule, _ = m["rule"].(string)
	f.Group, _ = m["group"].(string)
	path, err := decodePath(m["path"])
	if err != nil {
		return Fact{}, fmt.Errorf("rule %s: fact %w", f.Rule, err)
	}
	f.Path = path
	return f, nil
}

// Aggregate runs the cross-object rules once over the facts of the whole
// run. Each rule sees input.groups[<rule id>][<group>]: the facts it recorded
// under one group key, each with its index as "id", its object as "object"
// and where it is as "file" and "line".
func (e *Engine) Aggregate(ctx context.Context, facts []Fact) ([]Cross, error) {
	if len(facts) == 0 {
		return nil, nil
	}
	groups := map[string]map[string][]any{}
	for i, f := range facts {
		if groups[f.Rule] == nil {
			groups[f.Rule] = map[string][]any{}
		}
		item := maps.Clone(f.Data)
		item["id"] = i
		item["object"] = f.Object
		item["file"], item["line"] = f.File, f.Line
		groups[f.Rule][f.Group] = append(groups[f.Rule][f.Group], item)
	}
	rs, err := e.aggregate.Eval(ctx, rego.EvalInput(map[string]any{"groups": groups}))
	if err != nil {
		return nil, fmt.Errorf("evaluate cross-object rules: %w", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	var out []Cross
	reports, _ := rs[0].Expressions[0].Value.([]any)
	for _, r := range reports {
		c, err := e.decodeCross(r, len(facts))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (e *Engine) decodeCross(x any, nfacts int) (Cross, error) {
	m, _ := x.(map[string]any)
	raw, err := e.decodeFinding(x)
	if err != nil {
		return Cross{}, err
	}
	n, _ := m["fact"].(json.Number)
	i, err := n.Int64()
	if err != nil || i < 0 || int(i) >= nfacts {
		return Cross{}, fmt.Errorf("rule %s: cross-object finding names fact %v, which does not exist", raw.Rule, m["fact"])
	}
	return Cross{Rule: raw.Rule, Severity: raw.Severity, Message: raw.Message, Fact: int(i)}, nil
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
	path, err := decodePath(m["path"])
	if err != nil {
		return Raw{}, fmt.Errorf("rule %s: %w", id, err)
	}
	raw.Path = path
	return raw, nil
}

// decodePath reads a field path: string keys and integer indexes.
func decodePath(x any) ([]any, error) {
	steps, _ := x.([]any)
	path := make([]any, 0, len(steps))
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			path = append(path, s)
		case json.Number:
			i, err := s.Int64()
			if err != nil {
				return nil, fmt.Errorf("path index %v is not an integer", s)
			}
			path = append(path, int(i))
		default:
			return nil, fmt.Errorf("path element %v is neither a key nor an index", s)
		}
	}
	return path, nil
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
