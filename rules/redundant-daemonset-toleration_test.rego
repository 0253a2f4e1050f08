# Tolerations identical (MatchToleration) to the ones the DaemonSet
# controller adds (reference §5.1).
package dslint.rules["redundant-daemonset-toleration_test"]

import data.dslint.rules["redundant-daemonset-toleration"] as rule

_nr := "node.kubernetes.io/not-ready"

_ur := "node.kubernetes.io/unreachable"

_net := "node.kubernetes.io/network-unavailable"

# _ds(spec) is a DaemonSet whose pod spec is spec plus a container.
_ds(spec) := {
	"apiVersion": "apps/v1",
	"kind": "DaemonSet",
	"metadata": {"name": "node-exporter", "namespace": "monitoring"},
	"spec": {
		"selector": {"matchLabels": {"app": "node-exporter"}},
		"template": {
			"metadata": {"labels": {"app": "node-exporter"}},
			"spec": object.union({"containers": [{"name": "exporter", "image": "node-exporter:v1.8.1"}]}, spec),
		},
	},
}

_tols(ts) := _ds({"tolerations": ts})

_tp(i) := ["spec", "template", "spec", "tolerations", i]

_exists(key, effect) := {"key": key, "operator": "Exists", "effect": effect}

# _redundant(i, key, effect) is the finding for toleration i, identical to
# the one the controller adds to every DaemonSet pod; its fix removes it.
_redundant(i, key, effect) := {
	"path": _tp(i),
	"fix": [{"op": "remove", "path": _tp(i)}],
	"message": sprintf("toleration {key: %s, operator: Exists, effect: %s} is redundant: the DaemonSet controller adds this exact toleration to every daemonset pod (and replaces this one with it); remove it", [key, effect]),
}

_silent(obj) if rule.report == set() with input as obj

# --- fires --------------------------------------------------------------------------

test_each_always_added_toleration if {
	every key, effect in {
		_nr: "NoExecute",
		_ur: "NoExecute",
		"node.kubernetes.io/disk-pressure": "NoSchedule",
		"node.kubernetes.io/memory-pressure": "NoSchedule",
		"node.kubernetes.io/pid-pressure": "NoSchedule",
		"node.kubernetes.io/unschedulable": "NoSchedule",
	} {
		rule.report == {_redundant(0, key, effect)} with input as _tols([_exists(key, effect)])
	}
}

