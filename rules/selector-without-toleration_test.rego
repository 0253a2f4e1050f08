# Pods that select control-plane nodes without tolerating their taint.
package dslint.rules["selector-without-toleration_test"]

import data.dslint.rules["selector-without-toleration"] as rule

import data.dslint.test.inventory as testinv

_cp := "node-role.kubernetes.io/control-plane"

_m := "node-role.kubernetes.io/master"

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

_ds(spec) := object.union(_deploy(spec), {"kind": "DaemonSet", "metadata": {"name": "etcd-backup"}})

_cronjob(spec) := {
	"apiVersion": "batch/v1",
	"kind": "CronJob",
	"metadata": {"name": "etcd-defrag"},
	"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union(
		{"restartPolicy": "OnFailure", "containers": [{"name": "d", "image": "defrag:1"}]},
		spec,
	)}}}},
}

_required(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_exists(key) := {"key": key, "operator": "Exists"}

_cp_toleration := {"key": _cp, "operator": "Exists", "effect": "NoSchedule"}

_m_toleration := {"key": _m, "operator": "Exists", "effect": "NoSchedule"}

_tpl := ["spec", "template", "spec"]

# _add(spec_path, toleration) is an edit of a fix: toleration appended to
# the tolerations of the pod spec at spec_path.
_add(spec_path, toleration) := {"op": "add", "path": array.concat(spec_path, ["tolerations", "-"]), "value": toleration}

_ns_path(key) := ["spec", "template", "spec", "nodeSelector", key]

_expr_path(j) := [
	"spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
	"nodeSelectorTerms", 0, "matchExpressions", j, "key",
]

_add_cp := "add the toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}"

# _cp_message(who, selection, note) is the message for pods that miss the
# control-plane taint only.
_cp_message(who, selection, note) := sprintf("%s selects control-plane nodes (%s) but does not tolerate the taint \"node-role.kubernetes.io/control-plane:NoSchedule\"%s: wherever control-plane nodes carry it (kubeadm, most distributions) its pods stay Pending; %s", [who, selection, note, _add_cp])

_deployment := "deployment \"cluster-autoscaler\""

_silent(obj) if rule.report == set() with input as obj

# --- nodeSelector ---------------------------------------------------------------------

test_node_selector_without_toleration if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy({"nodeSelector": {_cp: ""}})
}

test_node_selector_with_other_labels_and_tolerations if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy({
		"nodeSelector": {"kubernetes.io/os": "linux", _cp: "true"},
		"tolerations": [{"key": "CriticalAddonsOnly", "operator": "Exists"}],
	})
}

# The kubeadm taint has no value: Equal "true" does not tolerate it.
test_valued_toleration_does_not_match if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", " (its toleration of \"node-role.kubernetes.io/control-plane\" has operator Equal and value \"true\": the taint has no value, so it does not match)"),
	}} with input as _deploy({
		"nodeSelector": {_cp: ""},
		"tolerations": [{"key": _cp, "operator": "Equal", "value": "true", "effect": "NoSchedule"}],
	})
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", " (its toleration of \"node-role.kubernetes.io/control-plane\" has operator Equal and value \"true\": the taint has no value, so it does not match)"),
	}} with input as _deploy({
		"nodeSelector": {_cp: ""},
		"tolerations": [{"key": _cp, "value": "true"}],
	})
}

test_toleration_of_other_effect if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", " (its toleration of \"node-role.kubernetes.io/control-plane\" is for effect \"NoExecute\" only)"),
	}} with input as _deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"key": _cp, "operator": "Exists", "effect": "NoExecute"}]})
}

test_toleration_with_unknown_operator if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", " (its toleration of \"node-role.kubernetes.io/control-plane\" has operator \"exists\", which matches nothing)"),
	}} with input as _deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"key": _cp, "operator": "exists", "effect": "NoSchedule"}]})
}

# A wildcard limited to NoExecute does not tolerate a NoSchedule taint.
test_wildcard_of_other_effect if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"operator": "Exists", "effect": "NoExecute"}]})
}

# The master label on the default target (1.36): kubeadm no longer labels
# any node so, deprecated-master-key reports the selector, and no node with
# the master label carries the control-plane taint in any release.
test_master_selector_on_new_release_silent if {
	_silent(_deploy({"nodeSelector": {_m: ""}}))
	_silent(_deploy({"nodeSelector": {_m: ""}, "tolerations": [_m_toleration]}))
	_silent(_deploy(_required([{"matchExpressions": [_exists(_m)]}])))
}

