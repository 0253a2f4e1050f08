package dslint.rules["no-matching-nodes"]

import data.dslint.test.inventory as testinv

_pool(name, labels, taints) := testinv.pool(name, labels, taints, [concat("-", [name, "1"])])

_inventory := testinv.indexed({"pools": [
	_pool("general", {"pool": "general"}, []),
	_pool("infra", {"pool": "infra"}, [{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]),
]})

_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "cert-manager"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}},
}

test_selector_without_toleration if {
	r := report with input as _deployment({"nodeSelector": {"pool": "infra"}}) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "nodeSelector"],
		"message": "deployment \"cert-manager\" fits no node of the inventory: node selector pool=infra blocks 1 node (general); untolerated taint dedicated=infra:NoSchedule blocks 1 node (infra)",
	}}
}

test_taint_first_when_it_blocks_most if {
	inv := testinv.indexed({"pools": [_pool("a", {}, [{"key": "x", "effect": "NoExecute"}]), _pool("b", {}, [{"key": "x", "effect": "NoExecute"}])]})
	r := report with input as _deployment({}) with data.dslint.inventory as inv
	[f.path | some f in r] == [["spec", "template", "spec", "tolerations"]]
}

test_fits_somewhere if {
	w := _deployment({"nodeSelector": {"pool": "infra"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
	count(report) == 0 with input as w with data.dslint.inventory as _inventory
}

test_silent_without_inventory if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"pool": "nowhere"}})
}

test_silent_for_non_workloads if {
	count(report) == 0 with input as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}} with data.dslint.inventory as _inventory
}
