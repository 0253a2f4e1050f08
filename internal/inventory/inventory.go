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
	"maps"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/manifest"
)

// PerNodeLabel is true for a label key whose value differs from node to
// node within one pool: the hostname and the zone (topology.kubernetes.io/zone
// and every other */zone, such as CSI drivers' topology labels). They do not
// split pools; a workload that constrains one is judged node by node.
func PerNodeLabel(key string) bool {
	return key == hostnameLabel || strings.HasSuffix(key, "/zone")
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
	// Allocatable is what the node offers pods, as written
	// (status.allocatable, else status.capacity); nil when the node says
	// neither, and then resources are not judged on it.
	Allocatable map[string]any
	Pos         manifest.Pos // where the node is defined
	Pool        string
	// Declared is true for the probe node of a pool declared without
	// nodes: it is checked as a node is, never placed.
	Declared bool

	// Locate gives the position of a field of the node (a path as rules
	// use them), for problems; nil means the node's own position.
	Locate func(path []any) manifest.Pos
}

// Position is where a field of the node is defined.
func (n *Node) Position(path []any) manifest.Pos {
	if n.Locate != nil {
		return n.Locate(path)
	}
	return n.Pos
}

// Pool is a group of nodes with the same labels (per-node labels aside),
// taints, cordoning and allocatable resources.
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
		withHostname(n)
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

// hostnameLabel is the label the kubelet puts on every node: the node's
// hostname, its name unless the kubelet is told otherwise. Pod
// anti-affinity and topology spread on kubernetes.io/hostname (the most
// common key) read it.
const hostnameLabel = "kubernetes.io/hostname"

// withHostname gives a node written without kubernetes.io/hostname (a
// hand-written inventory) the label the kubelet would give it: its name.
func withHostname(n *Node) {
	if _, ok := n.Labels[hostnameLabel]; ok || n.Name == "" {
		return
	}
	if n.Labels == nil {
		n.Labels = map[string]any{}
	} else {
		n.Labels = maps.Clone(n.Labels)
	}
	n.Labels[hostnameLabel] = n.Name
}

// Empty is true when there is no node to place workloads on.
func (inv *Inventory) Empty() bool { return inv == nil || len(inv.Nodes) == 0 }

// groupKey is what nodes of one pool have alike: labels but the per-node
// ones, taints as far as tolerations can tell them apart (key, value and
// effect: not timeAdded), cordoning and allocatable resources.
func groupKey(n *Node) string {
	taints := make([]any, len(n.Taints))
	for i, t := range n.Taints {
		taints[i] = matchable(t)
	}
	key, _ := json.Marshal([]any{shared(n.Labels), taints, n.Unschedulable == true, n.Allocatable})
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
