# The master taint without a control-plane counterpart, and node selection
# on the master label (reference §6).
package dslint.rules["deprecated-master-key_test"]

import data.dslint.rules["deprecated-master-key"] as rule

_m := "node-role.kubernetes.io/master"

_cp := "node-role.kubernetes.io/control-plane"

# _deploy(spec) is a Deployment whose pod spec is spec plus a container.
_deploy(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "cluster-autoscaler", "namespace": "kube-system"},
	"spec": {
		"selector": {"matchLabels": {"app": "ca"}},
		"template": {
			"metadata": {"labels": {"app": "ca"}},
			"spec": object.union({"containers": [{"name": "main", "image": "ca:1"}]}, spec),
		},
	},
}

_ds(spec) := object.union(_deploy(spec), {"kind": "DaemonSet"})

_pod(spec) := {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}

# Findings on a toleration point at its key.
_tp(i) := ["spec", "template", "spec", "tolerations", i, "key"]

_tols(ts) := _deploy({"tolerations": ts})

_master_exists := {"key": _m, "operator": "Exists", "effect": "NoSchedule"}

_cp_exists := {"key": _cp, "operator": "Exists", "effect": "NoSchedule"}

# _toleration(i, add, counterpart) is the finding for the master toleration
# i without a counterpart; add is the counterpart's operator and effect as
# the message suggests, and its fix appends counterpart to the list.
_toleration(i, add, counterpart) := _toleration_at(_tp(i), add, counterpart)

_toleration_at(path, add, counterpart) := {
	"path": path,
	"fix": [{"op": "add", "path": array.concat(array.slice(path, 0, count(path) - 2), ["-"]), "value": counterpart}],
	"message": sprintf("toleration of the deprecated taint \"node-role.kubernetes.io/master\" has no counterpart for \"node-role.kubernetes.io/control-plane\": kubeadm stopped applying the master taint in 1.25 and taints control-plane nodes \"node-role.kubernetes.io/control-plane:NoSchedule\" instead, so this toleration no longer lets pods onto them; add {key: node-role.kubernetes.io/control-plane, operator: %s} next to it", [add]),
}

_exists_noschedule := "Exists, effect: NoSchedule"

_selector_message := "nodeSelector on the label \"node-role.kubernetes.io/master\", which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): on such clusters no node matches and the pods stay Pending; select \"node-role.kubernetes.io/control-plane\" instead"

_matches_no_node := "on such clusters no node has it, so this term matches no node"

_keeps_nothing_off := "on such clusters no node has it, so this expression no longer keeps the pods off the control plane"

_required_message(effect) := sprintf("required node affinity on the label \"node-role.kubernetes.io/master\", which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): %s; use \"node-role.kubernetes.io/control-plane\", or add a term for it", [effect])

_preferred_message := "preferred node affinity on the label \"node-role.kubernetes.io/master\", which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): on such clusters the preference has no effect; use \"node-role.kubernetes.io/control-plane\", or add a term for it"

_silent(obj) if rule.report == set() with input as obj

# --- tolerations: fires -----------------------------------------------------------

# The fix appends the counterpart the message names to the tolerations.
test_only_master_toleration if {
	rule.report == {{
		"path": _tp(0),
		"fix": [{"op": "add", "path": ["spec", "template", "spec", "tolerations", "-"], "value": _cp_exists}],
		"message": "toleration of the deprecated taint \"node-role.kubernetes.io/master\" has no counterpart for \"node-role.kubernetes.io/control-plane\": kubeadm stopped applying the master taint in 1.25 and taints control-plane nodes \"node-role.kubernetes.io/control-plane:NoSchedule\" instead, so this toleration no longer lets pods onto them; add {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} next to it",
	}} with input as _tols([_master_exists])
}

test_points_at_the_master_toleration_among_others if {
	rule.report == {_toleration(1, _exists_noschedule, _cp_exists)} with input as _tols([
		{"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoSchedule"},
		_master_exists,
	])
}

# Key exact; any operator or effect.
test_key_only_master_toleration if {
	rule.report == {_toleration(0, _exists_noschedule, _cp_exists)} with input as _tols([{"key": _m, "effect": "NoSchedule"}])
}

test_master_without_effect if {
	rule.report == {_toleration(0, "Exists", {"key": _cp, "operator": "Exists"})} with input as _tols([{"key": _m, "operator": "Exists"}])
}

test_master_with_value_suggests_same_value if {
	rule.report == {_toleration(0, "Equal, value: \"true\", effect: NoSchedule", {"key": _cp, "operator": "Equal", "value": "true", "effect": "NoSchedule"})} with input as _tols([{"key": _m, "operator": "Equal", "value": "true", "effect": "NoSchedule"}])
}