# Both labels in the nodeSelector: the finding is at the control-plane key.
test_both_labels_in_node_selector if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy({"nodeSelector": {_m: "", _cp: ""}})
}

# --- the master taint on releases before 1.25 -------------------------------------------

test_master_selector_before_1_25 if {
	rule.report == {{
		"path": _ns_path(_m),
		"fix": [_add(_tpl, _m_toleration)],
		"message": "deployment \"cluster-autoscaler\" selects control-plane nodes (nodeSelector \"node-role.kubernetes.io/master\") but does not tolerate the taint \"node-role.kubernetes.io/master:NoSchedule\": on Kubernetes 1.24 and older (the target is 1.23), where control-plane nodes carry that taint, its pods stay Pending; add the toleration {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}",
	}} with input as _deploy({"nodeSelector": {_m: ""}})
		with data.dslint.config.kubernetesVersion as "1.23"
}

# Through 1.24, nodes labelled control-plane carry the master taint too.
test_control_plane_selector_before_1_25_needs_both if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration), _add(_tpl, _m_toleration)],
		"message": "deployment \"cluster-autoscaler\" selects control-plane nodes (nodeSelector \"node-role.kubernetes.io/control-plane\") but does not tolerate the taint \"node-role.kubernetes.io/control-plane:NoSchedule\" and the taint \"node-role.kubernetes.io/master:NoSchedule\": wherever control-plane nodes carry them (kubeadm applies the master taint through 1.24 and the control-plane one from 1.24 on) its pods stay Pending; add the tolerations {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} and {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}",
	}} with input as _deploy({"nodeSelector": {_cp: ""}})
		with data.dslint.config.kubernetesVersion as "1.24"
}

test_control_plane_selector_before_1_25_with_control_plane_toleration if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _m_toleration)],
		"message": "deployment \"cluster-autoscaler\" selects control-plane nodes (nodeSelector \"node-role.kubernetes.io/control-plane\") but does not tolerate the taint \"node-role.kubernetes.io/master:NoSchedule\": on Kubernetes 1.24 and older (the target is 1.22), where control-plane nodes carry that taint, its pods stay Pending; add the toleration {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}",
	}} with input as _deploy({"nodeSelector": {_cp: ""}, "tolerations": [_cp_toleration]})
		with data.dslint.config.kubernetesVersion as "1.22"
}

test_before_1_25_tolerated_silent if {
	_silent(_deploy({"nodeSelector": {_m: ""}, "tolerations": [_m_toleration]})) with data.dslint.config.kubernetesVersion as "1.22"
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [_cp_toleration, _m_toleration]})) with data.dslint.config.kubernetesVersion as "1.22"
}

# From 1.25 on the master taint is gone.
test_master_taint_not_needed_from_1_25 if {
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [_cp_toleration]})) with data.dslint.config.kubernetesVersion as "1.25"
	_silent(_deploy({"nodeSelector": {_m: ""}, "tolerations": [_cp_toleration]})) with data.dslint.config.kubernetesVersion as "1.25"
}

# --- required node affinity -------------------------------------------------------------

test_required_affinity_exists if {
	rule.report == {{
		"path": _expr_path(1),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "required node affinity on \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy(_required([{"matchExpressions": [
		{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
		_exists(_cp),
	]}]))
}

