package inventory

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Data is the inventory as Rego reads it at data.dslint.inventory, field for
// field (rego/placement.rego); the engine hands it to the rules once per
// run. Pools share label sets and taint sets, so that placement judges each
// set once per workload, and each pool indexes its nodes by name and by
// per-node label value, so that a workload naming a node finds it without a
// scan. Rego tests build the same shape with data.dslint.test.inventory
// (rego/testing_test.rego), which TestRegoInventoryHelper holds to it.
type Data struct {
	Pools []PoolData `json:"pools"`
	// PerNodeKeys are the per-node label keys of any pool, in order of
	// appearance.
	PerNodeKeys []string `json:"per_node_keys"`
	// UniqueKeys are the per-node keys whose every value is on one node
	// of the inventory (the hostname, as the kubelet sets it): a topology
	// domain of such a key is a node.
	UniqueKeys []string `json:"unique_keys"`
	// LabelSets are the distinct label sets the nodes of a pool share.
	LabelSets []map[string]any `json:"label_sets"`
	// TaintSets are the distinct taint lists, cordoning and allocatable
	// resources of the pools: what a node carries beyond its labels.
	TaintSets []TaintSet `json:"taint_sets"`
	// Allocatables are the distinct allocatables of the taint sets in the
	// scheduler's units, by their JSON as Rego writes it, worked out once
	// per run by the engine with the library (placement.allocated_units).
	Allocatables map[string]any `json:"allocatables,omitzero"`
	// Taints are the distinct taints as tolerations tell them apart (key,
	// value and effect); TaintSets name them by index.
	Taints []any `json:"taints"`
	// PoolsBySets[label set][taint set] are the pools (by index) with that
	// label set and taint set; the taint set is a decimal key.
	PoolsBySets []map[string][]int `json:"pools_by_sets"`
	// PoolsByTaintSet[taint set] are the pools with that taint set.
	PoolsByTaintSet [][]int `json:"pools_by_taint_set"`
}

// PoolData is one pool as Rego reads it.
type PoolData struct {
	Name string `json:"name"`
	// Node is a Node object with what every node of the pool has alike: the
	// shared labels, the taints and the cordoning.
	Node  NodeObject   `json:"node"`
	Nodes []NodeObject `json:"nodes"`
	// Varying are the per-node label keys some node of the pool has.
	Varying []string `json:"varying"`
	// Everywhere are the varying keys every node of the pool has: a pod
	// that needs such a key on its node (a topology key) finds it on all.
	Everywhere []string `json:"everywhere"`
	// Names are the indexes of the pool's nodes by name.
	Names map[string]int `json:"names"`
	// ByLabel[key][value] are the nodes (by index) whose per-node label key
	// has that value.
	ByLabel  map[string]map[string][]int `json:"by_label"`
	LabelSet int                         `json:"label_set"` // index in Data.LabelSets
	TaintSet int                         `json:"taint_set"` // index in Data.TaintSets
}

// TaintSet is a pool's taints, as indexes in Data.Taints, its cordoning and
// what its nodes allocate.
type TaintSet struct {
	Taints        []int          `json:"taints"`
	Unschedulable any            `json:"unschedulable,omitzero"` // as written; absent when unset
	Allocatable   map[string]any `json:"allocatable,omitzero"`   // as written; absent when unknown
	// Allocated is Allocatable in the units of the scheduler, worked out
	// once per run by the engine with the library (placement.allocated_units).
	Allocated map[string]any `json:"allocated,omitzero"`
}

// NodeObject is a node as a Kubernetes Node object, with the fields
// placement reads. Fields the node does not set are absent, as in the
// manifest.
type NodeObject struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   NodeMeta   `json:"metadata"`
	Spec       NodeSpec   `json:"spec"`
	Status     NodeStatus `json:"status,omitzero"`
}

// NodeStatus is the status of a NodeObject: what the node allocates.
type NodeStatus struct {
	Allocatable map[string]any `json:"allocatable,omitzero"`
}

// NodeMeta is the metadata of a NodeObject.
type NodeMeta struct {
	Name   string         `json:"name"`
	Labels map[string]any `json:"labels,omitzero"`
}

// NodeSpec is the spec of a NodeObject.
type NodeSpec struct {
	Taints        []any `json:"taints,omitzero"` // as written: mappings with key, value and effect
	Unschedulable any   `json:"unschedulable,omitzero"`
}

// object is the node as a Node object.
func (n *Node) object() NodeObject {
	return NodeObject{
		APIVersion: "v1", Kind: "Node",
		Metadata: NodeMeta{Name: n.Name, Labels: n.Labels},
		Spec:     NodeSpec{Taints: n.Taints, Unschedulable: n.Unschedulable},
		Status:   NodeStatus{Allocatable: n.Allocatable},
	}
}

