package dslint.rules["toleration-selector-mismatch"]

import data.dslint.test.inventory as testinv

_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "ingress", "namespace": "edge"},
	"spec": {
		"selector": {"matchLabels": {"app": "ingress"}},
		"template": {
			"metadata": {"labels": {"app": "ingress"}},
			"spec": object.union({"containers": [{"name": "main", "image": "nginx:1.27"}]}, spec),
		},
	},
}

_with_terms(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_r(key, op, values) := {"key": key, "operator": op, "values": values}

_term(reqs) := {"matchExpressions": reqs}

_gpu := {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}

_tol_at(i) := ["spec", "template", "spec", "tolerations", i]

_only(r, path) := f if {
	count(r) == 1
	some f in r
	f.path == path
}

# --- fires -----------------------------------------------------------------------------------

test_node_selector_pins_another_value if {
	f := _only(report, _tol_at(0)) with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]})
	f.message == "deployment \"ingress\" tolerates the taint \"dedicated=gpu:NoSchedule\" but its node constraint never selects nodes labelled dedicated=gpu (nodeSelector dedicated=\"ingress\"): the toleration and the constraint point at different pools; make both name the same pool"
	not "severity" in object.keys(f)
}

test_toleration_without_operator_or_effect if {
	f := _only(report, _tol_at(0)) with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "value": "gpu"}]})
	contains(f.message, "tolerates the taint \"dedicated=gpu\" but")
}

test_every_required_term_pins_other_values if {
	f := _only(report, _tol_at(1)) with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["ingress", "edge"])]),
			_term([_r("dedicated", "In", ["web"]), _r("zone", "In", ["a"])]),
		]),
		{"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}, _gpu]},
	))
	contains(f.message, "(dedicated In [\"ingress\", \"edge\"]; dedicated In [\"web\"])")
}

test_required_term_excludes_the_value if {
	_only(report, _tol_at(0)) with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "NotIn", ["gpu"])])]), {"tolerations": [_gpu]}))
	_only(report, _tol_at(0)) with input as _deployment(object.union(_with_terms([_term([{"key": "dedicated", "operator": "DoesNotExist"}])]), {"tolerations": [_gpu]}))
}

# Terms no node can satisfy select nothing; the others decide.
test_unsatisfiable_terms_are_ignored if {
	_only(report, _tol_at(0)) with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["gpu"]), _r("dedicated", "NotIn", ["gpu"])]),
			_term([_r("dedicated", "In", ["ingress"])]),
		]),
		{"tolerations": [_gpu]},
	))
}

test_node_selector_with_agreeing_affinity if {
	_only(report, _tol_at(0)) with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "In", ["gpu", "ingress"])])]), {"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}))
}

test_each_mismatching_toleration if {
	r := report with input as _deployment({"nodeSelector": {"dedicated": "ingress", "team": "edge"}, "tolerations": [
		_gpu,
		{"key": "dedicated", "operator": "Equal", "value": "ingress", "effect": "NoSchedule"},
		{"key": "team", "value": "ml", "effect": "NoExecute"},
	]})
	{f.path | some f in r} == {_tol_at(0), _tol_at(2)}
}

test_generic_label_key if {
	_only(report, _tol_at(0)) with input as _deployment({"nodeSelector": {"kubernetes.io/arch": "amd64"}, "tolerations": [{"key": "kubernetes.io/arch", "value": "arm64", "effect": "NoSchedule"}]})
}

# --- silent ------------------------------------------------------------------------------------

test_matching_pool if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]})
	count(report) == 0 with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "In", ["gpu"])])]), {"tolerations": [_gpu]}))
}

test_one_term_allows_the_value if {
	count(report) == 0 with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["ingress"])]),
			_term([_r("dedicated", "In", ["gpu"])]),
		]),
		{"tolerations": [_gpu]},
	))
	count(report) == 0 with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["ingress"])]),
			_term([_r("zone", "In", ["a"])]),
		]),
		{"tolerations": [_gpu]},
	))
}

test_constraint_on_other_keys if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"pool": "ingress"}, "tolerations": [_gpu]})
}

test_no_constraint if {
	count(report) == 0 with input as _deployment({"tolerations": [_gpu]})
}

test_exists_toleration if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
}

# A toleration without a value tolerates a taint without one: it says
# nothing about the label's value.
test_toleration_without_value if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "effect": "NoSchedule"}]})
}

test_system_taints if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"node-role.kubernetes.io/control-plane": ""}, "tolerations": [{"key": "node-role.kubernetes.io/control-plane", "value": "true", "effect": "NoSchedule"}]})
}

# A pod no node can run is conflicting-node-constraints' business.
test_unsatisfiable_constraints if {
	count(report) == 0 with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "In", ["ingress"]), _r("dedicated", "In", ["web"])])]), {"tolerations": [_gpu]}))
}

test_mistyped_toleration_value if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "value": true}]})
}

# --- kinds -------------------------------------------------------------------------------------

