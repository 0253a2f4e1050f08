package dslint.rules["toleration-selector-mismatch_test"]

import data.dslint.rules["toleration-selector-mismatch"] as rule
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

# _mismatch(path, workload, taint, label, selected) is the finding about a
# toleration of taint while the node constraint never selects label.
_mismatch(path, workload, taint, label, selected) := {
	"path": path,
	"message": sprintf("%s tolerates the taint %q but its node constraint never selects nodes labelled %s (%s): the toleration and the constraint point at different pools; make both name the same pool", [workload, taint, label, selected]),
}

# _gpu_mismatch(i, selected) is the finding about the Deployment "ingress"
# whose toleration i is _gpu.
_gpu_mismatch(i, selected) := _mismatch(_tol_at(i), "deployment \"ingress\"", "dedicated=gpu:NoSchedule", "dedicated=gpu", selected)

# --- fires -----------------------------------------------------------------------------------

test_node_selector_pins_another_value if {
	r := rule.report with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]})
	r == {{
		"path": _tol_at(0),
		"message": "deployment \"ingress\" tolerates the taint \"dedicated=gpu:NoSchedule\" but its node constraint never selects nodes labelled dedicated=gpu (nodeSelector dedicated=\"ingress\"): the toleration and the constraint point at different pools; make both name the same pool",
	}}
}

test_toleration_without_operator_or_effect if {
	r := rule.report with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "value": "gpu"}]})
	r == {_mismatch(_tol_at(0), "deployment \"ingress\"", "dedicated=gpu", "dedicated=gpu", "nodeSelector dedicated=\"ingress\"")}
}

test_every_required_term_pins_other_values if {
	r := rule.report with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["ingress", "edge"])]),
			_term([_r("dedicated", "In", ["web"]), _r("zone", "In", ["a"])]),
		]),
		{"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}, _gpu]},
	))
	r == {_gpu_mismatch(1, "dedicated In [\"ingress\", \"edge\"]; dedicated In [\"web\"]")}
}

test_required_term_excludes_the_value if {
	r := rule.report with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "NotIn", ["gpu"])])]), {"tolerations": [_gpu]}))
	r == {_gpu_mismatch(0, "dedicated NotIn [\"gpu\"]")}
	s := rule.report with input as _deployment(object.union(_with_terms([_term([{"key": "dedicated", "operator": "DoesNotExist"}])]), {"tolerations": [_gpu]}))
	s == {_gpu_mismatch(0, "dedicated DoesNotExist")}
}

# Terms no node can satisfy select nothing; the others decide.
test_unsatisfiable_terms_are_ignored if {
	r := rule.report with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["gpu"]), _r("dedicated", "NotIn", ["gpu"])]),
			_term([_r("dedicated", "In", ["ingress"])]),
		]),
		{"tolerations": [_gpu]},
	))
	r == {_gpu_mismatch(0, "dedicated In [\"ingress\"]")}
}

test_node_selector_with_agreeing_affinity if {
	r := rule.report with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "In", ["gpu", "ingress"])])]), {"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}))
	r == {_gpu_mismatch(0, "dedicated In [\"gpu\", \"ingress\"]; nodeSelector dedicated=\"ingress\"")}
}

test_each_mismatching_toleration if {
	r := rule.report with input as _deployment({"nodeSelector": {"dedicated": "ingress", "team": "edge"}, "tolerations": [
		_gpu,
		{"key": "dedicated", "operator": "Equal", "value": "ingress", "effect": "NoSchedule"},
		{"key": "team", "value": "ml", "effect": "NoExecute"},
	]})
	r == {
		_gpu_mismatch(0, "nodeSelector dedicated=\"ingress\""),
		_mismatch(_tol_at(2), "deployment \"ingress\"", "team=ml:NoExecute", "team=ml", "nodeSelector team=\"edge\""),
	}
}

test_generic_label_key if {
	r := rule.report with input as _deployment({"nodeSelector": {"kubernetes.io/arch": "amd64"}, "tolerations": [{"key": "kubernetes.io/arch", "value": "arm64", "effect": "NoSchedule"}]})
	r == {_mismatch(_tol_at(0), "deployment \"ingress\"", "kubernetes.io/arch=arm64:NoSchedule", "kubernetes.io/arch=arm64", "nodeSelector kubernetes.io/arch=\"amd64\"")}
}

# --- silent ------------------------------------------------------------------------------------

test_matching_pool if {
	rule.report == set() with input as _deployment({"nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]})
	rule.report == set() with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "In", ["gpu"])])]), {"tolerations": [_gpu]}))
}

test_one_term_allows_the_value if {
	rule.report == set() with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["ingress"])]),
			_term([_r("dedicated", "In", ["gpu"])]),
		]),
		{"tolerations": [_gpu]},
	))
	rule.report == set() with input as _deployment(object.union(
		_with_terms([
			_term([_r("dedicated", "In", ["ingress"])]),
			_term([_r("zone", "In", ["a"])]),
		]),
		{"tolerations": [_gpu]},
	))
}

