package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/yamlvalue"
)

// Verdict of one node, or of a whole pool: it fits, or the first filter that
// blocks it.
type NodeVerdict struct {
	Fits   bool
	Reason string // node-name, node-selector, node-affinity, taint, unschedulable
	Detail string
}

// PoolVerdict is the verdict on one pool of the inventory: one for the whole
// pool, or, when the workload may fare differently on its nodes, one per
// node it treats apart (Nodes, by index in the pool) and one for all the
// others.
type PoolVerdict struct {
	Pool int
	NodeVerdict
	Nodes  map[int]NodeVerdict // nil: NodeVerdict holds for the whole pool
	Others NodeVerdict         // the other nodes, when Nodes is set
}

// Node is the verdict on node j of the pool.
func (v PoolVerdict) Node(j int) NodeVerdict {
	if v.Nodes == nil {
		return v.NodeVerdict
	}
	if n, ok := v.Nodes[j]; ok {
		return n
	}
	return v.Others
}

// Placement is where the pods of one pod template of a workload can land.
type Placement struct {
	// Template is where the pod template is written, in words
	// ("spec.workerGroupSpecs[0].template.spec"), for kinds with several
	// pod templates (custom resources such as a RayCluster); "" for kinds
	// with one.
	Template string
	Pools    []PoolVerdict
	Eligible int // nodes its pods can land on (a DaemonSet's DESIRED)
	Capacity Capacity
	// Ownership are the pools declared with owners in the config whose
	// ownership the workload breaks (rego/pools.rego: violation), in the
	// order of the config.
	Ownership []OwnershipBreak
}

// OwnershipBreak is a declared pool whose owners the workload is not among
// though it asks for the pool's nodes or can land on them.
type OwnershipBreak struct {
	Pool string `json:"pool"` // the name of the pool in the config
	// How is "asks" when the workload's node constraint names a label of
	// the pool, "lands" when it tolerates the pool's taints and its node
	// constraint admits the pool's labels.
	How string `json:"breaks"`
}

// Capacity is how many of a pod template's replicas an empty cluster holds
// (rego/capacity.rego: pod_placement).
type Capacity struct {
	Replicas int `json:"replicas"` // how many the workload wants (a DaemonSet's DESIRED)
	Placed   int `json:"placed"`
	// Exact is false where Placed is an upper bound: the count depends on
	// the nodes the scheduler picks.
	Exact bool `json:"exact"`
	// BlockedBy is what holds replicas back: none, placement, resources,
	// ports, anti-affinity, spread or affinity.
	BlockedBy string `json:"blocked_by"`
	// Limit says how, when fewer are placed than wanted.
	Limit struct {
		Text string `json:"text"`
	} `json:"limit"`
}

// Place evaluates where the pods of one object can land on the run's
// inventory: one Placement per pod template (rego/k8s.rego: pods), in the
// order of the library's pods; none for an object that is no workload.
// Placement reads little of a workload (rego/placement.rego: keys), and many
// workloads of a run share it: each distinct key is placed once.
func (run *Run) Place(ctx context.Context, obj *yaml.Node) ([]Placement, error) {
	input, err := yamlvalue.Rego(obj, run.rules.skip)
	if err != nil {
		return nil, err
	}
	key, ok, err := run.placementKey(ctx, input)
	if err != nil || !ok {
		return nil, err // not a workload, or no inventory
	}
	var p []Placement
	if cached, ok := run.placed.Load(key); ok {
		p = cached.([]Placement)
	} else if p, err = run.place(ctx, input, key); err != nil {
		return nil, err
	} else {
		run.placed.Store(key, p)
	}
	return run.withCapacity(ctx, input, key, p)
}

