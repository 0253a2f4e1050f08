// Package engine compiles the Rego rules once (Compile) and evaluates them
// on one Kubernetes object at a time, in runs (Compiled.NewRun) that each
// hold one inventory. Rules are found by package path
// (data.dslint.rules.<id>) and described by their # METADATA blocks.
package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/yamlvalue"
)

// Cluster is what rules read at data.dslint.config: what the config file
// and the flags say about the target cluster.
type Cluster struct {
	SystemTaints []string        `json:"systemTaints,omitempty"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	// KubernetesVersion is the target version as "1.MINOR"; empty leaves
	// the library's default, the newest supported.
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	// Pools are the pools of the config: the dedicated pattern each
	// declares, and its owners (rego/pools.rego).
	Pools []config.Pool `json:"pools,omitempty"`
}

// ClusterOf is what the config file says of the cluster; systemTaints not
// written leaves the library's default.
func ClusterOf(c *config.Config) Cluster {
	cl := Cluster{FeatureGates: c.FeatureGates, KubernetesVersion: c.KubernetesVersion, Pools: c.Pools}
	if c.Has("systemTaints") {
		cl.SystemTaints = c.SystemTaints
	}
	return cl
}

// RunSettings are what one run reads besides the rules.
type RunSettings struct {
	Cluster Cluster
	// Inventory is the nodes rules and placement read at
	// data.dslint.inventory (inventory.Data); nil or empty for none.
	Inventory *inventory.Inventory
}

// Compiled is the rules parsed and compiled once, with their settings. It
// is never modified: every run of the process (one per inventory, one per
// fixture of dslint test) starts from the same Compiled with NewRun.
type Compiled struct {
	rules    map[string]finding.Rule // every rule, those off included; Severity as set
	settings RuleSettings
	compiler *ast.Compiler
	// skip are the keys left out of input: none when rules written outside
	// dslint run, which may read any field.
	skip map[string]bool
}

// Run is the compiled rules at work on one run: it owns the store the rules
// read (the config and the inventory) and what the run learns as it goes,
// by placement key. It is safe for concurrent use by the run's workers.
type Run struct {
	rules      *Compiled
	inventory  *inventory.Data        // nil without nodes
	query      rego.PreparedEvalQuery // per object: findings, facts, workload
	aggregate  rego.PreparedEvalQuery // once per run: findings across objects
	placement  rego.PreparedEvalQuery // per workload: where its pods can land
	placeKey   rego.PreparedEvalQuery // per workload: all placement reads of it
	givenQ     rego.PreparedEvalQuery // per workload: what rules read of its placement
	scheduleQ  rego.PreparedEvalQuery // per workload: how many of its replicas land, whose pools it breaks into
	placed     sync.Map               // placement key -> []Placement, one per pod template
	givenByKey sync.Map               // placement key -> what rules read of its placement
	nodeCheck  rego.PreparedEvalQuery // per inventory node: validation problems
}

// Raw is a finding as a rule reports it, before its path becomes a position.
type Raw struct {
	Rule     string
	Severity finding.Severity
	Message  string
	Path     []any // string keys and int indexes
	// Fix are the edits that repair the finding, when its rule declares
	// them (rego/result.rego: with_fix).
	Fix []finding.Edit
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

// Compile parses and compiles the Rego modules of fsys (every *.rego that is
// not a test) and the user's policies (LoadPolicies) together, in the
// sandbox, and settles how each rule runs: the rules config turns off are
// left out. A problem in a policy is a PolicyErrors, positioned in the
// policy's file.
func Compile(fsys fs.FS, policies []*ast.Module, config RuleConfig) (*Compiled, error) {
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
	settings := newRuleSettings(rules, config)
	var enabled []*ast.Module
	for _, m := range slices.Concat(modules, policies) {
		if set, ok := settings[RuleID(m)]; !ok || set.On {
			enabled = append(enabled, m)
		}
	}
	compiler, err := compile(enabled, policies)
	if err != nil {
		return nil, err
	}
	c := &Compiled{rules: map[string]finding.Rule{}, settings: settings, compiler: compiler}
	for _, r := range rules {
		r.Severity = settings[r.ID].Severity
		c.rules[r.ID] = r
	}
	if len(policies) == 0 {
		c.skip = unreadFields
	}
	return c, nil
}

// NewRun starts a run of the rules on the settings' inventory. The inventory
// is handed to the rules once, as inventory.Data: the store gives rules Rego
// values as they are, rather than converting the inventory on every read.
func (c *Compiled) NewRun(ctx context.Context, settings RunSettings) (*Run, error) {
	run := &Run{rules: c}
	if !settings.Inventory.Empty() {
		run.inventory = settings.Inventory.Data()
		if err := c.allocate(ctx, run.inventory); err != nil {
			return nil, err
		}
	}
	data, err := ast.InterfaceToValue(map[string]any{"dslint": struct {
		Cluster   Cluster         `json:"config"`
		Inventory *inventory.Data `json:"inventory,omitempty"`
	}{settings.Cluster, run.inventory}})
	if err != nil {
		return nil, err
	}
	store := inmem.NewFromASTObject(data.(ast.Object))
	for _, q := range []struct {
		query string
		into  *rego.PreparedEvalQuery
	}{
		{"data.dslint.main.result", &run.query},
		{"data.dslint.main.aggregate", &run.aggregate},
		{"data.dslint.main.placement", &run.placement},
		{"data.dslint.main.placement_key", &run.placeKey},
		{"data.dslint.lib.placement.given", &run.givenQ},
		{"data.dslint.main.schedule", &run.scheduleQ},
		{"data.dslint.main.node_problems", &run.nodeCheck},
	} {
		if *q.into, err = prepare(ctx, q.query, c.compiler, store); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// allocate fills in what each taint set of the inventory allocates in the
// scheduler's units (rego/placement.rego: allocated_units), once per run: placement
// compares every workload's requests with them, once per distinct allocatable
// (inventory.Data.Allocatables).
func (c *Compiled) allocate(ctx context.Context, inv *inventory.Data) error {
	var sets []any
	var at []int
	for i, ts := range inv.TaintSets {
		if ts.Allocatable != nil {
			sets = append(sets, ts.Allocatable)
			at = append(at, i)
		}
	}
	if len(sets) == 0 {
		return nil
	}
	pq, err := prepare(ctx, "x := [[json.marshal(a), data.dslint.lib.placement.allocated_units(a)] | some a in input]", c.compiler, inmem.New())
	if err != nil {
		return err
	}
	rs, err := pq.Eval(ctx, rego.EvalInput(sets))
	if err != nil {
		return fmt.Errorf("evaluate allocatable: %w", err)
	}
	if len(rs) != 1 {
		return fmt.Errorf("evaluate allocatable: %d results", len(rs))
	}
	units, _ := rs[0].Bindings["x"].([]any)
	if len(units) != len(at) {
		return fmt.Errorf("evaluate allocatable: %d results for %d taint sets", len(units), len(at))
	}
	inv.Allocatables = map[string]any{}
	for k, i := range at {
		pair, _ := units[k].([]any)
		if len(pair) != 2 {
			return fmt.Errorf("evaluate allocatable: %v", units[k])
		}
		key, _ := pair[0].(string)
		inv.TaintSets[i].Allocated, _ = pair[1].(map[string]any)
		inv.Allocatables[key] = pair[1]
	}
	return nil
}

func prepare(ctx context.Context, query string, compiler *ast.Compiler, store storage.Store) (rego.PreparedEvalQuery, error) {
	pq, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
	if err != nil {
		return pq, fmt.Errorf("compile rules: %w", err)
	}
	return pq, nil
}

// Rules returns the metadata of every rule, those off included, sorted by
// id, with the severity the config gives them.
func (c *Compiled) Rules() []finding.Rule {
	out := make([]finding.Rule, 0, len(c.rules))
	for _, r := range c.rules {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b finding.Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Rule returns one rule's metadata.
func (c *Compiled) Rule(id string) (finding.Rule, bool) {
	r, ok := c.rules[id]
	return r, ok
}

// Setting is how the rule id runs; the zero RuleSetting (off) for an
// unknown id.
func (c *Compiled) Setting(id string) RuleSetting { return c.settings[id] }

// Check evaluates every rule on one object node.
func (run *Run) Check(ctx context.Context, obj *yaml.Node) (Verdict, error) {
	input, err := yamlvalue.Rego(obj, run.rules.skip)
	if err != nil {
		return Verdict{}, err
	}
	if err := run.giveKey(ctx, input); err != nil {
		return Verdict{}, err
	}
	// No metrics: nobody reads them, and they cost a few percent per object.
	rs, err := run.query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
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
		raw, err := run.rules.decodeFinding(r)
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
func (run *Run) Aggregate(ctx context.Context, facts []Fact) ([]Cross, error) {
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
	rs, err := run.aggregate.Eval(ctx, rego.EvalInput(map[string]any{"groups": groups}))
	if err != nil {
		return nil, fmt.Errorf("evaluate cross-object rules: %w", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	var out []Cross
	reports, _ := rs[0].Expressions[0].Value.([]any)
	for _, r := range reports {
		c, err := run.rules.decodeCross(r, len(facts))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (c *Compiled) decodeCross(x any, nfacts int) (Cross, error) {
	m, _ := x.(map[string]any)
	raw, err := c.decodeFinding(x)
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

// decodeFinding reads one finding object a rule reported, and gives it its
// final severity: the config's for the rule, else the one the finding
// names, else the rule's.
func (c *Compiled) decodeFinding(x any) (Raw, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return Raw{}, fmt.Errorf("rule reported %v, not a finding object", x)
	}
	id, _ := m["rule"].(string)
	set, ok := c.settings[id]
	if !ok {
		return Raw{}, fmt.Errorf("finding of unknown rule %q", id)
	}
	raw := Raw{Rule: id, Severity: set.Severity}
	raw.Message, _ = m["message"].(string)
	if s, ok := m["severity"].(string); ok {
		sev, err := finding.ParseSeverity(s)
		if err != nil {
			return Raw{}, fmt.Errorf("rule %s: %w", id, err)
		}
		if !set.Configured {
			raw.Severity = sev
		}
	}
	path, err := decodePath(m["path"])
	if err != nil {
		return Raw{}, fmt.Errorf("rule %s: %w", id, err)
	}
	raw.Path = path
	if raw.Fix, err = decodeEdits(m["fix"]); err != nil {
		return Raw{}, fmt.Errorf("rule %s: %w", id, err)
	}
	return raw, nil
}

// decodeEdits reads the edits of a finding's fix: none when it has none.
func decodeEdits(x any) ([]finding.Edit, error) {
	if x == nil {
		return nil, nil
	}
	list, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("fix %v is not a list of edits", x)
	}
	edits := make([]finding.Edit, 0, len(list))
	for _, e := range list {
		m, _ := e.(map[string]any)
		op, _ := m["op"].(string)
		switch op {
		case finding.EditRemove, finding.EditQuote, finding.EditReplace, finding.EditAdd:
		default:
			return nil, fmt.Errorf("fix edit %v: op must be remove, replace, add or quote", e)
		}
		path, err := decodeFixPath(m["path"])
		if err != nil {
			return nil, fmt.Errorf("fix edit %v: %w", e, err)
		}
		value, has := m["value"]
		if (op == finding.EditReplace || op == finding.EditAdd) != has {
			return nil, fmt.Errorf("fix edit %v: only replace and add have a value, and they must", e)
		}
		edits = append(edits, finding.Edit{Op: op, Path: path, Value: value})
	}
	return edits, nil
}

// decodeFixPath reads an edit's path: a field path that may end in "-".
func decodeFixPath(x any) ([]any, error) {
	path, err := decodePath(x)
	if err != nil || len(path) == 0 {
		return nil, cmp.Or(err, errors.New("empty path"))
	}
	return path, nil
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
