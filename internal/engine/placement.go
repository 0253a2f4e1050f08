package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Verdict of one node, or of a whole pool: it fits, or the first filter that
// blocks it.
type NodeVerdict struct {
	Fits   bool
	Reason string // node-name, node-selector, node-affinity, taint, unschedulable
	Detail string
}

// PoolVerdict is the verdict on one pool of the inventory: one for the whole
// pool, or one per node (Nodes) when the workload may fare differently on
// its nodes.
type PoolVerdict struct {
	Pool int
	NodeVerdict
	Nodes []NodeVerdict
}

// Placement is where the pods of one workload can land.
type Placement struct {
	Workload bool // false: not a workload, nothing to place
	Pools    []PoolVerdict
	Eligible int // nodes its pods can land on (a DaemonSet's DESIRED)
}

// Place evaluates the placement of one object on the engine's inventory.
func (e *Engine) Place(ctx context.Context, obj *yaml.Node) (Placement, error) {
	input, err := toValue(obj, e.skip)
	if err != nil {
		return Placement{}, err
	}
	rs, err := e.placement.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(metrics.NoOp()))
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
	var out struct {
		Verdicts []struct {
			Pool   int    `json:"pool"`
			Fits   bool   `json:"fits"`
			Reason string `json:"reason"`
			Detail string `json:"detail"`
			Nodes  []struct {
				Fits   bool   `json:"fits"`
				Reason string `json:"reason"`
				Detail string `json:"detail"`
			} `json:"nodes"`
		} `json:"verdicts"`
		Eligible int `json:"eligible"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return Placement{}, fmt.Errorf("placement result: %w", err)
	}
	p := Placement{Workload: true, Eligible: out.Eligible}
	for _, v := range out.Verdicts {
		pv := PoolVerdict{Pool: v.Pool, NodeVerdict: NodeVerdict{Fits: v.Fits, Reason: v.Reason, Detail: v.Detail}}
		if v.Nodes != nil {
			pv.Nodes = make([]NodeVerdict, len(v.Nodes))
			for i, n := range v.Nodes {
				pv.Nodes[i] = NodeVerdict{Fits: n.Fits, Reason: n.Reason, Detail: n.Detail}
			}
		}
		p.Pools = append(p.Pools, pv)
	}
	return p, nil
}

// Problem is a validation problem of an inventory node, at a field path.
type Problem struct {
	Path    []any
	Message string
}

// NodeProblems validates one node of the inventory, given as a Node object.
func (e *Engine) NodeProblems(ctx context.Context, node map[string]any) ([]Problem, error) {
	rs, err := e.nodeCheck.Eval(ctx, rego.EvalInput(node))
	if err != nil {
		return nil, fmt.Errorf("validate node: %w", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	items, _ := rs[0].Expressions[0].Value.([]any)
	var out []Problem
	for _, it := range items {
		m, _ := it.(map[string]any)
		path, err := decodePath(m["path"])
		if err != nil {
			return nil, err
		}
		msg, _ := m["message"].(string)
		out = append(out, Problem{Path: path, Message: msg})
	}
	return out, nil
}

// Data is a YAML node as rules read it, as plain Go values (maps, slices,
// strings, json.Number, bools, nil), with every field kept.
func Data(n *yaml.Node) (any, error) {
	v, err := toValue(n, nil)
	if err != nil {
		return nil, err
	}
	return ast.JSON(v)
}
