# The master taint without a control-plane counterpart, and node selection
# on the master label (reference §6).
package dslint.rules["deprecated-master-key"]

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

_one(r, path) := f.message if {
	count(r) == 1
	some f in r
	f.path == path
	not "severity" in object.keys(f)
}

_silent(obj) if count(report) == 0 with input as obj

# --- tolerations: fires -----------------------------------------------------------

test_only_master_toleration if {
	msg := _one(report, _tp(0)) with input as _tols([_master_exists])
	contains(msg, "toleration of the deprecated taint \"node-role.kubernetes.io/master\" has no counterpart for \"node-role.kubernetes.io/control-plane\"")
	contains(msg, "kubeadm stopped applying the master taint in 1.25")
	contains(msg, "taints control-plane nodes \"node-role.kubernetes.io/control-plane:NoSchedule\" instead")
	contains(msg, "add {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} next to it")
}

test_points_at_the_master_toleration_among_others if {
	msg := _one(report, _tp(1)) with input as _tols([
		{"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoSchedule"},
		_master_exists,
	])
	contains(msg, "has no counterpart")
}

# Key exact; any operator or effect.
test_key_only_master_toleration if {
	msg := _one(report, _tp(0)) with input as _tols([{"key": _m, "effect": "NoSchedule"}])
	contains(msg, "operator: Exists, effect: NoSchedule")
}

test_master_without_effect if {
	msg := _one(report, _tp(0)) with input as _tols([{"key": _m, "operator": "Exists"}])
	contains(msg, "add {key: node-role.kubernetes.io/control-plane, operator: Exists} next to it")
}

test_master_with_value_suggests_same_value if {
	msg := _one(report, _tp(0)) with input as _tols([{"key": _m, "operator": "Equal", "value": "true", "effect": "NoSchedule"}])
	contains(msg, "operator: Equal, value: \"true\", effect: NoSchedule")
}

test_master_noexecute if {
	msg := _one(report, _tp(0)) with input as _tols([{"key": _m, "operator": "Exists", "effect": "NoExecute"}])
	contains(msg, "effect: NoExecute}")
}

test_two_master_tolerations_two_findings if {
	r := report with input as _tols([_master_exists, {"key": _m, "operator": "Exists", "effect": "NoExecute"}])
	{f.path | some f in r} == {_tp(0), _tp(1)}
}

test_pod_and_daemonset if {
	_one(report, ["spec", "tolerations", 0, "key"]) with input as _pod({"tolerations": [_master_exists]})
	_one(report, _tp(0)) with input as _ds({"tolerations": [_master_exists]})
}

# A control-plane toleration that does not match the kubeadm taint (a value
# the taint does not have) is no counterpart of a valueless master one.
test_control_plane_toleration_that_does_not_match if {
	_one(report, _tp(0)) with input as _tols([
		_master_exists,
		{"key": _cp, "operator": "Equal", "value": "true", "effect": "NoSchedule"},
	])
}

test_control_plane_toleration_of_other_effect if {
	_one(report, _tp(0)) with input as _tols([
		_master_exists,
		{"key": _cp, "operator": "Exists", "effect": "NoExecute"},
	])
}

# Lt/Gt never match with the gate off: no counterpart.
test_control_plane_toleration_that_matches_nothing if {
	_one(report, _tp(0)) with input as _tols([_master_exists, {"key": _cp, "operator": "exists", "effect": "NoSchedule"}])
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

_ns_path := ["spec", "template", "spec", "nodeSelector", _m]

test_node_selector_master if {
	msg := _one(report, _ns_path) with input as _deploy({"nodeSelector": {_m: ""}, "tolerations": [_master_exists, _cp_exists]})
	contains(msg, "nodeSelector on the label \"node-role.kubernetes.io/master\", which kubeadm stopped applying to control-plane nodes in 1.24")
	contains(msg, "on such clusters no node matches and the pods stay Pending; select \"node-role.kubernetes.io/control-plane\" instead")
}

# nodeSelector entries are ANDed: also selecting control-plane does not help.
test_node_selector_master_and_control_plane if {
	_one(report, _ns_path) with input as _deploy({"nodeSelector": {_m: "", _cp: ""}})
}

test_node_selector_and_toleration_two_findings if {
	r := report with input as _deploy({"nodeSelector": {_m: "true"}, "tolerations": [_master_exists]})
	{f.path | some f in r} == {_ns_path, _tp(0)}
}

test_node_selector_on_pod if {
	_one(report, ["spec", "nodeSelector", _m]) with input as _pod({"nodeSelector": {_m: ""}})
}

test_node_selector_control_plane_silent if {
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [_cp_exists]}))
}

