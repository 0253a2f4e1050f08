# The pools library: a node constraint against a declared pool's labels,
# tolerations against its taints, and owners.
package dslint.lib.pools_test

import data.dslint.lib.pools

_pool := {
	"name": "gpu",
	"labels": {"pool": "gpu", "gpu": "a100"},
	"taints": [
		{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"},
		{"key": "dedicated", "value": "gpu", "effect": "PreferNoSchedule"},
	],
	"owners": {"namespaces": ["ml-*"], "selector": {"matchLabels": {"team": "ml"}}},
}

_terms(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_req(key, op, values) := {"key": key, "operator": op, "values": values}

test_keep_out_leaves_prefer_no_schedule if {
	pools.keep_out(_pool) == [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]
}

test_admits if {
	pools.admits({}, _pool)
	pools.admits({"nodeSelector": {"pool": "gpu", "zone": "a"}}, _pool)
	not pools.admits({"nodeSelector": {"pool": "cpu"}}, _pool)
	pools.admits(_terms([{"matchExpressions": [_req("gpu", "NotIn", ["t4"])]}]), _pool)
	not pools.admits(_terms([{"matchExpressions": [_req("gpu", "NotIn", ["a100"])]}]), _pool)
	not pools.admits(_terms([{"matchExpressions": [{"key": "pool", "operator": "DoesNotExist"}]}]), _pool)
	pools.admits(_terms([{"matchExpressions": [{"key": "other", "operator": "DoesNotExist"}]}]), _pool)
	pools.admits(_terms([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), _pool)
}

test_an_empty_term_or_no_terms_admit_nothing if {
	not pools.admits(_terms([{}]), _pool)
	not pools.admits(_terms([]), _pool)
}

test_asks_and_pins if {
	pools.asks({"nodeSelector": {"gpu": "a100"}}, _pool)
	pools.pins({"nodeSelector": {"gpu": "a100"}}, _pool)
	either := _terms([{"matchExpressions": [_req("pool", "In", ["gpu"])]}, {"matchExpressions": [_req("zone", "In", ["a"])]}])
	pools.asks(either, _pool)
	not pools.pins(either, _pool)
	not pools.asks(_terms([{"matchExpressions": [_req("pool", "NotIn", ["cpu"])]}]), _pool)
	not pools.asks({"nodeSelector": {"pool": "gpu", "gpu": "t4"}}, _pool) # admits nothing of the pool
}

test_owners if {
	ml := {"metadata": {"namespace": "ml-x"}, "spec": {"template": {"metadata": {"labels": {"team": "ml"}}, "spec": {}}}}
	pod := {"path": ["spec", "template", "spec"], "spec": {}}
	not pools.outsider(pod, _pool) with input as ml
	pools.outsider(pod, _pool) with input as json.patch(ml, [{"op": "replace", "path": "/metadata/namespace", "value": "ml"}])
	pools.outsider(pod, _pool) with input as json.patch(ml, [{"op": "replace", "path": "/spec/template/metadata/labels/team", "value": "web"}])
	not pools.outsider(pod, _pool) with input as json.remove(ml, ["metadata/namespace"])
}

test_daemonset_pods_are_exempt if {
	pod := {"path": ["spec"], "spec": {}, "daemonset": false}
	obj := {"kind": "Pod", "metadata": {"ownerReferences": [{"kind": "DaemonSet", "name": "x", "controller": true}]}}
	pools.exempt(pod) with input as obj
	not pools.exempt(pod) with input as json.patch(obj, [{"op": "replace", "path": "/metadata/ownerReferences/0/controller", "value": false}])
}
