// Package inventory holds the nodes dslint places workloads on: Node objects
// among the inputs, --nodes files (kubectl get nodes -o yaml or -o json) and
// pools from the config. Nodes that share labels (per-node labels aside),
// taints and cordoning form a pool, so that placement costs one judgement
// per pool rather than per node. Whether a workload fits a node is decided in
// Rego (rego/placement.rego); this package only gathers and groups.
package inventory

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// PerNodeLabel is true for a label key whose value differs from node to
// node within one pool: the hostname and the zone (topology.kubernetes.io/zone
// and every other */zone, such as CSI drivers' topology labels). They do not
// split pools; a workload that constrains one is judged node by node.
func PerNodeLabel(key string) bool {
	return key == "kubernetes.io/hostname" || strings.HasSuffix(key, "/zone")
}

// poolLabels name a node's pool on the common platforms, most specific first.
var poolLabels = []string{
	"cloud.google.com/gke-nodepool",
	"eks.amazonaws.com/nodegroup",
	"alpha.eksctl.io/nodegroup-name",
	"kubernetes.azure.com/agentpool",
	"agentpool",
	"karpenter.sh/nodepool",
	"karpenter.sh/provisioner-name",
	"doks.digitalocean.com/node-pool",
	"node.kubernetes.io/pool",
	"node-pool",
	"nodepool",
	"pool",
}

// Node is one node, with its fields as Rego sees them.
type Node struct {
	Name          string
	Labels        map[string]any
	Taints        []any // as written: mappings with key, value and effect
	Unschedulable any   // true, false or nil; anything else is a problem
	File          string
	Line, Column  int // where the node is defined
	Pool          string

	// Locate gives the position of a field of the node (a path as rules
	// use them), for problems; nil means the node's own position.
	Locate func(path []any) (line, column int)
}

// Object is the node as a Node object, as placement and validation read it.
func (n *Node) Object() map[string]any {
	meta := map[string]any{"name": n.Name}
	if n.Labels != nil {
		meta["labels"] = n.Labels
	}
	spec := map[string]any{}
	if n.Taints != nil {
		spec["taints"] = n.Taints
	}
	if n.Unschedulable != nil {
		spec["unschedulable"] = n.Unschedulable
	}
	return map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": meta, "spec": spec}
}

// Position is where a field of the node is defined.
func (n *Node) Position(path []any) (line, column int) {
	if n.Locate != nil {
		return n.Locate(path)
	}
	return n.Line, n.Column
}

// Pool is a group of nodes with the same labels (per-node labels aside),
// taints and cordoning.
type Pool struct {
	Name    string
	Nodes   []*Node
	Labels  map[string]any // the labels every node of the pool has alike
	Varying []string       // per-node label keys some node of the pool has
}

// Inventory is every node of the run, grouped into pools.
type Inventory struct {
	Nodes []*Node
	Pools []*Pool
}

// New groups nodes into pools, in the order they first appear. A node named
// like an earlier one is left out: the first definition wins.
func New(nodes []*Node) *Inventory {
	inv := &Inventory{}
	seen := map[string]bool{}
	byKey := map[string]*Pool{}
	var keys []string
	for _, n := range nodes {
		if seen[n.Name] {
			continue
		}
		seen[n.Name] = true
		inv.Nodes = append(inv.Nodes, n)
		key := groupKey(n)
		p := byKey[key]
		if p == nil {
			p = &Pool{Labels: shared(n.Labels)}
			byKey[key] = p
			keys = append(keys, key)
		}
		p.Nodes = append(p.Nodes, n)
		for k := range n.Labels {
			if PerNodeLabel(k) && !slices.Contains(p.Varying, k) {
				p.Varying = append(p.Varying, k)
			}
		}
	}
	for _, k := range keys {
		slices.Sort(byKey[k].Varying)
		inv.Pools = append(inv.Pools, byKey[k])
	}
	nameTaken := map[string]int{}
	for _, p := range inv.Pools {
		p.Name = uniqueName(poolName(p), nameTaken)
		for _, n := range p.Nodes {
			n.Pool = p.Name
		}
	}
	return inv
}

// Empty is true when there is no node to place workloads on.
func (inv *Inventory) Empty() bool { return inv == nil || len(inv.Nodes) == 0 }

