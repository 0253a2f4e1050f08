# Tolerations of taint keys Kubernetes renamed or stopped applying.
package dslint.rules["obsolete-toleration_test"]

import data.dslint.rules["obsolete-toleration"] as rule

_alpha_not_ready := "node.alpha.kubernetes.io/notReady"

_alpha_unreachable := "node.alpha.kubernetes.io/unreachable"

_not_ready := "node.kubernetes.io/not-ready"

_unreachable := "node.kubernetes.io/unreachable"

# _deploy(spec) is a Deployment whose pod spec is spec plus a container.
_deploy(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "session-store", "namespace": "cache"},
	"spec": {
		"selector": {"matchLabels": {"app": "session-store"}},
		"template": {
			"metadata": {"labels": {"app": "session-store"}},
			"spec": object.union({"containers": [{"name": "redis", "image": "redis:7.2"}]}, spec),
		},
	},
}

_tols(ts) := _deploy({"tolerations": ts})

_ds(spec) := object.union(_deploy(spec), {"kind": "DaemonSet"})

_cronjob(spec) := {
	"apiVersion": "batch/v1",
	"kind": "CronJob",
	"metadata": {"name": "backup"},
	"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union(
		{"restartPolicy": "OnFailure", "containers": [{"name": "b", "image": "backup:1"}]},
		spec,
	)}}}},
}

# _key(i) is the path of the key of toleration i of the Deployment.
_key(i) := ["spec", "template", "spec", "tolerations", i, "key"]

_renamed(old, new) := sprintf("toleration key %q is obsolete: Kubernetes renamed the taint to %q in 1.9, so this toleration matches no taint; use the new key", [old, new])

_camel(old, new) := sprintf("toleration key %q is obsolete: it is the camelCase spelling of the 1.8 design, and Kubernetes taints nodes %q, so this toleration matches no taint; use the new key", [old, new])

# _item(i) is the path of toleration i, which a fix removes.
_item(i) := ["spec", "template", "spec", "tolerations", i]

# _rename(path, message, new) is the finding at the key at path of a renamed
# taint, whose fix writes the new key there.
_rename(path, message, new) := {"path": path, "message": message, "fix": [{"op": "replace", "path": path, "value": new}]}

_exists(key, effect) := {"key": key, "operator": "Exists", "effect": effect}

_silent(obj) if rule.report == set() with input as obj

# --- renamed keys: fires ----------------------------------------------------------

test_alpha_not_ready if {
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _tols([_exists(_alpha_not_ready, "NoExecute")])
}

test_alpha_unreachable_among_others if {
	rule.report == {_rename(_key(1), _renamed(_alpha_unreachable, _unreachable), _unreachable)} with input as _tols([
		{"key": "dedicated", "value": "cache", "effect": "NoSchedule"},
		{"key": _alpha_unreachable, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 3600},
	])
}

test_camel_case_keys if {
	rule.report == {_rename(_key(0), _camel("node.kubernetes.io/notReady", _not_ready), _not_ready)} with input as _tols([_exists("node.kubernetes.io/notReady", "NoSchedule")])
	rule.report == {_rename(_key(0), _camel("node.kubernetes.io/memoryPressure", "node.kubernetes.io/memory-pressure"), "node.kubernetes.io/memory-pressure")} with input as _tols([_exists("node.kubernetes.io/memoryPressure", "NoSchedule")])
	rule.report == {_rename(_key(0), _camel("node.kubernetes.io/diskPressure", "node.kubernetes.io/disk-pressure"), "node.kubernetes.io/disk-pressure")} with input as _tols([_exists("node.kubernetes.io/diskPressure", "NoSchedule")])
	rule.report == {_rename(_key(0), _camel("node.kubernetes.io/networkUnavailable", "node.kubernetes.io/network-unavailable"), "node.kubernetes.io/network-unavailable")} with input as _tols([_exists("node.kubernetes.io/networkUnavailable", "NoSchedule")])
}

test_two_obsolete_tolerations_two_findings if {
	rule.report == {
		_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready),
		_rename(_key(1), _renamed(_alpha_unreachable, _unreachable), _unreachable),
	} with input as _tols([_exists(_alpha_not_ready, "NoExecute"), _exists(_alpha_unreachable, "NoExecute")])
}

# The counterpart must cover the same effects: a NoSchedule one does not
# stand in for NoExecute, and a toleration without an effect was meant for
# both effects Kubernetes applies not-ready with.
test_counterpart_of_other_effect_is_none if {
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _tols([
		_exists(_alpha_not_ready, "NoExecute"),
		_exists(_not_ready, "NoSchedule"),
	])
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _tols([
		{"key": _alpha_not_ready, "operator": "Exists"},
		_exists(_not_ready, "NoExecute"),
	])
}

