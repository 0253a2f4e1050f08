# tolerationSeconds on a not-ready/unreachable toleration that the DaemonSet
# controller replaces (reference §5.1, §2.3).
package dslint.rules["ignored-toleration-seconds_test"]

import data.dslint.rules["ignored-toleration-seconds"] as rule

_nr := "node.kubernetes.io/not-ready"

_ur := "node.kubernetes.io/unreachable"

_ds(spec) := {
	"apiVersion": "apps/v1",
	"kind": "DaemonSet",
	"metadata": {"name": "fluent-bit", "namespace": "logging"},
	"spec": {
		"selector": {"matchLabels": {"app": "fluent-bit"}},
		"template": {
			"metadata": {"labels": {"app": "fluent-bit"}},
			"spec": object.union({"containers": [{"name": "fluent-bit", "image": "fluent/fluent-bit:3.1"}]}, spec),
		},
	},
}

_tols(ts) := _ds({"tolerations": ts})

_sp(i) := ["spec", "template", "spec", "tolerations", i, "tolerationSeconds"]

# _timed(key, op, secs) is a NoExecute toleration of key with tolerationSeconds.
_timed(key, op, secs) := {"key": key, "operator": op, "effect": "NoExecute", "tolerationSeconds": secs}

_condition := {_nr: "not-ready", _ur: "unreachable"}

# _ignored(secs, key, outcome) is the message for a timeout of key that the
# controller drops, with what happens instead.
_ignored(secs, key, outcome) := sprintf("tolerationSeconds %v is ignored: the DaemonSet controller replaces this toleration with its own {key: %s, operator: Exists, effect: NoExecute}, which has no tolerationSeconds, %s", [secs, key, outcome])

_never(key) := sprintf("so daemonset pods are never evicted from %s nodes; remove tolerationSeconds (or, to keep a timeout, write this toleration with operator Equal and no value: the controller keeps that one)", [_condition[key]])

_follows(key, j, secs) := sprintf("so eviction from %s nodes follows tolerations[%d] (tolerationSeconds %v) instead; remove this tolerationSeconds", [_condition[key], j, secs])

# _drop(i) is the fix's edit: it removes the tolerationSeconds of toleration
# i, which the controller drops anyway.
_drop(i) := {"op": "remove", "path": _sp(i)}

# _never_evicted(i, secs, key) is the finding for toleration i whose timeout
# is dropped, with nothing else to evict the pods.
_never_evicted(i, secs, key) := {"path": _sp(i), "fix": [_drop(i)], "message": _ignored(secs, key, _never(key))}

_silent(obj) if rule.report == set() with input as obj

# --- fires --------------------------------------------------------------------------

test_not_ready_exists_with_seconds if {
	rule.report == {{
		"path": _sp(0), "fix": [_drop(0)],
		"message": "tolerationSeconds 300 is ignored: the DaemonSet controller replaces this toleration with its own {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}, which has no tolerationSeconds, so daemonset pods are never evicted from not-ready nodes; remove tolerationSeconds (or, to keep a timeout, write this toleration with operator Equal and no value: the controller keeps that one)",
	}} with input as _tols([_timed(_nr, "Exists", 300)])
}

test_unreachable_exists_with_seconds if {
	rule.report == {_never_evicted(0, 60, _ur)} with input as _tols([_timed(_ur, "Exists", 60)])
}

test_zero_and_negative_seconds if {
	rule.report == {_never_evicted(0, 0, _nr)} with input as _tols([_timed(_nr, "Exists", 0)])
	rule.report == {_never_evicted(0, -1, _ur)} with input as _tols([_timed(_ur, "Exists", -1)])
}