// withCapacity is p, shared by the workloads with the same placement key,
// with what depends on this workload alone (rego/main.rego: schedule): how
// many of its replicas land, which also reads its replicas, labels and pod
// (anti-)affinity, and the declared pools whose ownership it breaks, which
// read its namespace and labels. It hands the library the placement it
// worked out (give), so that only those are evaluated.
func (run *Run) withCapacity(ctx context.Context, input ast.Value, key string, p []Placement) ([]Placement, error) {
	if err := run.give(ctx, input, key); err != nil {
		return nil, err
	}
	var pods []struct {
		Capacity  Capacity         `json:"capacity"`
		Ownership []OwnershipBreak `json:"ownership"`
	}
	if found, err := evalInto(ctx, run.scheduleQ, input, "capacity", &pods); err != nil || !found {
		return p, err
	}
	if len(pods) != len(p) {
		return nil, fmt.Errorf("capacity result: %d pod templates, placement has %d", len(pods), len(p))
	}
	out := make([]Placement, len(p))
	for i := range p {
		out[i] = p[i]
		out[i].Capacity = pods[i].Capacity
		if len(pods[i].Ownership) > 0 {
			out[i].Ownership = pods[i].Ownership
		}
	}
	return out, nil
}

// placementKey is all placement reads of the workload in input, as a string
// (rego/placement.rego: keys); ok is false when there is nothing to place.
func (run *Run) placementKey(ctx context.Context, input ast.Value) (key string, ok bool, err error) {
	rs, err := run.placeKey.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
	if err != nil {
		return "", false, fmt.Errorf("evaluate placement: %w", err)
	}
	if len(rs) == 0 {
		return "", false, nil
	}
	b, err := json.Marshal(rs[0].Expressions[0].Value)
	return string(b), err == nil, err
}

// give adds to a workload's input what its rules read of the placement of
// each of its pods (rego/placement.rego: given), as input.__dslint: rules
// would work it out from the inventory for every workload, and workloads
// that read alike share it. key is the workload's placement key, "" for
// an object with nothing to place.
func (run *Run) give(ctx context.Context, input ast.Value, key string) error {
	obj, isObj := input.(ast.Object)
	if key == "" || !isObj {
		return nil
	}
	given, cached := run.givenByKey.Load(key)
	if !cached {
		rs, err := run.givenQ.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
		if err != nil {
			return fmt.Errorf("evaluate placement: %w", err)
		}
		if len(rs) == 0 {
			return nil
		}
		v, err := ast.InterfaceToValue(rs[0].Expressions[0].Value)
		if err != nil {
			return err
		}
		given = v
		run.givenByKey.Store(key, v)
	}
	obj.Insert(ast.StringTerm(givenKey), ast.NewTerm(given.(ast.Value)))
	return nil
}

// giveKey gives a workload's input what its rules read of its placement
// (give), when there is an inventory to place it on.
func (run *Run) giveKey(ctx context.Context, input ast.Value) error {
	if run.inventory == nil {
		return nil
	}
	key, ok, err := run.placementKey(ctx, input)
	if err != nil || !ok {
		return err
	}
	return run.give(ctx, input, key)
}

// givenKey is the member of input where dslint hands rules what it already
// knows about the object; no Kubernetes object has it.
const givenKey = "__dslint"