test_required_affinity_in if {
	rule.report == {{
		"path": _expr_path(0),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "required node affinity on \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy(_required([{"matchExpressions": [{"key": _cp, "operator": "In", "values": ["", "true"]}]}]))
}

# Old and new label in two terms (ORed): every term pins the control plane.
# The finding is at the first term's expression.
test_required_affinity_one_term_per_label if {
	rule.report == {{
		"path": _expr_path(0),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "required node affinity on \"node-role.kubernetes.io/master\"", ""),
	}} with input as _deploy(_required([
		{"matchExpressions": [_exists(_m)]},
		{"matchExpressions": [_exists(_cp)]},
	]))
}

# Both labels ANDed in one term: the finding is at the control-plane one.
test_required_affinity_both_labels_in_one_term if {
	rule.report == {{
		"path": _expr_path(1),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "required node affinity on \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy(_required([{"matchExpressions": [_exists(_m), _exists(_cp)]}]))
}

test_daemonset_and_cronjob if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message("daemonset \"etcd-backup\"", "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _ds({"nodeSelector": {_cp: ""}, "hostNetwork": true})
	rule.report == {{
		"path": ["spec", "jobTemplate", "spec", "template", "spec", "nodeSelector", _cp],
		"fix": [_add(["spec", "jobTemplate", "spec", "template", "spec"], _cp_toleration)],
		"message": _cp_message("cronjob \"etcd-defrag\"", "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _cronjob({"nodeSelector": {_cp: ""}})
}

# --- silent -------------------------------------------------------------------------------

test_tolerated_silent if {
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [_cp_toleration]}))
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"key": _cp, "effect": "NoSchedule"}]}))
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"key": _cp, "operator": "Exists"}]}))
	_silent(_ds({"nodeSelector": {_cp: ""}, "tolerations": [_cp_toleration]}))
}

test_wildcard_silent if {
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"operator": "Exists"}]}))
	_silent(_deploy({"nodeSelector": {_cp: ""}, "tolerations": [{"operator": "Exists", "effect": "NoSchedule"}]}))
}

# A term that admits other nodes leaves the pods somewhere to go.
test_term_admitting_other_nodes_silent if {
	_silent(_deploy(_required([
		{"matchExpressions": [_exists(_cp)]},
		{"matchExpressions": [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["m5.large"]}]},
	])))
}

test_exclusions_silent if {
	_silent(_deploy(_required([{"matchExpressions": [{"key": _cp, "operator": "DoesNotExist"}]}])))
	_silent(_deploy(_required([{"matchExpressions": [{"key": _cp, "operator": "NotIn", "values": [""]}]}])))
}

test_preferred_only_silent if {
	_silent(_deploy({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
		"weight": 100,
		"preference": {"matchExpressions": [_exists(_cp)]},
	}]}}}))
}

test_no_selection_silent if {
	_silent(_deploy({}))
	_silent(_deploy({"nodeSelector": {"kubernetes.io/os": "linux"}}))
	_silent(_deploy({"nodeSelector": {"role": _cp}}))
	_silent(_deploy(_required([])))
	_silent(_deploy(_required([{"matchExpressions": [{"key": "role", "operator": "In", "values": [_cp]}]}])))
}

# nodeName bypasses the scheduler, and the kubelet ignores NoSchedule taints.
test_node_name_silent if {
	_silent(_deploy({"nodeName": "cp-1", "nodeSelector": {_cp: ""}}))
}

# With an inventory, no-matching-nodes reports such pods exactly.
test_inventory_silent if {
	_silent(_deploy({"nodeSelector": {_cp: ""}})) with data.dslint.inventory as testinv.indexed({"pools": [testinv.pool("cp", {}, [], ["cp-1"])]})
}

test_not_a_workload_silent if {
	_silent(object.union(_deploy({"nodeSelector": {_cp: ""}}), {"apiVersion": "example.com/v1"}))
	_silent({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "cp-1", "labels": {_cp: ""}}})
}

# A Kustomize patch (a container without an image) is no workload of its own.
test_patch_silent if {
	_silent(_deploy({"nodeSelector": {_cp: ""}, "containers": [{"name": "main"}]}))
}

test_malformed_silent if {
	_silent(_deploy({"nodeSelector": [_cp]}))
	_silent(_deploy(_required({"a": {"matchExpressions": [_exists(_cp)]}})))
	_silent(_deploy(_required([{"matchExpressions": {"a": _exists(_cp)}}])))
	_silent(_deploy(_required(["bogus", {"matchExpressions": [_exists(_cp)]}])))
}