# The counterpart keeps the master toleration's tolerationSeconds, and
# nothing the master toleration leaves empty or null.
test_master_counterpart_keeps_toleration_seconds if {
	rule.report == {_toleration(0, "Exists, effect: NoExecute, tolerationSeconds: 60", {"key": _cp, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60})} with input as _tols([{"key": _m, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}])
	rule.report == {_toleration(0, "Exists", {"key": _cp, "operator": "Exists"})} with input as _tols([{"key": _m, "operator": "Equal", "value": "", "effect": ""}])
	rule.report == {_toleration(0, "Exists", {"key": _cp, "operator": "Exists"})} with input as _tols([{"key": _m, "value": null, "effect": null}])
}

test_master_noexecute if {
	rule.report == {_toleration(0, "Exists, effect: NoExecute", {"key": _cp, "operator": "Exists", "effect": "NoExecute"})} with input as _tols([{"key": _m, "operator": "Exists", "effect": "NoExecute"}])
}

test_two_master_tolerations_two_findings if {
	rule.report == {
		_toleration(0, _exists_noschedule, _cp_exists),
		_toleration(1, "Exists, effect: NoExecute", {"key": _cp, "operator": "Exists", "effect": "NoExecute"}),
	} with input as _tols([_master_exists, {"key": _m, "operator": "Exists", "effect": "NoExecute"}])
}

test_pod_and_daemonset if {
	rule.report == {_toleration_at(["spec", "tolerations", 0, "key"], _exists_noschedule, _cp_exists)} with input as _pod({"tolerations": [_master_exists]})
	rule.report == {_toleration(0, _exists_noschedule, _cp_exists)} with input as _ds({"tolerations": [_master_exists]})
}

# A control-plane toleration that does not match the kubeadm taint (a value
# the taint does not have) is no counterpart of a valueless master one.
test_control_plane_toleration_that_does_not_match if {
	rule.report == {_toleration(0, _exists_noschedule, _cp_exists)} with input as _tols([
		_master_exists,
		{"key": _cp, "operator": "Equal", "value": "true", "effect": "NoSchedule"},
	])
}

test_control_plane_toleration_of_other_effect if {
	rule.report == {_toleration(0, _exists_noschedule, _cp_exists)} with input as _tols([
		_master_exists,
		{"key": _cp, "operator": "Exists", "effect": "NoExecute"},
	])
}

# An operator in the wrong case matches nothing: no counterpart.
test_control_plane_toleration_that_matches_nothing if {
	rule.report == {_toleration(0, _exists_noschedule, _cp_exists)} with input as _tols([_master_exists, {"key": _cp, "operator": "exists", "effect": "NoSchedule"}])
}

# --- tolerations: silent ---------------------------------------------------------

test_both_keys_silent if {
	_silent(_tols([_master_exists, _cp_exists]))
	_silent(_tols([_cp_exists, _master_exists]))
	_silent(_tols([{"key": _m, "effect": "NoSchedule"}, {"key": _cp, "effect": "NoSchedule"}]))
}

test_control_plane_without_effect_silent if {
	_silent(_tols([_master_exists, {"key": _cp, "operator": "Exists"}]))
}

test_wildcard_silent if {
	_silent(_tols([_master_exists, {"operator": "Exists"}]))
	_silent(_tols([_master_exists, {"operator": "Exists", "effect": "NoSchedule"}]))
}

# Valued master and control-plane tolerations (a distribution that taints
# with a value) pair up.
test_valued_pair_silent if {
	_silent(_tols([
		{"key": _m, "operator": "Equal", "value": "true", "effect": "NoSchedule"},
		{"key": _cp, "operator": "Equal", "value": "true", "effect": "NoSchedule"},
	]))
}

test_noexecute_pair_silent if {
	_silent(_tols([
		{"key": _m, "operator": "Exists", "effect": "NoExecute"},
		{"key": _cp, "operator": "Exists", "effect": "NoExecute"},
	]))
}

test_control_plane_only_silent if {
	_silent(_tols([_cp_exists]))
}

test_similar_keys_silent if {
	_silent(_tols([{"key": "node-role.kubernetes.io/master-x", "operator": "Exists"}]))
	_silent(_tols([{"key": "node-role.kubernetes.io/Master", "operator": "Exists"}]))
	_silent(_tols([{"key": "kubernetes.io/master", "operator": "Exists"}]))
}

test_not_a_workload_silent if {
	_silent(object.union(_tols([_master_exists]), {"apiVersion": "example.com/v1"}))
}

