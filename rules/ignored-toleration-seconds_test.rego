# tolerationSeconds on a not-ready/unreachable toleration that the DaemonSet
# controller replaces (reference §5.1, §2.3).
package dslint.rules["ignored-toleration-seconds"]

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

_one(r, path) := f.message if {
	count(r) == 1
	some f in r
	f.path == path
	not "severity" in object.keys(f)
}

_silent(obj) if count(report) == 0 with input as obj

# --- fires --------------------------------------------------------------------------

test_not_ready_exists_with_seconds if {
	msg := _one(report, _sp(0)) with input as _tols([_timed(_nr, "Exists", 300)])
	contains(msg, "tolerationSeconds 300 is ignored: the DaemonSet controller replaces this toleration with its own {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}, which has no tolerationSeconds")
	contains(msg, "so daemonset pods are never evicted from not-ready nodes; remove tolerationSeconds")
	contains(msg, "write this toleration with operator Equal and no value")
}

test_unreachable_exists_with_seconds if {
	msg := _one(report, _sp(0)) with input as _tols([_timed(_ur, "Exists", 60)])
	contains(msg, "tolerationSeconds 60 is ignored")
	contains(msg, "{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}")
	contains(msg, "never evicted from unreachable nodes")
}

test_zero_and_negative_seconds if {
	msg := _one(report, _sp(0)) with input as _tols([_timed(_nr, "Exists", 0)])
	contains(msg, "tolerationSeconds 0 is ignored")
	_one(report, _sp(0)) with input as _tols([_timed(_ur, "Exists", -1)])
}

test_both_conditions if {
	r := report with input as _tols([
		{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
		_timed(_nr, "Exists", 300),
		_timed(_ur, "Exists", 300),
	])
	{f.path | some f in r} == {_sp(1), _sp(2)}
}

test_explicit_empty_value_is_replaced if {
	_one(report, _sp(0)) with input as _tols([object.union(_timed(_nr, "Exists", 30), {"value": ""})])
}

test_extensions_v1beta1 if {
	_one(report, _sp(0)) with input as object.union(_tols([_timed(_nr, "Exists", 30)]), {"apiVersion": "extensions/v1beta1"})
}

# Every matching toleration is replaced, each timeout is lost.
test_duplicates_both_replaced if {
	r := report with input as _tols([_timed(_nr, "Exists", 30), _timed(_nr, "Exists", 60)])
	{f.path | some f in r} == {_sp(0), _sp(1)}
}

# An earlier kept toleration with a timeout decides eviction: say so.
test_earlier_equal_toleration_decides if {
	msg := _one(report, _sp(1)) with input as _tols([_timed(_nr, "Equal", 30), _timed(_nr, "Exists", 60)])
	contains(msg, "tolerationSeconds 60 is ignored")
	contains(msg, "so eviction from not-ready nodes follows tolerations[0] (tolerationSeconds 30) instead; remove this tolerationSeconds")
}

test_earlier_wildcard_with_seconds_decides if {
	msg := _one(report, _sp(1)) with input as _tols([
		{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 10},
		_timed(_ur, "Exists", 60),
	])
	contains(msg, "follows tolerations[0] (tolerationSeconds 10)")
}

# A later kept toleration does not decide: the replaced one comes first.
test_later_equal_toleration_does_not_decide if {
	msg := _one(report, _sp(0)) with input as _tols([_timed(_nr, "Exists", 60), _timed(_nr, "Equal", 30)])
	contains(msg, "never evicted from not-ready nodes")
}

# An earlier wildcard without tolerationSeconds tolerates forever anyway.
test_earlier_wildcard_forever if {
	msg := _one(report, _sp(2)) with input as _tols([null, {"operator": "Exists"}, _timed(_nr, "Exists", 60)])
	contains(msg, "never evicted")
}

# --- silent ---------------------------------------------------------------------------

# Operator Equal (or none) with no value is not MatchToleration-equal to the
# controller's Exists toleration: it is kept, listed before the controller's,
# and matches the valueless not-ready taint, so its timeout applies.
test_equal_operator_keeps_its_seconds if {
	_silent(_tols([_timed(_nr, "Equal", 300)]))
	_silent(_tols([{"key": _ur, "effect": "NoExecute", "tolerationSeconds": 300}]))
	_first_match(_nr) == 0 with input as _tols([_timed(_nr, "Equal", 300)])
	_effective[0].tolerationSeconds == 300 with input as _tols([_timed(_nr, "Equal", 300)])
}

# The controller's own tolerations are appended after the manifest's.
test_effective_list_order if {
	eff := _effective with input as _tols([_timed(_nr, "Exists", 300), {"key": "a", "operator": "Exists"}])
	eff[0] == {"key": _nr, "operator": "Exists", "effect": "NoExecute"}
	eff[1] == {"key": "a", "operator": "Exists"}
	eff[2].key == _ur
	count(eff) == 7
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

# _first_match is the index in _effective; without a matching toleration of
# its own, the pod's first match is one the controller appends.
test_first_match_among_appended_tolerations if {
	obj := _tols([_timed(_nr, "Exists", 300), {"key": "a", "operator": "Exists"}])
	_first_match(_nr) == 0 with input as obj
	_first_match(_ur) == 2 with input as obj
	_first_match(_ur) == 0 with input as _tols([{"operator": "Exists"}])
	_first_match(_nr) == 1 with input as _tols([{"key": "a"}, _timed(_nr, "Exists", 300)])
	_first_match(_nr) == 0 with input as _tols(["not a mapping", _timed(_nr, "Exists", 300)]) # the empty toleration
}

# _created(j) is _effective[j] for the manifest's own indexes.
test_created_is_the_effective_entry if {
	every ts in [
		[_timed(_nr, "Exists", 300), {"key": "a", "operator": "Exists"}, null, _timed(_ur, "Equal", 5)],
		[_timed(_nr, "Exists", 300), _timed(_nr, "Exists", 30), {"key": _nr, "operator": "Exists", "effect": "NoExecute", "value": "x"}],
	] {
		every j, _ in ts {
			_created(j) == _effective[j] with input as _tols(ts)
		}
	}
}

# Not-ready and unreachable only: the other tolerations the controller
# replaces keep nothing worth reporting here.
test_other_replaced_tolerations_with_seconds_silent if {
	_silent(_tols([{"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5}]))
}

test_earlier_equal_toleration_without_seconds_decides_forever if {
	msg := _one(report, _sp(1)) with input as _tols([{"key": _nr, "operator": "Equal", "effect": "NoExecute"}, _timed(_nr, "Exists", 60)])
	contains(msg, "never evicted from not-ready nodes")
}