test_daemonset_is_a_warning_too if {
	f := _only(report, _tol_at(0)) with input as object.union(
		_deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}),
		{"kind": "DaemonSet", "metadata": {"name": "agent"}},
	)
	not "severity" in object.keys(f)
	startswith(f.message, "daemonset \"agent\" tolerates")
}

test_pod_path if {
	_only(report, ["spec", "tolerations", 0]) with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "debug"},
		"spec": {"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]},
	}
}

test_cronjob_path if {
	_only(report, ["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0]) with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}}}}},
	}
}

# --- every workload kind ----------------------------------------------------------------

# _every_kind(spec) is a workload of each kind k8s knows with spec as its pod
# spec, wherever k8s.pod_spec_path puts it: the guards of report, which read
# input directly, have to find it there.
_every_kind(spec) := [object.union(
	object.union(head, {"metadata": {"name": "w"}}),
	_nest(path, object.union({"containers": [{"name": "main", "image": "app:1.0"}]}, spec)),
) |
	some head in [
		{"apiVersion": "v1", "kind": "Pod"},
		{"apiVersion": "v1", "kind": "PodTemplate"},
		{"apiVersion": "v1", "kind": "ReplicationController"},
		{"apiVersion": "apps/v1", "kind": "Deployment"},
		{"apiVersion": "apps/v1", "kind": "ReplicaSet"},
		{"apiVersion": "apps/v1", "kind": "StatefulSet"},
		{"apiVersion": "apps/v1", "kind": "DaemonSet"},
		{"apiVersion": "batch/v1", "kind": "Job"},
		{"apiVersion": "batch/v1", "kind": "CronJob"},
	]
	path := data.dslint.lib.k8s.pod_spec_path with input as head
]

_nest([a], v) := {a: v}

_nest([a, b], v) := {a: {b: v}}

_nest([a, b, c], v) := {a: {b: {c: v}}}

_nest([a, b, c, d], v) := {a: {b: {c: {d: v}}}}

_nest([a, b, c, d, e], v) := {a: {b: {c: {d: {e: v}}}}}

test_every_workload_kind if {
	workloads := _every_kind({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]})
	count(workloads) == 9
	every w in workloads {
		count(report) == 1 with input as w
	}
}

# The toleration's pool is plainly selected (_selects), and the same where
# the check is exact.
test_plainly_selected_pool if {
	count(report) == 0 with input as _deployment({"nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]})
	count(report) == 0 with input as _deployment(object.union({"tolerations": [_gpu]}, _with_terms([_term([_r("dedicated", "In", ["ingress", "gpu"])])])))
	count(report) == 0 with input as _deployment(object.union({"tolerations": [_gpu]}, _with_terms([_term([_r("dedicated", "In", ["ingress"])]), _term([_r("dedicated", "In", ["gpu"]), {"key": "n", "operator": "Gt", "values": ["1"]}])])))
	count(report) == 1 with input as _deployment(object.union({"tolerations": [_gpu], "nodeSelector": {"dedicated": "ingress"}}, _with_terms([_term([_r("dedicated", "In", ["ingress", "gpu"])])])))
	count(report) == 1 with input as _deployment(object.union({"tolerations": [_gpu]}, _with_terms([_term([_r("dedicated", "In", ["gpu"]), _r("dedicated", "NotIn", ["gpu"])]), _term([_r("dedicated", "In", ["ingress"])])])))
}

_pools := testinv.indexed({"pools": [
	testinv.pool("gpu", {"pool": "gpu"}, [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}], ["gpu-1"]),
	testinv.pool("ingress", {"pool": "ingress"}, [{"key": "dedicated", "value": "ingress", "effect": "NoSchedule"}], ["in-1"]),
	testinv.pool("general", {"pool": "general"}, [], ["g-1", "g-2"]),
]})

test_inventory_toleration_of_another_pool if {
	w := _deployment({"nodeSelector": {"pool": "general"}, "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "ingress", "effect": "NoSchedule"}]})
	r := report with input as w with data.dslint.inventory as _pools
	r == {{
		"path": _tol_at(0),
		"message": "deployment \"ingress\" tolerates the taint \"dedicated=ingress:NoSchedule\", but no node its node constraint selects carries a taint it matches (general): the toleration and the constraint point at different pools; make both name the same pool",
	}}
}

test_inventory_exists_toleration_on_selected_pool if {
	w := _deployment({"nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
	count(report) == 0 with input as w with data.dslint.inventory as _pools
}

test_inventory_replaces_static_check if {
	# statically a mismatch (pool=general vs dedicated=gpu is not a label
	# conflict here); the inventory says which nodes carry the taint
	w := _deployment({"nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]})
	inv := testinv.indexed({"pools": [testinv.pool("gpu", {"dedicated": "gpu"}, [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}], ["gpu-1"])]})
	count(report) == 0 with input as w with data.dslint.inventory as inv
}

test_inventory_no_selected_node_is_no_matching_nodes_concern if {
	w := _deployment({"nodeSelector": {"pool": "tpu"}, "tolerations": [_gpu]})
	count(report) == 0 with input as w with data.dslint.inventory as _pools
}