test_malformed_tolerations_silent if {
	_silent(_tols(["node-role.kubernetes.io/master", null, 3]))
}

# --- node selection ----------------------------------------------------------------

# Findings on node selection carry no fix: replacing the label and adding a
# term for the new one are both right (the tests compare whole findings).

_ns_path := ["spec", "template", "spec", "nodeSelector", _m]

_selector := {"path": _ns_path, "message": _selector_message}

test_node_selector_master if {
	rule.report == {_selector} with input as _deploy({"nodeSelector": {_m: ""}, "tolerations": [_master_exists, _cp_exists]})
}

# nodeSelector entries are ANDed: also selecting control-plane does not help.
test_node_selector_master_and_control_plane if {
	rule.report == {_selector} with input as _deploy({"nodeSelector": {_m: "", _cp: ""}})
}

test_node_selector_and_toleration_two_findings if {
	rule.report == {_selector, _toleration(0, _exists_noschedule, _cp_exists)} with input as _deploy({"nodeSelector": {_m: "true"}, "tolerations": [_master_exists]})
}

test_node_selector_on_pod if {
	rule.report == {{"path": ["spec", "nodeSelector", _m], "message": _selector_message}} with input as _pod({"nodeSelector": {_m: ""}})
}

test_node_selector_control_plane_silent if {
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [_cp_exists]}))
}

_required(terms) := _deploy({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}})

_preferred(prefs) := _deploy({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": prefs}}})

_rp(i, j) := ["spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", i, "matchExpressions", j, "key"]

_pp(i, j) := ["spec", "template", "spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", i, "preference", "matchExpressions", j, "key"]

test_required_exists_master if {
	rule.report == {{
		"path": _rp(0, 1),
		"message": "required node affinity on the label \"node-role.kubernetes.io/master\", which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): on such clusters no node has it, so this term matches no node; use \"node-role.kubernetes.io/control-plane\", or add a term for it",
	}} with input as _required([{"matchExpressions": [
		{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
		{"key": _m, "operator": "Exists"},
	]}])
}

test_required_does_not_exist_master if {
	rule.report == {{"path": _rp(1, 0), "message": _required_message(_keeps_nothing_off)}} with input as _required([
		{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
		{"matchExpressions": [{"key": _m, "operator": "DoesNotExist"}]},
	])
}

test_required_notin_master if {
	rule.report == {{"path": _rp(0, 0), "message": _required_message(_keeps_nothing_off)}} with input as _required([{"matchExpressions": [{"key": _m, "operator": "NotIn", "values": ["true"]}]}])
}

# The compatible patterns: one term per label (ORed) to select the control
# plane, both expressions in one term (ANDed) to avoid it.
test_required_with_control_plane_silent if {
	_silent(_required([
		{"matchExpressions": [{"key": _m, "operator": "Exists"}]},
		{"matchExpressions": [{"key": _cp, "operator": "Exists"}]},
	]))
	_silent(_required([{"matchExpressions": [
		{"key": _m, "operator": "DoesNotExist"},
		{"key": _cp, "operator": "DoesNotExist"},
	]}]))
}

test_preferred_master if {
	rule.report == {{"path": _pp(1, 0), "message": _preferred_message}} with input as _preferred([
		{"weight": 10, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["infra"]}]}},
		{"weight": 50, "preference": {"matchExpressions": [{"key": _m, "operator": "In", "values": [""]}]}},
	])
}

test_preferred_with_control_plane_silent if {
	_silent(_preferred([
		{"weight": 50, "preference": {"matchExpressions": [{"key": _m, "operator": "Exists"}]}},
		{"weight": 50, "preference": {"matchExpressions": [{"key": _cp, "operator": "Exists"}]}},
	]))
}

# Indexes are those of the manifest, malformed entries included.
test_malformed_entries_keep_indexes if {
	rule.report == {{"path": _pp(1, 1), "message": _preferred_message}} with input as _preferred([
		"bogus",
		{"weight": 1, "preference": {"matchExpressions": [null, {"key": _m, "operator": "Exists"}]}},
	])
	rule.report == {{"path": _rp(1, 0), "message": _required_message(_matches_no_node)}} with input as _required([null, {"matchExpressions": [{"key": _m, "operator": "Exists"}]}])
}

test_master_value_is_not_a_key if {
	_silent(_required([{"matchExpressions": [{"key": "role", "operator": "In", "values": [_m]}]}]))
	_silent(_deploy({"nodeSelector": {"role": _m}}))
}

test_cronjob_paths if {
	obj := {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "backup"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": {
			"containers": [{"name": "c", "image": "i"}],
			"nodeSelector": {_m: ""},
			"tolerations": [_master_exists],
		}}}}},
	}
	rule.report == {
		{"path": ["spec", "jobTemplate", "spec", "template", "spec", "nodeSelector", _m], "message": _selector_message},
		_toleration_at(["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0, "key"], _exists_noschedule, _cp_exists),
	} with input as obj
}

# The master key is current before 1.24 (label) and 1.25 (taint): for such a
# target version nothing is reported (reference §6).
test_target_version if {
	obj := _deploy({"nodeSelector": {_m: ""}, "tolerations": [_master_exists]})
	both := {_selector, _toleration(0, _exists_noschedule, _cp_exists)}
	rule.report == both with input as obj
	rule.report == {_selector} with input as obj with data.dslint.config as {"kubernetesVersion": "1.24"}
	rule.report == set() with input as obj with data.dslint.config as {"kubernetesVersion": "1.23"}
	rule.report == both with input as obj with data.dslint.config as {"kubernetesVersion": "1.25"}
}

# OpenShift still labels and taints its control plane with the master key:
# its own release payload is right to use it.
test_openshift_payload_is_silent if {
	obj := _deploy({"nodeSelector": {_m: ""}, "tolerations": [_master_exists]})
	_silent(json.patch(obj, [{"op": "add", "path": "/metadata/annotations", "value": {"include.release.openshift.io/self-managed-high-availability": "true"}}]))
	_silent(json.patch(obj, [{"op": "replace", "path": "/metadata/namespace", "value": "openshift-ingress-operator"}]))
	rule.report == {_selector, _toleration(0, _exists_noschedule, _cp_exists)} with input as json.patch(obj, [{"op": "replace", "path": "/metadata/namespace", "value": "openshift"}])
}

# Only lists are read: a mapping where the API has a list is not iterated,
# and neither is a term, preference or expression that is not a mapping.
test_mappings_in_place_of_lists_silent if {
	_silent(_required({"a": {"matchExpressions": [{"key": _m, "operator": "Exists"}]}}))
	_silent(_required([{"matchExpressions": {"a": {"key": _m, "operator": "Exists"}}}]))
	_silent(_required([{"matchExpressions": [[_m]]}]))
	_silent(_preferred({"a": {"weight": 1, "preference": {"matchExpressions": [{"key": _m, "operator": "Exists"}]}}}))
	_silent(_preferred([{"weight": 1, "preference": {"matchExpressions": {"a": {"key": _m, "operator": "Exists"}}}}]))
	_silent(_preferred([{"weight": 1, "preference": [{"matchExpressions": [{"key": _m, "operator": "Exists"}]}]}]))
	_silent(_deploy({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}}))
}