# The first toleration of a NoExecute taint decides how long pods stay: when
# a later toleration of the current key's NoExecute taint sets another
# timeout, renaming would put the old one first and change it, so the
# finding carries no fix. An earlier one, one with the same timeout, or one
# of another effect is no obstacle.
test_no_fix_when_renaming_would_come_before_a_timeout if {
	timed := {"key": _not_ready, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
	rule.report == {{"path": _key(0), "message": _renamed(_alpha_not_ready, _not_ready)}} with input as _tols([
		{"key": _alpha_not_ready, "operator": "Exists"},
		timed,
	])
	rule.report == {_rename(_key(1), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _tols([
		timed,
		{"key": _alpha_not_ready, "operator": "Exists"},
	])
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _tols([
		_exists(_alpha_not_ready, "NoSchedule"),
		timed,
	])
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _tols([
		{"key": _alpha_not_ready, "operator": "Exists"},
		_exists(_not_ready, "NoExecute"),
	])
}

# Kubernetes' taints have no value: a valued counterpart matches none.
test_valued_counterpart_is_none if {
	rule.report == {_rename(_key(0), _renamed(_alpha_unreachable, _unreachable), _unreachable)} with input as _tols([
		_exists(_alpha_unreachable, "NoExecute"),
		{"key": _unreachable, "operator": "Equal", "value": "true", "effect": "NoExecute"},
	])
}

test_pod_and_cronjob_paths if {
	rule.report == {_rename(["spec", "tolerations", 0, "key"], _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "p"},
		"spec": {"containers": [{"name": "c", "image": "i:1"}], "tolerations": [_exists(_alpha_not_ready, "NoExecute")]},
	}
	rule.report == {_rename(["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0, "key"], _renamed(_alpha_unreachable, _unreachable), _unreachable)} with input as _cronjob({"tolerations": [_exists(_alpha_unreachable, "NoExecute")]})
}

# --- renamed keys: silent -----------------------------------------------------------

# Both keys: the documented way to support old and new clusters.
test_both_keys_silent if {
	_silent(_tols([_exists(_alpha_not_ready, "NoExecute"), _exists(_not_ready, "NoExecute")]))
	_silent(_tols([_exists(_unreachable, "NoExecute"), _exists(_alpha_unreachable, "NoExecute")]))
	_silent(_tols([{"key": _alpha_not_ready, "operator": "Exists"}, {"key": _not_ready, "operator": "Exists"}]))
	_silent(_tols([_exists("node.kubernetes.io/memoryPressure", "NoSchedule"), _exists("node.kubernetes.io/memory-pressure", "NoSchedule")]))
}

# A toleration of the current key without an effect covers every effect.
test_counterpart_without_effect_silent if {
	_silent(_tols([_exists(_alpha_not_ready, "NoExecute"), {"key": _not_ready, "operator": "Exists"}]))
}

test_wildcard_silent if {
	_silent(_tols([_exists(_alpha_not_ready, "NoExecute"), {"operator": "Exists"}]))
	_silent(_tols([_exists(_alpha_not_ready, "NoExecute"), {"operator": "Exists", "effect": "NoExecute"}]))
}

test_current_keys_silent if {
	_silent(_tols([
		_exists(_not_ready, "NoExecute"),
		_exists(_unreachable, "NoExecute"),
		_exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
		_exists("node.kubernetes.io/disk-pressure", "NoSchedule"),
		_exists("node.kubernetes.io/network-unavailable", "NoSchedule"),
	]))
}

# deprecated-master-key owns the master key.
test_master_key_silent if {
	_silent(_tols([_exists("node-role.kubernetes.io/master", "NoSchedule")]))
}

# Only the exact keys: other spellings are somebody's own taints.
test_similar_keys_silent if {
	_silent(_tols([_exists("node.alpha.kubernetes.io/notready", "NoExecute")]))
	_silent(_tols([_exists("node.kubernetes.io/NotReady", "NoSchedule")]))
	_silent(_tols([_exists("example.com/node.alpha.kubernetes.io/notReady", "NoSchedule")]))
	_silent(_tols([_exists("node.alpha.kubernetes.io/notReady-workload", "NoSchedule")]))
	_silent(_tols([{"key": [_alpha_not_ready], "operator": "Exists"}]))
}

test_not_a_workload_silent if {
	_silent(object.union(_tols([_exists(_alpha_not_ready, "NoExecute")]), {"apiVersion": "example.com/v1"}))
}

test_malformed_tolerations_silent if {
	_silent(_tols([_alpha_not_ready, null, 3]))
	_silent(_deploy({"tolerations": {"a": _exists(_alpha_not_ready, "NoExecute")}}))
}

# --- DaemonSets ---------------------------------------------------------------------

# The controller tolerates not-ready and unreachable NoExecute itself: the
# old toleration is dead, not failing.
test_daemonset_controller_covers_it_info if {
	rule.report == {{
		"path": _key(0),
		"message": "toleration key \"node.alpha.kubernetes.io/notReady\" is obsolete: Kubernetes renamed the taint to \"node.kubernetes.io/not-ready\" in 1.9, so this toleration matches no taint; the daemonset controller already tolerates \"node.kubernetes.io/not-ready\" on these pods, so remove it",
		"severity": "info",
		"fix": [{"op": "remove", "path": _item(0)}],
	}} with input as _ds({"tolerations": [_exists(_alpha_not_ready, "NoExecute")]})
}

# Not NoSchedule, which CNI DaemonSets need on new nodes.
test_daemonset_noschedule_warning if {
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _ds({"tolerations": [_exists(_alpha_not_ready, "NoSchedule")]})
	rule.report == {_rename(_key(0), _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as _ds({"tolerations": [{"key": _alpha_not_ready, "operator": "Exists"}]})
}

# network-unavailable only with hostNetwork.
test_daemonset_network_unavailable if {
	old := "node.kubernetes.io/networkUnavailable"
	rule.report == {_rename(_key(0), _camel(old, "node.kubernetes.io/network-unavailable"), "node.kubernetes.io/network-unavailable")} with input as _ds({"tolerations": [_exists(old, "NoSchedule")]})
	rule.report == {{
		"path": _key(0),
		"message": "toleration key \"node.kubernetes.io/networkUnavailable\" is obsolete: it is the camelCase spelling of the 1.8 design, and Kubernetes taints nodes \"node.kubernetes.io/network-unavailable\", so this toleration matches no taint; the daemonset controller already tolerates \"node.kubernetes.io/network-unavailable\" on these pods, so remove it",
		"severity": "info",
		"fix": [{"op": "remove", "path": _item(0)}],
	}} with input as _ds({"hostNetwork": true, "tolerations": [_exists(old, "NoSchedule")]})
}

test_daemonset_with_both_keys_silent if {
	_silent(_ds({"tolerations": [_exists(_alpha_not_ready, "NoSchedule"), _exists(_not_ready, "NoSchedule")]}))
}

# --- keys with no replacement -------------------------------------------------------

test_out_of_disk if {
	rule.report == {{
		"path": _key(0),
		"message": "toleration key \"node.kubernetes.io/out-of-disk\" is obsolete: Kubernetes no longer applies this taint (the kubelet stopped reporting the OutOfDisk node condition in 1.13), so this toleration matches no taint; no replacement exists, remove it",
		"fix": [{"op": "remove", "path": _item(0)}],
	}} with input as _tols([_exists("node.kubernetes.io/out-of-disk", "NoSchedule")])
}

# Whatever else the pod tolerates, and in a DaemonSet too.
test_out_of_disk_camel_case_in_daemonset if {
	rule.report == {{
		"path": _key(1),
		"message": "toleration key \"node.kubernetes.io/outOfDisk\" is obsolete: it is the camelCase spelling of the 1.8 design of \"node.kubernetes.io/out-of-disk\", a taint Kubernetes no longer applies either (the kubelet stopped reporting the OutOfDisk node condition in 1.13), so this toleration matches no taint; no replacement exists, remove it",
		"fix": [{"op": "remove", "path": _item(1)}],
	}} with input as _ds({"tolerations": [{"operator": "Exists"}, _exists("node.kubernetes.io/outOfDisk", "NoSchedule")]})
}

# --- custom resources -----------------------------------------------------------------

_worker(tols) := {"containers": [{"name": "w", "image": "trainer:1"}], "tolerations": tols}

# Each pod template is judged with its own tolerations: the master's
# counterpart does not cover the worker.
test_pytorchjob_replica_specs if {
	rule.report == {_rename(["spec", "pytorchReplicaSpecs", "Worker", "template", "spec", "tolerations", 0, "key"], _renamed(_alpha_unreachable, _unreachable), _unreachable)} with input as {
		"apiVersion": "kubeflow.org/v1",
		"kind": "PyTorchJob",
		"metadata": {"name": "train"},
		"spec": {"pytorchReplicaSpecs": {
			"Master": {"replicas": 1, "template": {"spec": _worker([_exists(_alpha_unreachable, "NoExecute"), _exists(_unreachable, "NoExecute")])}},
			"Worker": {"replicas": 4, "template": {"spec": _worker([_exists(_alpha_unreachable, "NoExecute")])}},
		}},
	}
}

test_jobset_replicated_job if {
	rule.report == {_rename(["spec", "replicatedJobs", 0, "template", "spec", "template", "spec", "tolerations", 1, "key"], _renamed(_alpha_not_ready, _not_ready), _not_ready)} with input as {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "js"},
		"spec": {"replicatedJobs": [{"name": "workers", "replicas": 2, "template": {"spec": {"template": {"spec": _worker([
			{"key": "dedicated", "value": "train", "effect": "NoSchedule"},
			_exists(_alpha_not_ready, "NoExecute"),
		])}}}}]},
	}
}