# Indexes are the manifest's, malformed entries included.
test_malformed_expressions_keep_indexes if {
	rule.report == {{
		"path": _expr_path(1),
		"fix": [_add(_tpl, _cp_toleration)],
		"message": _cp_message(_deployment, "required node affinity on \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as _deploy(_required([{"matchExpressions": [null, _exists(_cp)]}]))
}

# Before 1.24 kubeadm taints control-plane nodes with the master key only:
# a control-plane selector needs no control-plane toleration there.
test_control_plane_selector_before_1_24_needs_only_the_master_taint if {
	rule.report == {{
		"path": _ns_path(_cp),
		"fix": [_add(_tpl, _m_toleration)],
		"message": "deployment \"cluster-autoscaler\" selects control-plane nodes (nodeSelector \"node-role.kubernetes.io/control-plane\") but does not tolerate the taint \"node-role.kubernetes.io/master:NoSchedule\": on Kubernetes 1.24 and older (the target is 1.22), where control-plane nodes carry that taint, its pods stay Pending; add the toleration {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}",
	}} with input as _deploy({"nodeSelector": {_cp: ""}})
		with data.dslint.config.kubernetesVersion as "1.22"
}

# --- custom resources -----------------------------------------------------------------

_pod_spec(spec) := object.union({"containers": [{"name": "c", "image": "i:1"}]}, spec)

# Each pod template is judged on its own: the head tolerates the taint, the
# second worker group does not; the message names the template.
test_raycluster_worker_group if {
	rule.report == {{
		"path": ["spec", "workerGroupSpecs", 1, "template", "spec", "nodeSelector", _cp],
		"fix": [_add(["spec", "workerGroupSpecs", 1, "template", "spec"], _cp_toleration)],
		"message": _cp_message("raycluster \"ray\" (spec.workerGroupSpecs[1].template.spec)", "nodeSelector \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": _pod_spec({"nodeSelector": {_cp: ""}, "tolerations": [_cp_toleration]})}},
			"workerGroupSpecs": [
				{"replicas": 1, "template": {"spec": _pod_spec({})}},
				{"replicas": 1, "template": {"spec": _pod_spec({"nodeSelector": {_cp: ""}})}},
			],
		},
	}
}

test_jobset_required_affinity if {
	rule.report == {{
		"path": [
			"spec", "replicatedJobs", 0, "template", "spec", "template", "spec",
			"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
			"nodeSelectorTerms", 0, "matchExpressions", 0, "key",
		],
		"fix": [_add(["spec", "replicatedJobs", 0, "template", "spec", "template", "spec"], _cp_toleration)],
		"message": _cp_message("jobset \"backup\" (spec.replicatedJobs[0].template.spec.template.spec)", "required node affinity on \"node-role.kubernetes.io/control-plane\"", ""),
	}} with input as {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "backup"},
		"spec": {"replicatedJobs": [{"name": "etcd", "template": {"spec": {"template": {"spec": _pod_spec(_required([{"matchExpressions": [_exists(_cp)]}]))}}}}]},
	}
}

# --- declared pools (pools: in .dslint.yaml), no inventory --------------------------

_declared := {"pools": [{
	"name": "gpu",
	"labels": {"pool": "gpu"},
	"taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}, {"key": "dedicated", "effect": "NoExecute"}],
	"owners": {"namespaces": ["kube-system"]},
}]}

test_declared_pool_names_the_tolerations_to_add if {
	r := rule.report with input as _deploy({"nodeSelector": {"pool": "gpu"}}) with data.dslint.config as _declared
	r == {{
		"path": ["spec", "template", "spec", "nodeSelector", "pool"],
		"fix": [
			_add(_tpl, {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}),
			_add(_tpl, {"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}),
		],
		"message": "deployment \"cluster-autoscaler\" selects pool \"gpu\" (nodeSelector pool=gpu) but does not tolerate its taint \"dedicated=gpu:NoSchedule\" and its taint \"dedicated:NoExecute\": its pods stay Pending; add the tolerations {key: dedicated, operator: Equal, value: \"gpu\", effect: NoSchedule} and {key: dedicated, operator: Exists, effect: NoExecute}",
	}}
}

test_declared_pool_tolerated if {
	spec := {"nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]}
	count(rule.report) == 0 with input as _deploy(spec) with data.dslint.config as _declared
}

test_declared_pool_not_kept_there if {
	spec := _required([{"matchExpressions": [_exists("pool")]}, {"matchExpressions": [_exists("zone")]}])
	count(rule.report) == 0 with input as _deploy(spec) with data.dslint.config as _declared
}

test_declared_pool_quiet_with_an_inventory if {
	count(rule.report) == 0 with input as _deploy({"nodeSelector": {"pool": "gpu"}})
		with data.dslint.config as _declared
		with data.dslint.inventory as testinv.indexed({"pools": [testinv.pool("gpu", {"pool": "gpu"}, [], ["gpu-1"])]})
}
