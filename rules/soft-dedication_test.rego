package dslint.rules["soft-dedication_test"]

import data.dslint.rules["soft-dedication"] as rule
import data.dslint.test.inventory as testinv

_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "trainer", "namespace": "ml"},
	"spec": {
		"selector": {"matchLabels": {"app": "trainer"}},
		"template": {
			"metadata": {"labels": {"app": "trainer"}},
			"spec": object.union({"containers": [{"name": "main", "image": "trainer:1.0"}]}, spec),
		},
	},
}

_with_prefs(items) := {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": items}}}

_pref(weight, reqs) := {"weight": weight, "preference": {"matchExpressions": reqs}}

_r(key, op, values) := {"key": key, "operator": op, "values": values}

_ml := {"key": "dedicated", "operator": "Equal", "value": "ml", "effect": "NoSchedule"}

_pref_at(k) := ["spec", "template", "spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", k]

_spec(prefs, tolerations) := object.union(_with_prefs(prefs), {"tolerations": tolerations})

_score := "a preference only weighs in the score, so its pods can still land on any other node"

# _message(workload, taint, effect) is the message for a workload that
# prefers the pool of a dedicated taint it tolerates.
_message(workload, taint, effect) := sprintf("%s tolerates the dedicated taint %q and prefers its nodes, but no required constraint keeps it there: %s; make it required node affinity or a nodeSelector if it must stay on the pool", [workload, taint, effect])

# _trainer(k, taint) is the finding for preference k of the Deployment.
_trainer(k, taint) := {"path": _pref_at(k), "message": _message("deployment \"trainer\"", taint, _score)}

_silent(obj) if rule.report == set() with input as obj

# --- fires ----------------------------------------------------------------------------------

test_preference_toward_the_tolerated_value if {
	rule.report == {{
		"path": _pref_at(0),
		"message": "deployment \"trainer\" tolerates the dedicated taint \"dedicated=ml:NoSchedule\" and prefers its nodes, but no required constraint keeps it there: a preference only weighs in the score, so its pods can still land on any other node; make it required node affinity or a nodeSelector if it must stay on the pool",
	}} with input as _deployment(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]))
}

test_preference_with_exists if {
	rule.report == {_trainer(0, "dedicated=ml:NoSchedule")} with input as _deployment(_spec([_pref(10, [{"key": "dedicated", "operator": "Exists"}])], [_ml]))
}

test_exists_toleration_with_any_in_preference if {
	rule.report == {_trainer(1, "nvidia.com/gpu:NoSchedule")} with input as _deployment(_spec(
		[_pref(5, [_r("zone", "In", ["a"])]), _pref(50, [_r("nvidia.com/gpu", "In", ["true"])])],
		[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
	))
}

test_one_finding_per_preference_naming_the_first_toleration if {
	rule.report == {_trainer(0, "dedicated=gpu"), _trainer(1, "dedicated=gpu")} with input as _deployment(_spec(
		[_pref(100, [_r("dedicated", "In", ["ml", "gpu"])]), _pref(10, [_r("dedicated", "In", ["gpu"])])],
		[{"key": "dedicated", "value": "gpu"}, _ml],
	))
}

# The first toleration a preference favours, which need not be the first of
# the list.
test_the_toleration_named_is_the_first_one_favoured if {
	rule.report == {_trainer(0, "dedicated=ml:NoSchedule")} with input as _deployment(_spec(
		[_pref(100, [_r("dedicated", "In", ["ml"])])],
		[{"key": "dedicated", "value": "gpu"}, _ml],
	))
}

# A generic-only constraint does not pin pods to the pool.
test_generic_required_constraint_does_not_pin if {
	rule.report == {_trainer(0, "dedicated=ml:NoSchedule")} with input as _deployment(object.union(
		_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]),
		{"nodeSelector": {"kubernetes.io/os": "linux"}},
	))
}

test_required_exclusions_do_not_pin if {
	rule.report == {_trainer(0, "dedicated=ml:NoSchedule")} with input as _deployment(object.union(
		_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]),
		{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [_r("spot", "NotIn", ["true"])]}]}}}},
	))
}

# --- silent -----------------------------------------------------------------------------------

test_required_constraint_pins if {
	_silent(_deployment(object.union(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]), {"nodeSelector": {"dedicated": "ml"}})))
	_silent(_deployment(object.union(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]), {"nodeName": "ml-1"})))
}

test_required_affinity_pins if {
	_silent(_deployment({
		"affinity": {"nodeAffinity": {
			"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [_r("dedicated", "In", ["ml"])]}]},
			"preferredDuringSchedulingIgnoredDuringExecution": [_pref(100, [_r("dedicated", "In", ["ml"])])],
		}},
		"tolerations": [_ml],
	}))
}

test_preference_toward_another_value if {
	_silent(_deployment(_spec([_pref(100, [_r("dedicated", "In", ["gpu"])])], [_ml])))
}

test_preference_away_from_the_pool if {
	_silent(_deployment(_spec([_pref(100, [_r("dedicated", "NotIn", ["ml"])])], [_ml])))
	_silent(_deployment(_spec([_pref(100, [{"key": "dedicated", "operator": "DoesNotExist"}])], [_ml])))
}

test_preference_on_another_key if {
	_silent(_deployment(_spec([_pref(100, [_r("pool", "In", ["ml"])])], [_ml])))
}

test_no_toleration if {
	_silent(_deployment(_with_prefs([_pref(100, [_r("dedicated", "In", ["ml"])])])))
}