test_both_conditions if {
	rule.report == {_never_evicted(1, 300, _nr), _never_evicted(2, 300, _ur)} with input as _tols([
		{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
		_timed(_nr, "Exists", 300),
		_timed(_ur, "Exists", 300),
	])
}

test_explicit_empty_value_is_replaced if {
	rule.report == {_never_evicted(0, 30, _nr)} with input as _tols([object.union(_timed(_nr, "Exists", 30), {"value": ""})])
}

test_extensions_v1beta1 if {
	rule.report == {_never_evicted(0, 30, _nr)} with input as object.union(_tols([_timed(_nr, "Exists", 30)]), {"apiVersion": "extensions/v1beta1"})
}

# Every matching toleration is replaced, each timeout is lost.
test_duplicates_both_replaced if {
	rule.report == {_never_evicted(0, 30, _nr), _never_evicted(1, 60, _nr)} with input as _tols([_timed(_nr, "Exists", 30), _timed(_nr, "Exists", 60)])
}

# An earlier kept toleration with a timeout decides eviction: say so.
test_earlier_equal_toleration_decides if {
	rule.report == {{
		"path": _sp(1), "fix": [_drop(1)],
		"message": "tolerationSeconds 60 is ignored: the DaemonSet controller replaces this toleration with its own {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}, which has no tolerationSeconds, so eviction from not-ready nodes follows tolerations[0] (tolerationSeconds 30) instead; remove this tolerationSeconds",
	}} with input as _tols([_timed(_nr, "Equal", 30), _timed(_nr, "Exists", 60)])
}

test_earlier_wildcard_with_seconds_decides if {
	rule.report == {{"path": _sp(1), "fix": [_drop(1)], "message": _ignored(60, _ur, _follows(_ur, 0, 10))}} with input as _tols([
		{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 10},
		_timed(_ur, "Exists", 60),
	])
}

# A later kept toleration does not decide: the replaced one comes first.
test_later_equal_toleration_does_not_decide if {
	rule.report == {_never_evicted(0, 60, _nr)} with input as _tols([_timed(_nr, "Exists", 60), _timed(_nr, "Equal", 30)])
}

# An earlier wildcard without tolerationSeconds tolerates forever anyway.
test_earlier_wildcard_forever if {
	rule.report == {_never_evicted(2, 60, _nr)} with input as _tols([null, {"operator": "Exists"}, _timed(_nr, "Exists", 60)])
}

# A list entry that is not a mapping is the empty toleration, which matches
# the valueless not-ready taint first, without a timeout.
test_earlier_entry_that_is_not_a_mapping_decides_forever if {
	rule.report == {_never_evicted(1, 300, _nr)} with input as _tols(["not a mapping", _timed(_nr, "Exists", 300)])
}

# Only the tolerations that match decide: a keyed one for another taint
# does not, whatever its place.
test_earlier_toleration_of_another_key_does_not_decide if {
	rule.report == {_never_evicted(1, 300, _nr)} with input as _tols([_timed(_ur, "Equal", 5), _timed(_nr, "Exists", 300)])
	rule.report == {_never_evicted(0, 300, _nr), {"path": _sp(3), "fix": [_drop(3)], "message": _ignored(20, _ur, _follows(_ur, 2, 5))}} with input as _tols([
		_timed(_nr, "Exists", 300),
		{"key": "a", "operator": "Exists"},
		_timed(_ur, "Equal", 5),
		_timed(_ur, "Exists", 20),
	])
}

test_earlier_equal_toleration_without_seconds_decides_forever if {
	rule.report == {_never_evicted(1, 60, _nr)} with input as _tols([{"key": _nr, "operator": "Equal", "effect": "NoExecute"}, _timed(_nr, "Exists", 60)])
}

# --- silent ---------------------------------------------------------------------------

# Operator Equal (or none) with no value is not MatchToleration-equal to the
# controller's Exists toleration: it is kept, listed before the controller's,
# and matches the valueless not-ready taint, so its timeout applies.
test_equal_operator_keeps_its_seconds if {
	_silent(_tols([_timed(_nr, "Equal", 300)]))
	_silent(_tols([{"key": _ur, "effect": "NoExecute", "tolerationSeconds": 300}]))
}

test_without_seconds_silent if {
	_silent(_tols([{"key": _nr, "operator": "Exists", "effect": "NoExecute"}]))
	_silent(_tols([{"key": _nr, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": null}]))
}

# A string is a type error, which invalid-toleration reports.
test_non_numeric_seconds_silent if {
	_silent(_tols([_timed(_nr, "Exists", "300")]))
}

test_other_effects_and_keys_silent if {
	_silent(_tols([{"key": _nr, "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 300}]))
	_silent(_tols([{"key": _nr, "operator": "Exists", "tolerationSeconds": 300}]))
	_silent(_tols([_timed("node.kubernetes.io/out-of-service", "Exists", 300)]))
	_silent(_tols([_timed("node.kubernetes.io/memory-pressure", "Exists", 300)]))
	_silent(_tols([{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]))
}

test_exists_with_value_is_not_replaced if {
	_silent(_tols([object.union(_timed(_nr, "Exists", 300), {"value": "x"})]))
}

# Other workloads keep their tolerationSeconds (DefaultTolerationSeconds only
# adds defaults when none is set).
test_not_a_daemonset_silent if {
	_silent(object.union(_tols([_timed(_nr, "Exists", 300)]), {"kind": "Deployment"}))
	_silent({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"tolerations": [_timed(_nr, "Exists", 300)]}})
}

# Not-ready and unreachable only: the other tolerations the controller
# replaces keep nothing worth reporting here.
test_other_replaced_tolerations_with_seconds_silent if {
	_silent(_tols([{"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5}]))
}

# Custom resources make no DaemonSet pods: their timeouts work, whatever
# their pod templates say.
test_custom_resources_silent if {
	_silent({
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {"workerGroupSpecs": [{"template": {"spec": {
			"containers": [{"name": "ray", "image": "ray:2"}],
			"tolerations": [_timed(_nr, "Exists", 300)],
		}}}]},
	})
	_silent({
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "js"},
		"spec": {"replicatedJobs": [{"name": "w", "template": {"spec": {"template": {"spec": {
			"containers": [{"name": "w", "image": "w:1"}],
			"tolerations": [_timed(_nr, "Exists", 300)],
		}}}}}]},
	})
}