// placementVerdict is a verdict as rego/placement.rego writes it.
type placementVerdict struct {
	Fits   bool   `json:"fits"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// podSummary is the placement of one pod as rego/placement.rego writes it
// (summaries): where its template is, its verdicts, and what rules read of
// it (pod_given).
type podSummary struct {
	Where   string          `json:"where"`
	Given   json.RawMessage `json:"given"`
	Summary struct {
		LabelVerdicts []placementVerdict `json:"label_verdicts"`
		TaintVerdicts []placementVerdict `json:"taint_verdicts"`
		Apart         []apartVerdict     `json:"apart"`
		Eligible      int                `json:"eligible"`
	} `json:"summary"`
}

// apartVerdict is the verdict on a pool whose nodes may fare differently.
type apartVerdict struct {
	Pool   int                  `json:"pool"`
	Groups [][2]json.RawMessage `json:"groups"`
	Others *placementVerdict    `json:"others"`
	placementVerdict
}

// place works out where the pods of the workload in input can land, and
// keeps what its rules read of that (give) under its placement key.
func (run *Run) place(ctx context.Context, input ast.Value, key string) ([]Placement, error) {
	var pods []podSummary
	if found, err := evalInto(ctx, run.placement, input, "placement", &pods); err != nil || !found {
		return nil, err
	}
	out := make([]Placement, 0, len(pods))
	given := make([]*ast.Term, 0, len(pods))
	for _, pod := range pods {
		p, err := run.placeOne(pod)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		g, err := ast.ValueFromReader(bytes.NewReader(pod.Given))
		if err != nil {
			return nil, fmt.Errorf("placement result: %w", err)
		}
		given = append(given, ast.NewTerm(g))
	}
	run.givenByKey.LoadOrStore(key, ast.NewArray(given...))
	return out, nil
}

// evalInto evaluates q on input and decodes its value into out; found is
// false when q is undefined. what names the query in errors.
func evalInto(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value, what string, out any) (found bool, err error) {
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
	if err != nil {
		return false, fmt.Errorf("evaluate %s: %w", what, err)
	}
	if len(rs) == 0 {
		return false, nil
	}
	raw, err := json.Marshal(rs[0].Expressions[0].Value)
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return false, fmt.Errorf("%s result: %w", what, err)
	}
	return true, nil
}

// placeOne reads the placement of one pod: a verdict for each pool of the
// inventory.
func (run *Run) placeOne(pod podSummary) (Placement, error) {
	var pools []inventory.PoolData
	if run.inventory != nil {
		pools = run.inventory.Pools
	}
	s := pod.Summary
	p := Placement{Template: pod.Where, Eligible: s.Eligible, Pools: make([]PoolVerdict, len(pools))}
	// A pool's verdict is its label set's when that blocks, else its taint
	// set's (rego/placement.rego, _pool_wide); no label verdicts: all fit.
	for i, pool := range pools {
		v := placementVerdict{Fits: true}
		if pool.LabelSet < len(s.LabelVerdicts) {
			v = s.LabelVerdicts[pool.LabelSet]
		}
		if v.Fits && pool.TaintSet < len(s.TaintVerdicts) {
			v = s.TaintVerdicts[pool.TaintSet]
		}
		p.Pools[i] = PoolVerdict{Pool: i, NodeVerdict: NodeVerdict(v)}
	}
	for _, a := range s.Apart {
		if a.Pool < 0 || a.Pool >= len(p.Pools) {
			return Placement{}, fmt.Errorf("placement result names pool %d of %d", a.Pool, len(p.Pools))
		}
		pv := PoolVerdict{Pool: a.Pool, NodeVerdict: NodeVerdict(a.placementVerdict)}
		if a.Others != nil {
			pv.Nodes = map[int]NodeVerdict{}
			pv.Others = NodeVerdict(*a.Others)
			for _, g := range a.Groups {
				var nodes []int
				var n placementVerdict
				if err := errors.Join(json.Unmarshal(g[0], &nodes), json.Unmarshal(g[1], &n)); err != nil {
					return Placement{}, fmt.Errorf("placement result: %w", err)
				}
				for _, j := range nodes {
					pv.Nodes[j] = NodeVerdict(n)
				}
			}
		}
		p.Pools[a.Pool] = pv
	}
	return p, nil
}

// Problem is a validation problem of a part of the inventory: the Index-th
// entry of the Part ("labels", "taints" or "unschedulable") given to
// InventoryProblems, and the path inside it.
type Problem struct {
	Part    string
	Index   int
	Path    []any
	Message string
}

// InventoryProblems validates the distinct parts of the inventory's nodes:
// parts["labels"] holds [key, value] pairs, parts["taints"] taint lists,
// parts["unschedulable"] values.
func (run *Run) InventoryProblems(ctx context.Context, parts map[string][]any) ([]Problem, error) {
	rs, err := run.nodeCheck.Eval(ctx, rego.EvalInput(parts))
	if err != nil {
		return nil, fmt.Errorf("validate nodes: %w", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	items, _ := rs[0].Expressions[0].Value.([]any)
	out := make([]Problem, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		path, err := decodePath(m["path"])
		if err != nil {
			return nil, err
		}
		p := Problem{Path: path}
		p.Part, _ = m["part"].(string)
		p.Message, _ = m["message"].(string)
		i, _ := m["index"].(json.Number).Int64()
		p.Index = int(i)
		out = append(out, p)
	}
	return out, nil
}