test_points_at_each_redundant_one if {
	rule.report == {
		_redundant(1, "node.kubernetes.io/memory-pressure", "NoSchedule"),
		_redundant(3, _ur, "NoExecute"),
	} with input as _tols([
		{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
		_exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
		{"key": "nvidia.com/gpu", "operator": "Exists"},
		_exists(_ur, "NoExecute"),
	])
}

test_network_unavailable_with_host_network if {
	rule.report == {{
		"path": _tp(0),
		"fix": [{"op": "remove", "path": _tp(0)}],
		"message": "toleration {key: node.kubernetes.io/network-unavailable, operator: Exists, effect: NoSchedule} is redundant: the DaemonSet controller adds this exact toleration to daemonset pods that use hostNetwork (and replaces this one with it); remove it",
	}} with input as _ds({"hostNetwork": true, "tolerations": [_exists(_net, "NoSchedule")]})
}

# An explicit empty value equals the controller's (empty) value.
test_explicit_empty_value if {
	rule.report == {_redundant(0, _nr, "NoExecute")} with input as _tols([{"key": _nr, "operator": "Exists", "value": "", "effect": "NoExecute"}])
}

test_extensions_v1beta1 if {
	obj := object.union(_tols([_exists("node.kubernetes.io/disk-pressure", "NoSchedule")]), {"apiVersion": "extensions/v1beta1"})
	rule.report == {_redundant(0, "node.kubernetes.io/disk-pressure", "NoSchedule")} with input as obj
}

# tolerationSeconds on a NoSchedule toleration makes it invalid: the API
# server rejects it, and invalid-toleration alone reports it.
test_invalid_toleration_is_left_to_invalid_toleration if {
	_silent(_tols([object.union(_exists("node.kubernetes.io/pid-pressure", "NoSchedule"), {"tolerationSeconds": 60})]))
}

test_null_seconds_is_redundant if {
	rule.report == {_redundant(0, _nr, "NoExecute")} with input as _tols([object.union(_exists(_nr, "NoExecute"), {"tolerationSeconds": null})])
}

test_every_identical_toleration_is_reported if {
	rule.report == {_redundant(0, _nr, "NoExecute"), _redundant(2, _nr, "NoExecute")} with input as _tols([
		_exists(_nr, "NoExecute"),
		_exists("dedicated", "NoSchedule"),
		_exists(_nr, "NoExecute"),
	])
}

# Removing the first toleration of a NoExecute taint would hand the
# eviction timeout to the next one: when that one sets tolerationSeconds
# (operator Equal, which the controller keeps), the finding carries no fix.
# An earlier timed one already decides, and a later one without a timeout
# decides the same.
test_no_fix_when_removal_hands_over_the_timeout if {
	timed := {"key": _nr, "operator": "Equal", "effect": "NoExecute", "tolerationSeconds": 300}
	rule.report == {{
		"path": _tp(0),
		"message": "toleration {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute} is redundant: the DaemonSet controller adds this exact toleration to every daemonset pod (and replaces this one with it); remove it",
	}} with input as _tols([_exists(_nr, "NoExecute"), timed])
	rule.report == {_redundant(1, _nr, "NoExecute")} with input as _tols([timed, _exists(_nr, "NoExecute")])
	rule.report == {_redundant(0, _nr, "NoExecute")} with input as _tols([_exists(_nr, "NoExecute"), object.union(timed, {"tolerationSeconds": null})])
}

# --- silent ---------------------------------------------------------------------------

# Dropping the eviction timeout is ignored-toleration-seconds' finding.
test_not_ready_with_seconds_belongs_to_the_other_rule if {
	_silent(_tols([object.union(_exists(_nr, "NoExecute"), {"tolerationSeconds": 300})]))
	_silent(_tols([object.union(_exists(_ur, "NoExecute"), {"tolerationSeconds": 0})]))
}

test_network_unavailable_without_host_network_is_needed if {
	_silent(_tols([_exists(_net, "NoSchedule")]))
	_silent(_ds({"hostNetwork": false, "tolerations": [_exists(_net, "NoSchedule")]}))
}

# MatchToleration compares the operator as written: "" (Equal) is not Exists.
test_operator_must_be_identical if {
	_silent(_tols([{"key": _nr, "effect": "NoExecute"}]))
	_silent(_tols([{"key": _nr, "operator": "Equal", "effect": "NoExecute"}]))
	_silent(_tols([{"key": _nr, "operator": "exists", "effect": "NoExecute"}]))
}

test_effect_must_be_identical if {
	_silent(_tols([{"key": _nr, "operator": "Exists"}]))
	_silent(_tols([_exists(_nr, "NoSchedule")]))
	_silent(_tols([_exists(_ur, "NoSchedule")]))
	_silent(_tols([_exists("node.kubernetes.io/disk-pressure", "NoExecute")]))
}

test_value_must_be_identical if {
	_silent(_tols([{"key": _nr, "operator": "Exists", "value": "x", "effect": "NoExecute"}]))
}

test_other_keys_silent if {
	_silent(_tols([
		{"operator": "Exists"},
		_exists("node.cloudprovider.kubernetes.io/uninitialized", "NoSchedule"),
		_exists("node-role.kubernetes.io/control-plane", "NoSchedule"),
		_exists("node.kubernetes.io/out-of-service", "NoExecute"),
	]))
}

test_not_a_daemonset_silent if {
	_silent(object.union(_tols([_exists(_nr, "NoExecute")]), {"kind": "Deployment"}))
	_silent(object.union(_tols([_exists(_nr, "NoExecute")]), {"apiVersion": "example.com/v1"}))
}

test_malformed_tolerations_silent if {
	_silent(_tols([null, "node.kubernetes.io/not-ready", []]))
	_silent(_ds({"tolerations": "node.kubernetes.io/not-ready"}))
}

# hostNetwork must be the boolean true for the controller to add
# network-unavailable.
test_network_unavailable_with_host_network_not_a_boolean if {
	_silent(_ds({"hostNetwork": "true", "tolerations": [_exists(_net, "NoSchedule")]}))
}

# Custom resources make no DaemonSet pods: no controller adds tolerations
# to their pods.
test_custom_resources_silent if {
	_silent({
		"apiVersion": "kubeflow.org/v1",
		"kind": "PyTorchJob",
		"metadata": {"name": "train"},
		"spec": {"pytorchReplicaSpecs": {"Worker": {"template": {"spec": {
			"containers": [{"name": "w", "image": "w:1"}],
			"tolerations": [_exists(_nr, "NoExecute")],
		}}}}},
	})
	_silent({
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "lws"},
		"spec": {"leaderWorkerTemplate": {"workerTemplate": {"spec": {
			"containers": [{"name": "w", "image": "w:1"}],
			"tolerations": [_exists(_nr, "NoExecute")],
		}}}},
	})
}
