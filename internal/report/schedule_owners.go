package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/inventory"
)

// ownedPool is a pool the config declares with owners, and the pools of
// the inventory that are its nodes.
type ownedPool struct {
	config.Pool
	Members []int // indexes of inventory pools
	Nodes   int   // the nodes of those pools
}

// ownedPools are the declared pools with owners, in the order of the
// config, each with the inventory pools that are its nodes (members).
func ownedPools(declared []config.Pool, inv *inventory.Inventory) []ownedPool {
	var out []ownedPool
	for _, d := range declared {
		if d.Owners == nil {
			continue
		}
		o := ownedPool{Pool: d}
		for i, p := range inv.Pools {
			if member(d, p) {
				o.Members = append(o.Members, i)
				o.Nodes += len(p.Nodes)
			}
		}
		out = append(out, o)
	}
	return out
}

// member is true when the inventory pool p is nodes of the declared pool d:
// the nodes the config makes of it (with a count: the inventory pool of the
// same name), or nodes that all carry every label it declares.
func member(d config.Pool, p *inventory.Pool) bool {
	if d.Inventory() && p.Name == d.Name {
		return true
	}
	if len(d.Labels) == 0 {
		return false
	}
	for _, n := range p.Nodes {
		for k, v := range d.Labels {
			if got, ok := n.Labels[k].(string); !ok || got != v {
				return false
			}
		}
	}
	return true
}

// markNotOwners marks the cells of each row where the workload fits the
// nodes of a declared pool whose ownership it breaks.
func markNotOwners(rows []row, owned []ownedPool) {
	members := make(map[string][]int, len(owned))
	for _, o := range owned {
		members[o.Name] = o.Members
	}
	for _, r := range rows {
		for _, b := range r.p.Ownership {
			for _, i := range members[b.Pool] {
				if r.cells[i].Fit > 0 {
					r.cells[i].NotOwner = true
				}
			}
		}
	}
}

// notOwnerLegend explains the mark of markNotOwners.
const notOwnerLegend = "not owner: the workload fits nodes of a pool that .dslint.yaml gives owners, and is not among them (dslint lint: pool-ownership)"

// ownersLines say who owns each declared pool with owners, and which of
// the inventory's nodes are its own.
func ownersLines(owned []ownedPool, inv *inventory.Inventory) []string {
	out := make([]string, 0, len(owned))
	for _, o := range owned {
		out = append(out, fmt.Sprintf("pool %s%s: owners %s", o.Name, ownedNodes(o, inv), ownersText(o.Owners)))
	}
	return out
}

// ownedNodes says which nodes of the inventory are the pool's: " (2
// nodes)", " (4 nodes: gpu-a, gpu-b)" when the inventory pools are named
// otherwise, or that there are none.
func ownedNodes(o ownedPool, inv *inventory.Inventory) string {
	if len(o.Members) == 0 {
		return " (no nodes in this inventory)"
	}
	names := make([]string, 0, len(o.Members))
	for _, i := range o.Members {
		names = append(names, inv.Pools[i].Name)
	}
	if len(names) == 1 && names[0] == o.Name {
		return " (" + plural(o.Nodes, "node") + ")"
	}
	return fmt.Sprintf(" (%s: %s)", plural(o.Nodes, "node"), strings.Join(names, ", "))
}

// ownersText says who the owners are: "namespaces ml, ml-*", "pods
// labelled team=ml", or both joined by "and" (rego/pools.rego:
// owners_text). Requirements read as kubectl writes selectors.
func ownersText(o *config.Owners) string {
	var parts []string
	if len(o.Namespaces) > 0 {
		parts = append(parts, "namespaces "+strings.Join(o.Namespaces, ", "))
	}
	if s := o.Selector; s != nil {
		var terms []string
		for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
			terms = append(terms, k+"="+s.MatchLabels[k])
		}
		for _, r := range s.MatchExpressions {
			terms = append(terms, requirementText(r))
		}
		parts = append(parts, "pods labelled "+strings.Join(terms, ", "))
	}
	if len(parts) == 0 {
		return "any workload"
	}
	return strings.Join(parts, " and ")
}

func requirementText(r config.Requirement) string {
	switch r.Operator {
	case "In":
		return fmt.Sprintf("%s in (%s)", r.Key, strings.Join(r.Values, ", "))
	case "NotIn":
		return fmt.Sprintf("%s notin (%s)", r.Key, strings.Join(r.Values, ", "))
	case "Exists":
		return r.Key
	case "DoesNotExist":
		return "!" + r.Key
	}
	return fmt.Sprintf("%s %s (%s)", r.Key, r.Operator, strings.Join(r.Values, ", "))
}

// ownedPoolJSON is a declared pool with owners in dslint schedule -f json.
type ownedPoolJSON struct {
	Name   string         `json:"name"`
	Owners *config.Owners `json:"owners"`
	Nodes  int            `json:"nodes"` // its nodes in the inventory
}