_required(terms) := _deploy({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}})

_preferred(prefs) := _deploy({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": prefs}}})

_rp(i, j) := ["spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", i, "matchExpressions", j, "key"]

_pp(i, j) := ["spec", "template", "spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", i, "preference", "matchExpressions", j, "key"]

test_required_exists_master if {
	msg := _one(report, _rp(0, 1)) with input as _required([{"matchExpressions": [
		{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
		{"key": _m, "operator": "Exists"},
	]}])
	contains(msg, "required node affinity on the label \"node-role.kubernetes.io/master\"")
	contains(msg, "on such clusters no node has it, so this term matches no node; use \"node-role.kubernetes.io/control-plane\", or add a term for it")
}

test_required_does_not_exist_master if {
	msg := _one(report, _rp(1, 0)) with input as _required([
		{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
		{"matchExpressions": [{"key": _m, "operator": "DoesNotExist"}]},
	])
	contains(msg, "so this expression no longer keeps the pods off the control plane")
}

test_required_notin_master if {
	msg := _one(report, _rp(0, 0)) with input as _required([{"matchExpressions": [{"key": _m, "operator": "NotIn", "values": ["true"]}]}])
	contains(msg, "no longer keeps the pods off the control plane")
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
	msg := _one(report, _pp(1, 0)) with input as _preferred([
		{"weight": 10, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["infra"]}]}},
		{"weight": 50, "preference": {"matchExpressions": [{"key": _m, "operator": "In", "values": [""]}]}},
	])
	contains(msg, "preferred node affinity on the label \"node-role.kubernetes.io/master\"")
	contains(msg, "on such clusters the preference has no effect")
}

test_preferred_with_control_plane_silent if {
	_silent(_preferred([
		{"weight": 50, "preference": {"matchExpressions": [{"key": _m, "operator": "Exists"}]}},
		{"weight": 50, "preference": {"matchExpressions": [{"key": _cp, "operator": "Exists"}]}},
	]))
}

# Indexes are those of the manifest, malformed entries included.
test_malformed_entries_keep_indexes if {
	_one(report, _pp(1, 1)) with input as _preferred([
		"bogus",
		{"weight": 1, "preference": {"matchExpressions": [null, {"key": _m, "operator": "Exists"}]}},
	])
	_one(report, _rp(1, 0)) with input as _required([null, {"matchExpressions": [{"key": _m, "operator": "Exists"}]}])
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
	r := report with input as obj
	{f.path | some f in r} == {
		["spec", "jobTemplate", "spec", "template", "spec", "nodeSelector", _m],
		["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0, "key"],
	}
}

# The master key is current before 1.24 (label) and 1.25 (taint): for such a
# target version nothing is reported (reference §6).
test_target_version if {
	obj := _deploy({"nodeSelector": {_m: ""}, "tolerations": [_master_exists]})
	count(report) == 2 with input as obj
	{f.path | some f in report} == {_ns_path} with input as obj with data.dslint.config as {"kubernetesVersion": "1.24"}
	count(report) == 0 with input as obj with data.dslint.config as {"kubernetesVersion": "1.23"}
	count(report) == 2 with input as obj with data.dslint.config as {"kubernetesVersion": "1.25"}
}

# OpenShift still labels and taints its control plane with the master key:
# its own release payload is right to use it.
test_openshift_payload_is_silent if {
	obj := _deploy({"nodeSelector": {_m: ""}, "tolerations": [_master_exists]})
	_silent(json.patch(obj, [{"op": "add", "path": "/metadata/annotations", "value": {"include.release.openshift.io/self-managed-high-availability": "true"}}]))
	_silent(json.patch(obj, [{"op": "replace", "path": "/metadata/namespace", "value": "openshift-ingress-operator"}]))
	count(report) == 2 with input as json.patch(obj, [{"op": "replace", "path": "/metadata/namespace", "value": "openshift"}])
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
	_one(report, _ns_path) with input as _deploy({"nodeSelector": {_m: false}})
	_one(report, _ns_path) with input as _deploy({"nodeSelector": {_m: null}})
}

test_master_toleration_key_of_other_type_or_case_silent if {
	_silent(_tols([{"key": "Node-role.kubernetes.io/master", "operator": "Exists"}]))
	_silent(_tols([{"key": [_m], "operator": "Exists"}]))
}
