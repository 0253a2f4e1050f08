# METADATA
# description: |
#   Helpers for Rego tests that need a node inventory: the shape dslint gives
#   data.dslint.inventory, built from a few pools. It mirrors the JSON tags
#   of inventory.Data (internal/inventory/rego.go) field for field, for
#   pools whose label sets and taints all differ (dslint numbers equal ones
#   once); TestRegoInventoryHelper (internal/engine) fails when the two
#   diverge.
package dslint.test.inventory

# node is a Node object as the inventory holds it. Like dslint, it leaves
# out the taints and cordoning a node does not set (taints [],
# unschedulable null).
node(name, labels, taints, unschedulable) := {
	"apiVersion": "v1",
	"kind": "Node",
	"metadata": {"name": name, "labels": labels},
	"spec": object.union(_taints_field(taints), _unschedulable_field(unschedulable)),
}

_taints_field(taints) := {"taints": taints} if {
	count(taints) > 0
} else := {}

_allocatable_field(a) := {"allocatable": a} if {
	a != null
} else := {}

_unschedulable_field(u) := {"unschedulable": u} if {
	u != null
} else := {}

# pool is a pool of nodes named names, with the given shared labels and
# taints (each node also gets kubernetes.io/hostname).
pool(name, labels, taints, names) := {
	"name": name,
	"node": node("", labels, taints, null),
	"nodes": [node(n, object.union(labels, {"kubernetes.io/hostname": n}), taints, null) | some n in names],
	"varying": ["kubernetes.io/hostname"],
	"everywhere": ["kubernetes.io/hostname"],
	"names": {n: j | some j, n in names},
	"by_label": {"kubernetes.io/hostname": {n: [j] | some j, n in names}},
}

# cordoned is p with every node cordoned (spec.unschedulable: true).
cordoned(p) := object.union(p, {
	"node": object.union(p.node, {"spec": {"unschedulable": true}}),
	"nodes": [object.union(n, {"spec": {"unschedulable": true}}) | some n in p.nodes],
})

# allocating is p with every node allocating allocatable (status.allocatable).
allocating(p, allocatable) := object.union(p, {
	"node": object.union(p.node, {"status": {"allocatable": allocatable}}),
	"nodes": [object.union(n, {"status": {"allocatable": allocatable}}) | some n in p.nodes],
})

# indexed completes an inventory of pools with the label sets, taint sets and
# indexes dslint adds (one set per pool).
indexed(inv) := object.union(inv, {
	"per_node_keys": object.get(inv, "per_node_keys", ["kubernetes.io/hostname"]),
	"unique_keys": object.get(inv, "unique_keys", ["kubernetes.io/hostname"]),
	"label_sets": [p.node.metadata.labels | some p in inv.pools],
	"taints": [_matchable(t) | some p in inv.pools; some t in _taints_of(p)],
	"taint_sets": [object.union_n([
		{"taints": [x | some k, _ in _taints_of(p); x := _offset(inv, i) + k]},
		_unschedulable_field(object.get(p.node, ["spec", "unschedulable"], null)),
		_allocatable_field(object.get(p.node, ["status", "allocatable"], null)),
	]) |
		some i, p in inv.pools
	],
	"pools": [object.union(p, {"label_set": i, "taint_set": i}) | some i, p in inv.pools],
	"pools_by_sets": [{sprintf("%d", [i]): [i]} | some i, _ in inv.pools],
	"pools_by_taint_set": [[i] | some i, _ in inv.pools],
})

# _matchable is a taint as dslint numbers it: key, value and effect, null
# where unset.
_matchable(t) := {"key": object.get(t, "key", null), "value": object.get(t, "value", null), "effect": object.get(t, "effect", null)}

_taints_of(p) := object.get(p.node, ["spec", "taints"], [])

_offset(inv, i) := sum([count(_taints_of(inv.pools[j])) | some j in numbers.range(0, i - 1)]) if i > 0

_offset(_, 0) := 0