// Data is the inventory as Rego reads it at data.dslint.inventory, with
// indexes of each pool's nodes by name and by per-node label value, so that
// a workload naming a node finds it without a scan.
func (inv *Inventory) Data() map[string]any {
	pools := make([]any, 0, len(inv.Pools))
	var labelSets, taintSets, taints distinct
	for _, p := range inv.Pools {
		nodes := make([]any, 0, len(p.Nodes))
		for _, n := range p.Nodes {
			nodes = append(nodes, n.Object())
		}
		first := p.Nodes[0]
		rep := (&Node{Labels: p.Labels, Taints: first.Taints, Unschedulable: first.Unschedulable}).Object()
		varying := make([]any, 0, len(p.Varying))
		byLabel := map[string]any{}
		for _, k := range p.Varying {
			varying = append(varying, k)
			byValue := map[string][]any{}
			for j, n := range p.Nodes {
				if v, ok := n.Labels[k].(string); ok {
					byValue[v] = append(byValue[v], j)
				}
			}
			byLabel[k] = byValue
		}
		names := make(map[string]any, len(p.Nodes))
		for j, n := range p.Nodes {
			names[n.Name] = j
		}
		pools = append(pools, map[string]any{
			"name": p.Name, "node": rep, "nodes": nodes,
			"varying": varying, "names": names, "by_label": byLabel,
			"label_set": labelSets.index(rep["metadata"].(map[string]any)["labels"]),
			"taint_set": taintSets.index(taintSet(first, &taints)),
		})
	}
	var perNode []any
	for _, p := range inv.Pools {
		for _, k := range p.Varying {
			if !slices.Contains(perNode, any(k)) {
				perNode = append(perNode, k)
			}
		}
	}
	bySets := map[string]any{} // label set -> taint set -> pool indexes
	for i, p := range pools {
		m := p.(map[string]any)
		ls, ts := fmt.Sprint(m["label_set"]), fmt.Sprint(m["taint_set"])
		if bySets[ls] == nil {
			bySets[ls] = map[string]any{}
		}
		byTaints := bySets[ls].(map[string]any)
		list, _ := byTaints[ts].([]any)
		byTaints[ts] = append(list, i)
	}
	byLabelSet := make([]any, len(labelSets.values))
	for i := range byLabelSet {
		byLabelSet[i] = bySets[fmt.Sprint(i)]
	}
	byTaintSet := make([]any, len(taintSets.values))
	for i, p := range pools {
		ts := p.(map[string]any)["taint_set"].(int)
		list, _ := byTaintSet[ts].([]any)
		byTaintSet[ts] = append(list, i)
	}
	return map[string]any{
		"pools": pools, "per_node_keys": perNode, "pools_by_sets": byLabelSet, "pools_by_taint_set": byTaintSet,
		"label_sets": labelSets.values, "taint_sets": taintSets.values, "taints": taints.values,
	}
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
// taints, with its cordoning: {"taints": [i...], "unschedulable": u}.
func taintSet(n *Node, taints *distinct) map[string]any {
	idx := make([]any, 0, len(n.Taints))
	for _, t := range n.Taints {
		idx = append(idx, taints.index(matchable(t)))
	}
	set := map[string]any{"taints": idx}
	if n.Unschedulable != nil {
		set["unschedulable"] = n.Unschedulable
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

// groupKey is what nodes of one pool have alike: labels but the per-node
// ones, taints as far as tolerations can tell them apart (key, value and
// effect: not timeAdded), cordoning.
func groupKey(n *Node) string {
	taints := make([]any, len(n.Taints))
	for i, t := range n.Taints {
		taints[i] = matchable(t)
	}
	key, _ := json.Marshal([]any{shared(n.Labels), taints, n.Unschedulable == true})
	return string(key)
}

// shared is labels without the per-node ones.
func shared(labels map[string]any) map[string]any {
	out := make(map[string]any, len(labels))
	for k, v := range labels {
		if !PerNodeLabel(k) {
			out[k] = v
		}
	}
	return out
}

// poolName names a pool after its platform pool label, its node role, or
// what its nodes' names have in common, in that order.
func poolName(p *Pool) string {
	name := p.Nodes[0].Pool // declared in the config
	for _, k := range poolLabels {
		if name != "" {
			break
		}
		if v, ok := p.Labels[k].(string); ok && v != "" {
			name = v
			break
		}
	}
	if name == "" {
		for k := range p.Labels {
			if role, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && role != "" && (name == "" || role < name) {
				name = role
			}
		}
	}
	if name == "" {
		name = commonStem(p.Nodes)
	}
	if p.Nodes[0].Unschedulable == true {
		name += " (cordoned)"
	}
	return name
}

// commonStem is the longest common prefix of the pool's node names without
// trailing digits and separators ("gpu-1", "gpu-2" → "gpu"), or the first
// name when they have none.
func commonStem(nodes []*Node) string {
	prefix := nodes[0].Name
	for _, n := range nodes[1:] {
		for !strings.HasPrefix(n.Name, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	stem := strings.TrimRight(prefix, "0123456789-_.")
	if stem == "" {
		return nodes[0].Name
	}
	return stem
}

func uniqueName(name string, taken map[string]int) string {
	taken[name]++
	if taken[name] == 1 {
		return name
	}
	return fmt.Sprintf("%s-%d", name, taken[name])
}