test_constraint_on_other_keys if {
	rule.report == set() with input as _deployment({"nodeSelector": {"pool": "ingress"}, "tolerations": [_gpu]})
}

test_no_constraint if {
	rule.report == set() with input as _deployment({"tolerations": [_gpu]})
}

test_exists_toleration if {
	rule.report == set() with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
}

# A toleration without a value tolerates a taint without one: it says
# nothing about the label's value.
test_toleration_without_value if {
	rule.report == set() with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "effect": "NoSchedule"}]})
}

test_system_taints if {
	rule.report == set() with input as _deployment({"nodeSelector": {"node-role.kubernetes.io/control-plane": ""}, "tolerations": [{"key": "node-role.kubernetes.io/control-plane", "value": "true", "effect": "NoSchedule"}]})
}

# A pod no node can run is conflicting-node-constraints' business.
test_unsatisfiable_constraints if {
	rule.report == set() with input as _deployment(object.union(_with_terms([_term([_r("dedicated", "In", ["ingress"]), _r("dedicated", "In", ["web"])])]), {"tolerations": [_gpu]}))
}

test_mistyped_toleration_value if {
	rule.report == set() with input as _deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [{"key": "dedicated", "value": true}]})
}

# --- kinds -------------------------------------------------------------------------------------

test_daemonset_is_a_warning_too if {
	r := rule.report with input as object.union(
		_deployment({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}),
		{"kind": "DaemonSet", "metadata": {"name": "agent"}},
	)
	r == {_mismatch(_tol_at(0), "daemonset \"agent\"", "dedicated=gpu:NoSchedule", "dedicated=gpu", "nodeSelector dedicated=\"ingress\"")}
}

test_pod_path if {
	r := rule.report with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "debug"},
		"spec": {"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]},
	}
	r == {_mismatch(["spec", "tolerations", 0], "pod \"debug\"", "dedicated=gpu:NoSchedule", "dedicated=gpu", "nodeSelector dedicated=\"ingress\"")}
}

test_cronjob_path if {
	r := rule.report with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}}}}},
	}
	r == {_mismatch(["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0], "cronjob \"retrain\"", "dedicated=gpu:NoSchedule", "dedicated=gpu", "nodeSelector dedicated=\"ingress\"")}
}

# --- every workload kind ----------------------------------------------------------------