// Data is the inventory as Rego reads it.
func (inv *Inventory) Data() *Data {
	d := &Data{}
	var labelSets, taintSets, taints distinct
	for _, p := range inv.Pools {
		first := p.Nodes[0]
		rep := (&Node{Labels: p.Labels, Taints: first.Taints, Unschedulable: first.Unschedulable, Allocatable: first.Allocatable}).object()
		pool := PoolData{
			Name: p.Name, Node: rep,
			Varying:    append([]string{}, p.Varying...),
			Everywhere: []string{},
			Names:      make(map[string]int, len(p.Nodes)),
			ByLabel:    map[string]map[string][]int{},
			LabelSet:   labelSets.index(p.Labels),
			TaintSet:   taintSets.index(taintSet(first, &taints)),
		}
		for j, n := range p.Nodes {
			pool.Nodes = append(pool.Nodes, n.object())
			pool.Names[n.Name] = j
		}
		for _, k := range p.Varying {
			byValue := map[string][]int{}
			for j, n := range p.Nodes {
				if v, ok := n.Labels[k].(string); ok {
					byValue[v] = append(byValue[v], j)
				}
			}
			pool.ByLabel[k] = byValue
			if on := nodesWith(byValue); on == len(p.Nodes) {
				pool.Everywhere = append(pool.Everywhere, k)
			}
			if !slices.Contains(d.PerNodeKeys, k) {
				d.PerNodeKeys = append(d.PerNodeKeys, k)
			}
		}
		d.Pools = append(d.Pools, pool)
	}
	d.UniqueKeys = uniqueKeys(inv, d.PerNodeKeys)
	for _, v := range labelSets.values {
		d.LabelSets = append(d.LabelSets, v.(map[string]any))
	}
	for _, v := range taintSets.values {
		d.TaintSets = append(d.TaintSets, v.(TaintSet))
	}
	d.Taints = taints.values
	d.PoolsBySets = make([]map[string][]int, len(d.LabelSets))
	d.PoolsByTaintSet = make([][]int, len(d.TaintSets))
	for i, p := range d.Pools {
		if d.PoolsBySets[p.LabelSet] == nil {
			d.PoolsBySets[p.LabelSet] = map[string][]int{}
		}
		ts := strconv.Itoa(p.TaintSet)
		d.PoolsBySets[p.LabelSet][ts] = append(d.PoolsBySets[p.LabelSet][ts], i)
		d.PoolsByTaintSet[p.TaintSet] = append(d.PoolsByTaintSet[p.TaintSet], i)
	}
	return d
}

// uniqueKeys are the keys whose values no two nodes share.
func uniqueKeys(inv *Inventory, keys []string) []string {
	out := []string{}
	for _, k := range keys {
		seen := map[string]bool{}
		unique := true
		for _, p := range inv.Pools {
			for _, n := range p.Nodes {
				if v, ok := n.Labels[k].(string); ok {
					unique = unique && !seen[v]
					seen[v] = true
				}
			}
		}
		if unique {
			out = append(out, k)
		}
	}
	return out
}

// nodesWith counts the nodes indexed by value.
func nodesWith(byValue map[string][]int) int {
	n := 0
	for _, js := range byValue {
		n += len(js)
	}
	return n
}

// matchable is a taint as tolerations see it: key, value and effect
// (timeAdded tells nodes apart that no toleration can tell apart).
func matchable(t any) any {
	if m, ok := t.(map[string]any); ok {
		return map[string]any{"key": m["key"], "value": m["value"], "effect": m["effect"]}
	}
	return t
}

// taintSet is a node's taints as indexes into the inventory's distinct
// taints, with its cordoning.
func taintSet(n *Node, taints *distinct) TaintSet {
	set := TaintSet{Taints: make([]int, 0, len(n.Taints)), Unschedulable: n.Unschedulable, Allocatable: n.Allocatable}
	for _, t := range n.Taints {
		set.Taints = append(set.Taints, taints.index(matchable(t)))
	}
	return set
}

// distinct numbers values, equal values alike.
type distinct struct {
	values []any
	seen   map[string]int
}

func (d *distinct) index(v any) int {
	key, _ := json.Marshal(v)
	if i, ok := d.seen[string(key)]; ok {
		return i
	}
	if d.seen == nil {
		d.seen = map[string]int{}
	}
	d.seen[string(key)] = len(d.values)
	d.values = append(d.values, v)
	return len(d.values) - 1
}
