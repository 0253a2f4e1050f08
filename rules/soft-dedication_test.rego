package dslint.rules["soft-dedication"]

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

_only(r, path) := f if {
	count(r) == 1
	some f in r
	f.path == path
}

# --- fires ----------------------------------------------------------------------------------

test_preference_toward_the_tolerated_value if {
	f := _only(report, _pref_at(0)) with input as _deployment(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]))
	f.message == "deployment \"trainer\" tolerates the dedicated taint \"dedicated=ml:NoSchedule\" and prefers its nodes, but no required constraint keeps it there: a preference only weighs in the score, so its pods can still land on any other node; make it required node affinity or a nodeSelector if it must stay on the pool"
	not "severity" in object.keys(f) # info, the rule's default
}

test_preference_with_exists if {
	_only(report, _pref_at(0)) with input as _deployment(_spec([_pref(10, [{"key": "dedicated", "operator": "Exists"}])], [_ml]))
}

test_exists_toleration_with_any_in_preference if {
	f := _only(report, _pref_at(1)) with input as _deployment(_spec(
		[_pref(5, [_r("zone", "In", ["a"])]), _pref(50, [_r("nvidia.com/gpu", "In", ["true"])])],
		[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
	))
	contains(f.message, "tolerates the dedicated taint \"nvidia.com/gpu:NoSchedule\" and prefers its nodes")
}

test_one_finding_per_preference_naming_the_first_toleration if {
	r := report with input as _deployment(_spec(
		[_pref(100, [_r("dedicated", "In", ["ml", "gpu"])]), _pref(10, [_r("dedicated", "In", ["gpu"])])],
		[{"key": "dedicated", "value": "gpu"}, _ml],
	))
	count(r) == 2
	some f in r
	f.path == _pref_at(0)
	contains(f.message, "\"dedicated=gpu\"")
}

# A generic-only constraint does not pin pods to the pool.
test_generic_required_constraint_does_not_pin if {
	_only(report, _pref_at(0)) with input as _deployment(object.union(
		_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]),
		{"nodeSelector": {"kubernetes.io/os": "linux"}},
	))
}

test_required_exclusions_do_not_pin if {
	_only(report, _pref_at(0)) with input as _deployment(object.union(
		_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]),
		{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [_r("spot", "NotIn", ["true"])]}]}}}},
	))
}

# --- silent -----------------------------------------------------------------------------------

test_required_constraint_pins if {
	count(report) == 0 with input as _deployment(object.union(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]), {"nodeSelector": {"dedicated": "ml"}}))
	count(report) == 0 with input as _deployment(object.union(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]), {"nodeName": "ml-1"}))
}

test_required_affinity_pins if {
	count(report) == 0 with input as _deployment({
		"affinity": {"nodeAffinity": {
			"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [_r("dedicated", "In", ["ml"])]}]},
			"preferredDuringSchedulingIgnoredDuringExecution": [_pref(100, [_r("dedicated", "In", ["ml"])])],
		}},
		"tolerations": [_ml],
	})
}

test_preference_toward_another_value if {
	count(report) == 0 with input as _deployment(_spec([_pref(100, [_r("dedicated", "In", ["gpu"])])], [_ml]))
}

test_preference_away_from_the_pool if {
	count(report) == 0 with input as _deployment(_spec([_pref(100, [_r("dedicated", "NotIn", ["ml"])])], [_ml]))
	count(report) == 0 with input as _deployment(_spec([_pref(100, [{"key": "dedicated", "operator": "DoesNotExist"}])], [_ml]))
}

test_preference_on_another_key if {
	count(report) == 0 with input as _deployment(_spec([_pref(100, [_r("pool", "In", ["ml"])])], [_ml]))
}

test_no_toleration if {
	count(report) == 0 with input as _deployment(_with_prefs([_pref(100, [_r("dedicated", "In", ["ml"])])]))
}

test_system_taints_and_wildcards if {
	count(report) == 0 with input as _deployment(_spec(
		[_pref(100, [{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists"}])],
		[{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists"}],
	))
}

test_unmatchable_toleration_operator if {
	count(report) == 0 with input as _deployment(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [{"key": "dedicated", "operator": "exists"}]))
}

test_malformed_preferences if {
	count(report) == 0 with input as _deployment(_spec(["dedicated=ml", {"weight": 1}, {"weight": 1, "preference": null}], [_ml]))
	count(report) == 0 with input as _deployment(object.union({"tolerations": [_ml]}, {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": {"weight": 1}}}}))
}

# --- kinds ----------------------------------------------------------------------------------------

test_daemonset_preference_has_no_effect if {
	f := _only(report, _pref_at(0)) with input as object.union(
		_deployment(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml])),
		{"kind": "DaemonSet", "metadata": {"name": "ml-agent"}},
	)
	contains(f.message, "daemonset \"ml-agent\" tolerates")
	contains(f.message, "a DaemonSet runs on every node it may, so the preference has no effect")
}

test_pod_path if {
	_only(report, ["spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", 0]) with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "notebook"},
		"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, _spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml])),
	}
}

test_cronjob_path if {
	_only(report, ["spec", "jobTemplate", "spec", "template", "spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", 0]) with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, _spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]))}}}},
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
	workloads := _every_kind(_spec([_pref(100, [_r("dedicated", "In", ["ml"])])], [_ml]))
	count(workloads) == 9
	every w in workloads {
		count(report) == 1 with input as w
	}
}

_batch := testinv.indexed({"pools": [
	testinv.pool("batch", {"pool": "batch"}, [{"key": "workload", "value": "batch", "effect": "PreferNoSchedule"}], ["b-1", "b-2"]),
	testinv.pool("general", {"pool": "general"}, [], ["g-1"]),
]})

test_inventory_prefer_no_schedule_taint if {
	w := _deployment({"nodeSelector": {"pool": "batch"}, "tolerations": [{"key": "workload", "operator": "Exists"}]})
	r := report with input as w with data.dslint.inventory as _batch
	r == {{
		"path": ["spec", "template", "spec", "tolerations", 0],
		"message": "deployment \"trainer\" tolerates the dedicated taint \"workload=batch:PreferNoSchedule\", which the inventory's nodes carry as PreferNoSchedule (batch): it only discourages other pods, which can still land there; make it NoSchedule to dedicate the nodes",
	}}
}

test_inventory_no_schedule_taint_is_fine if {
	inv := testinv.indexed({"pools": [testinv.pool("batch", {"pool": "batch"}, [{"key": "workload", "value": "batch", "effect": "NoSchedule"}], ["b-1"])]})
	w := _deployment({"nodeSelector": {"pool": "batch"}, "tolerations": [{"key": "workload", "operator": "Exists"}]})
	count(report) == 0 with input as w with data.dslint.inventory as inv
}

test_inventory_silent_without_inventory if {
	w := _deployment({"nodeSelector": {"pool": "batch"}, "tolerations": [{"key": "workload", "operator": "Exists"}]})
	count(report) == 0 with input as w
}