# _every_kind(spec) holds a workload of each built-in kind with spec as its
# pod spec, and the path to that pod spec.
_every_kind(spec) := [[w, path] |
	some [head, path] in [
		[{"apiVersion": "v1", "kind": "Pod"}, ["spec"]],
		[{"apiVersion": "v1", "kind": "PodTemplate"}, ["template", "spec"]],
		[{"apiVersion": "v1", "kind": "ReplicationController"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "Deployment"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "ReplicaSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "StatefulSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "DaemonSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "batch/v1", "kind": "Job"}, ["spec", "template", "spec"]],
		[{"apiVersion": "batch/v1", "kind": "CronJob"}, ["spec", "jobTemplate", "spec", "template", "spec"]],
	]
	w := object.union(
		object.union(head, {"metadata": {"name": "w"}}),
		_nest(path, object.union({"containers": [{"name": "main", "image": "app:1.0"}]}, spec)),
	)
]

_nest([a], v) := {a: v}

_nest([a, b], v) := {a: {b: v}}

_nest([a, b, c], v) := {a: {b: {c: v}}}

_nest([a, b, c, d, e], v) := {a: {b: {c: {d: {e: v}}}}}

test_every_workload_kind if {
	workloads := _every_kind({"nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]})
	count(workloads) == 9
	every pair in workloads {
		[w, path] := pair
		rule.report == {_mismatch(
			array.concat(path, ["tolerations", 0]),
			sprintf("%s \"w\"", [lower(w.kind)]),
			"dedicated=gpu:NoSchedule",
			"dedicated=gpu",
			"nodeSelector dedicated=\"ingress\"",
		)} with input as w
	}
}

# The toleration's pool selected by a nodeSelector or by a term, next to
# constraints where the check has to work harder.
test_selected_pool if {
	rule.report == set() with input as _deployment({"nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]})
	rule.report == set() with input as _deployment(object.union({"tolerations": [_gpu]}, _with_terms([_term([_r("dedicated", "In", ["ingress", "gpu"])])])))
	rule.report == set() with input as _deployment(object.union({"tolerations": [_gpu]}, _with_terms([_term([_r("dedicated", "In", ["ingress"])]), _term([_r("dedicated", "In", ["gpu"]), {"key": "n", "operator": "Gt", "values": ["1"]}])])))
	r := rule.report with input as _deployment(object.union({"tolerations": [_gpu], "nodeSelector": {"dedicated": "ingress"}}, _with_terms([_term([_r("dedicated", "In", ["ingress", "gpu"])])])))
	r == {_gpu_mismatch(0, "dedicated In [\"ingress\", \"gpu\"]; nodeSelector dedicated=\"ingress\"")}
	s := rule.report with input as _deployment(object.union({"tolerations": [_gpu]}, _with_terms([_term([_r("dedicated", "In", ["gpu"]), _r("dedicated", "NotIn", ["gpu"])]), _term([_r("dedicated", "In", ["ingress"])])])))
	s == {_gpu_mismatch(0, "dedicated In [\"ingress\"]")}
}

# --- with a node inventory --------------------------------------------------------------

_pools := testinv.indexed({"pools": [
	testinv.pool("gpu", {"pool": "gpu"}, [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}], ["gpu-1"]),
	testinv.pool("ingress", {"pool": "ingress"}, [{"key": "dedicated", "value": "ingress", "effect": "NoSchedule"}], ["in-1"]),
	testinv.pool("general", {"pool": "general"}, [], ["g-1", "g-2"]),
]})

test_inventory_toleration_of_another_pool if {
	w := _deployment({"nodeSelector": {"pool": "general"}, "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "ingress", "effect": "NoSchedule"}]})
	r := rule.report with input as w with data.dslint.inventory as _pools
	r == {{
		"path": _tol_at(0),
		"message": "deployment \"ingress\" tolerates the taint \"dedicated=ingress:NoSchedule\", but no node its node constraint selects carries a taint it matches (general): the toleration and the constraint point at different pools; make both name the same pool",
	}}
}

test_inventory_exists_toleration_on_selected_pool if {
	w := _deployment({"nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
	rule.report == set() with input as w with data.dslint.inventory as _pools
}

test_inventory_replaces_static_check if {
	# statically a mismatch (pool=general vs dedicated=gpu is not a label
	# conflict here); the inventory says which nodes carry the taint
	w := _deployment({"nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]})
	inv := testinv.indexed({"pools": [testinv.pool("gpu", {"dedicated": "gpu"}, [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}], ["gpu-1"])]})
	rule.report == set() with input as w with data.dslint.inventory as inv
}

test_inventory_no_selected_node_is_no_matching_nodes_concern if {
	w := _deployment({"nodeSelector": {"pool": "tpu"}, "tolerations": [_gpu]})
	rule.report == set() with input as w with data.dslint.inventory as _pools
}

# --- custom resources: every pod template is checked ----------------------------------

# A RayCluster whose GPU worker group selects the ingress pool: the finding
# points into that worker group, and the message names it.
test_raycluster_worker_group if {
	ray := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": {"containers": [{"name": "head", "image": "ray:2.9"}], "tolerations": [_gpu]}}},
			"workerGroupSpecs": [
				{"groupName": "cpu", "template": {"spec": {"containers": [{"name": "w", "image": "ray:2.9"}], "nodeSelector": {"dedicated": "gpu"}, "tolerations": [_gpu]}}},
				{"groupName": "gpu", "template": {"spec": {"containers": [{"name": "w", "image": "ray:2.9"}], "nodeSelector": {"dedicated": "ingress"}, "tolerations": [_gpu]}}},
			],
		},
	}
	r := rule.report with input as ray
	r == {_mismatch(
		["spec", "workerGroupSpecs", 1, "template", "spec", "tolerations", 0],
		"raycluster \"ray\" (spec.workerGroupSpecs[1].template.spec)",
		"dedicated=gpu:NoSchedule",
		"dedicated=gpu",
		"nodeSelector dedicated=\"ingress\"",
	)}
}

# A LeaderWorkerSet's leader and workers, each judged with an inventory.
test_leaderworkerset_with_an_inventory if {
	other_pool := {"key": "dedicated", "operator": "Equal", "value": "ingress", "effect": "NoSchedule"}
	lws := {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "vllm"},
		"spec": {"leaderWorkerTemplate": {
			"leaderTemplate": {"spec": {"containers": [{"name": "l", "image": "vllm:0.6"}], "nodeSelector": {"pool": "gpu"}, "tolerations": [_gpu]}},
			"workerTemplate": {"spec": {"containers": [{"name": "w", "image": "vllm:0.6"}], "nodeSelector": {"pool": "gpu"}, "tolerations": [other_pool]}},
		}},
	}
	r := rule.report with input as lws with data.dslint.inventory as _pools
	r == {{
		"path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "tolerations", 0],
		"message": "leaderworkerset \"vllm\" (spec.leaderWorkerTemplate.workerTemplate.spec) tolerates the taint \"dedicated=ingress:NoSchedule\", but no node its node constraint selects carries a taint it matches (gpu): the toleration and the constraint point at different pools; make both name the same pool",
	}}
}