test_system_taints_and_wildcards if {
	_silent(_deployment(_spec(
		[_pref(100, [{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists"}])],
		[{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists"}],
	)))
}

test_unmatchable_toleration_operator if {
	_silent(_deployment(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [{"key": "dedicated", "operator": "exists"}])))
}

test_malformed_preferences if {
	_silent(_deployment(_spec(["dedicated=ml", {"weight": 1}, {"weight": 1, "preference": null}], [_ml])))
	_silent(_deployment(object.union({"tolerations": [_ml]}, {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": {"weight": 1}}}})))
}

# --- kinds ----------------------------------------------------------------------------------------

test_daemonset_preference_has_no_effect if {
	rule.report == {{
		"path": _pref_at(0),
		"message": "daemonset \"ml-agent\" tolerates the dedicated taint \"dedicated=ml:NoSchedule\" and prefers its nodes, but no required constraint keeps it there: a DaemonSet runs on every node it may, so the preference has no effect; make it required node affinity or a nodeSelector if it must stay on the pool",
	}} with input as object.union(
		_deployment(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml])),
		{"kind": "DaemonSet", "metadata": {"name": "ml-agent"}},
	)
}

# The pod spec of every workload kind, and where it is.
_kinds := [
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

# _nest(path, v) is an object with v at path.
_nest([a], v) := {a: v}

_nest([a, b], v) := {a: {b: v}}

_nest([a, b, c], v) := {a: {b: {c: v}}}

_nest([a, b, c, d, e], v) := {a: {b: {c: {d: {e: v}}}}}

_preferred := ["affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"]

_effect("DaemonSet") := "a DaemonSet runs on every node it may, so the preference has no effect"

_effect(kind) := _score if kind != "DaemonSet"

# Every workload kind, with its pod spec where the kind keeps it: one
# finding, at the preference in that pod spec.
test_every_workload_kind if {
	spec := object.union({"containers": [{"name": "main", "image": "app:1.0"}]}, _spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]))
	every kind in _kinds {
		[head, path] := kind
		workload := object.union(object.union(head, {"metadata": {"name": "w"}}), _nest(path, spec))
		rule.report == {{
			"path": array.concat(path, array.concat(_preferred, [0])),
			"message": _message(sprintf("%s \"w\"", [lower(head.kind)]), "dedicated=ml:NoSchedule", _effect(head.kind)),
		}} with input as workload
	}
}

_batch := testinv.indexed({"pools": [
	testinv.pool("batch", {"pool": "batch"}, [{"key": "workload", "value": "batch", "effect": "PreferNoSchedule"}], ["b-1", "b-2"]),
	testinv.pool("general", {"pool": "general"}, [], ["g-1"]),
]})

test_inventory_prefer_no_schedule_taint if {
	w := _deployment({"nodeSelector": {"pool": "batch"}, "tolerations": [{"key": "workload", "operator": "Exists"}]})
	r := rule.report with input as w with data.dslint.inventory as _batch
	r == {{
		"path": ["spec", "template", "spec", "tolerations", 0],
		"message": "deployment \"trainer\" tolerates the dedicated taint \"workload=batch:PreferNoSchedule\", which the inventory's nodes carry as PreferNoSchedule (batch): it only discourages other pods, which can still land there; make it NoSchedule to dedicate the nodes",
	}}
}

test_inventory_no_schedule_taint_is_fine if {
	inv := testinv.indexed({"pools": [testinv.pool("batch", {"pool": "batch"}, [{"key": "workload", "value": "batch", "effect": "NoSchedule"}], ["b-1"])]})
	w := _deployment({"nodeSelector": {"pool": "batch"}, "tolerations": [{"key": "workload", "operator": "Exists"}]})
	rule.report == set() with input as w with data.dslint.inventory as inv
}

test_inventory_silent_without_inventory if {
	_silent(_deployment({"nodeSelector": {"pool": "batch"}, "tolerations": [{"key": "workload", "operator": "Exists"}]}))
}

# --- custom resources -----------------------------------------------------------------

_pod_spec(spec) := object.union({"containers": [{"name": "c", "image": "i:1"}]}, spec)

# Each pod template is judged on its own, and the finding points into it:
# the head is pinned, the worker group only prefers the pool.
test_raycluster_worker_group if {
	soft := _spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml])
	rule.report == {{
		"path": ["spec", "workerGroupSpecs", 0, "template", "spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", 0],
		"message": _message("raycluster \"ray\" (spec.workerGroupSpecs[0].template.spec)", "dedicated=ml:NoSchedule", _score),
	}} with input as {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": _pod_spec(object.union(soft, {"nodeSelector": {"dedicated": "ml"}}))}},
			"workerGroupSpecs": [{"replicas": 3, "template": {"spec": _pod_spec(soft)}}],
		},
	}
}

# With an inventory, a PreferNoSchedule pool taint is reported in every pod
# template that tolerates it.
test_leaderworkerset_inventory_prefer_no_schedule_taint if {
	tolerant := _pod_spec({"tolerations": [{"key": "workload", "operator": "Exists"}]})
	r := rule.report with input as {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "lws"},
		"spec": {"leaderWorkerTemplate": {"leaderTemplate": {"spec": _pod_spec({})}, "workerTemplate": {"spec": tolerant}}},
	}
		with data.dslint.inventory as _batch
	r == {{
		"path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "tolerations", 0],
		"message": "leaderworkerset \"lws\" (spec.leaderWorkerTemplate.workerTemplate.spec) tolerates the dedicated taint \"workload=batch:PreferNoSchedule\", which the inventory's nodes carry as PreferNoSchedule (batch): it only discourages other pods, which can still land there; make it NoSchedule to dedicate the nodes",
	}}
}