# A nodeSelector on the master label is reported whatever its value.
test_node_selector_master_with_any_value if {
	rule.report == {_selector} with input as _deploy({"nodeSelector": {_m: false}})
	rule.report == {_selector} with input as _deploy({"nodeSelector": {_m: null}})
}

test_master_toleration_key_of_other_type_or_case_silent if {
	_silent(_tols([{"key": "Node-role.kubernetes.io/master", "operator": "Exists"}]))
	_silent(_tols([{"key": [_m], "operator": "Exists"}]))
}

# --- custom resources -----------------------------------------------------------------

_ray_pod(spec) := object.union({"containers": [{"name": "ray", "image": "ray:2"}]}, spec)

# Each pod template is judged on its own: the head's counterpart does not
# cover a worker group, and each finding points into its template.
test_raycluster_worker_group if {
	rule.report == {
		_toleration_at(["spec", "workerGroupSpecs", 1, "template", "spec", "tolerations", 0, "key"], _exists_noschedule, _cp_exists),
		{"path": ["spec", "workerGroupSpecs", 1, "template", "spec", "nodeSelector", _m], "message": _selector_message},
	} with input as {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": _ray_pod({"tolerations": [_master_exists, _cp_exists]})}},
			"workerGroupSpecs": [
				{"replicas": 1, "template": {"spec": _ray_pod({})}},
				{"replicas": 2, "template": {"spec": _ray_pod({"nodeSelector": {_m: ""}, "tolerations": [_master_exists]})}},
			],
		},
	}
}

test_leaderworkerset_leader_affinity if {
	rule.report == {{
		"path": ["spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchExpressions", 0, "key"],
		"message": _required_message(_keeps_nothing_off),
	}} with input as {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "vllm"},
		"spec": {"leaderWorkerTemplate": {
			"leaderTemplate": {"spec": _ray_pod({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": _m, "operator": "DoesNotExist"}]}]}}}})},
			"workerTemplate": {"spec": _ray_pod({})},
		}},
	}
}
