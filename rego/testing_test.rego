# METADATA
# description: |
#   Helpers for Rego tests that need a node inventory: the shape dslint gives
#   data.dslint.inventory (internal/inventory), built from a few pools.
package dslint.test.inventory

# pool is a pool of nodes named names, with the given shared labels and
# taints (each node also gets kubernetes.io/hostname).
pool(name, labels, taints, names) := {
	"name": name,
	"node": {"metadata": {"name": "", "labels": labels}, "spec": {"taints": taints}},
	"nodes": [{"metadata": {"name": n, "labels": object.union(labels, {"kubernetes.io/hostname": n})}, "spec": {"taints": taints}} | some n in names],
	"varying": ["kubernetes.io/hostname"],
	"names": {n: j | some j, n in names},
	"by_label": {"kubernetes.io/hostname": {n: [j] | some j, n in names}},
}

# indexed completes an inventory of pools with the label sets, taint sets and
# indexes dslint adds (one set per pool).
indexed(inv) := object.union(inv, {
	"per_node_keys": object.get(inv, "per_node_keys", ["kubernetes.io/hostname"]),
	"label_sets": [p.node.metadata.labels | some p in inv.pools],
	"taints": [t | some p in inv.pools; some t in _taints_of(p)],
	"taint_sets": [{
		"taints": [x | some k, _ in _taints_of(p); x := _offset(inv, i) + k],
		"unschedulable": object.get(p.node, ["spec", "unschedulable"], false),
	} |
		some i, p in inv.pools
	],
	"pools": [object.union(p, {"label_set": i, "taint_set": i}) | some i, p in inv.pools],
	"pools_by_sets": [{sprintf("%d", [i]): [i]} | some i, _ in inv.pools],
	"pools_by_taint_set": [[i] | some i, _ in inv.pools],
})

_taints_of(p) := object.get(p.node, ["spec", "taints"], [])

_offset(inv, i) := sum([count(_taints_of(inv.pools[j])) | some j in numbers.range(0, i - 1)]) if i > 0

_offset(_, 0) := 0
