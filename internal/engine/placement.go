package engine

import (
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

// Placement is where the pods of one workload can land.
type Placement struct {
	Workload bool // false: not a workload, nothing to place
	Pools    []PoolVerdict
	Eligible int // nodes its pods can land on (a DaemonSet's DESIRED)
}

// Place evaluates the placement of one object on the run's inventory.
// Placement reads little of a workload (rego/placement.rego: key), and many
// workloads of a run share it: each distinct key is placed once.
func (run *Run) Place(ctx context.Context, obj *yaml.Node) (Placement, error) {
	input, err := yamlvalue.Rego(obj, run.rules.skip)
	if err != nil {
		return Placement{}, err
	}
	key, ok, err := run.placementKey(ctx, input)
	if err != nil || !ok {
		return Placement{}, err // not a workload, or no inventory
	}
	if p, ok := run.placed.Load(key); ok {
		return p.(Placement), nil
	}
	p, err := run.place(ctx, input)
	if err == nil {
		run.placed.Store(key, p)
	}
	return p, err
}

// placementKey is all placement reads of the workload in input, as a string
// (rego/placement.rego: key); ok is false when there is nothing to place.
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

// give adds to a workload's input what its rules read of its placement
// (rego/placement.rego: given), as input.__dslint: rules would work it out
// from the inventory for every workload, and workloads that read alike
// share it.
func (run *Run) give(ctx context.Context, input ast.Value) error {
	obj, isObj := input.(ast.Object)
	if run.inventory == nil || !isObj {
		return nil
	}
	key, ok, err := run.placementKey(ctx, input)
	if err != nil || !ok {
		return err
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

// givenKey is the member of input where dslint hands rules what it already
// knows about the object; no Kubernetes object has it.
const givenKey = "__dslint"

func (run *Run) place(ctx context.Context, input ast.Value) (Placement, error) {
	rs, err := run.placement.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
	if err != nil {
		return Placement{}, fmt.Errorf("evaluate placement: %w", err)
	}
	if len(rs) == 0 {
		return Placement{}, nil
	}
	raw, err := json.Marshal(rs[0].Expressions[0].Value)
	if err != nil {
		return Placement{}, err
	}
	type verdict struct {
		Fits   bool   `json:"fits"`
		Reason string `json:"reason"`
		Detail string `json:"detail"`
	}
	type apart struct {
		Pool   int                  `json:"pool"`
		Groups [][2]json.RawMessage `json:"groups"`
		Others *verdict             `json:"others"`
		verdict
	}
	var out struct {
		LabelVerdicts []verdict `json:"label_verdicts"`
		TaintVerdicts []verdict `json:"taint_verdicts"`
		Apart         []apart   `json:"apart"`
		Eligible      int       `json:"eligible"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return Placement{}, fmt.Errorf("placement result: %w", err)
	}
	var pools []inventory.PoolData
	if run.inventory != nil {
		pools = run.inventory.Pools
	}
	p := Placement{Workload: true, Eligible: out.Eligible, Pools: make([]PoolVerdict, len(pools))}
	// A pool's verdict is its label set's when that blocks, else its taint
	// set's (rego/placement.rego, _pool_wide); no label verdicts: all fit.
	for i, pool := range pools {
		v := verdict{Fits: true}
		if pool.LabelSet < len(out.LabelVerdicts) {
			v = out.LabelVerdicts[pool.LabelSet]
		}
		if v.Fits && pool.TaintSet < len(out.TaintVerdicts) {
			v = out.TaintVerdicts[pool.TaintSet]
		}
		p.Pools[i] = PoolVerdict{Pool: i, NodeVerdict: NodeVerdict(v)}
	}
	for _, a := range out.Apart {
		if a.Pool < 0 || a.Pool >= len(p.Pools) {
			return Placement{}, fmt.Errorf("placement result names pool %d of %d", a.Pool, len(p.Pools))
		}
		pv := PoolVerdict{Pool: a.Pool, NodeVerdict: NodeVerdict(a.verdict)}
		if a.Others != nil {
			pv.Nodes = map[int]NodeVerdict{}
			pv.Others = NodeVerdict(*a.Others)
			for _, g := range a.Groups {
				var nodes []int
				var n verdict
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
