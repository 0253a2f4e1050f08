package dslint.rules["daemonset-missing-control-plane-toleration_test"]

import data.dslint.rules["daemonset-missing-control-plane-toleration"] as rule

_cp := "node-role.kubernetes.io/control-plane"

_master := "node-role.kubernetes.io/master"

# _daemonset(spec) is a DaemonSet whose pod spec is spec plus a container
# and the host's /var/log: a log shipper, a node agent proper.
_daemonset(spec) := {
	"apiVersion": "apps/v1",
	"kind": "DaemonSet",
	"metadata": {"name": "log-shipper", "namespace": "logging"},
	"spec": {
		"selector": {"matchLabels": {"app": "log-shipper"}},
		"template": {
			"metadata": {"labels": {"app": "log-shipper"}},
			"spec": object.union(
				{
					"containers": [{"name": "shipper", "image": "fluent-bit:3.1"}],
					"volumes": [{"name": "logs", "hostPath": {"path": "/var/log"}}],
				},
				spec,
			),
		},
	},
}

_spec_path := ["spec", "template", "spec"]

_list_path := ["spec", "template", "spec", "tolerations"]

_master_note := " (it tolerates only the old master taint, which kubeadm stopped applying in 1.25)"

# _add(key) is the fix's edit that appends the toleration of the taint key
# to the pod's tolerations, which are created when absent.
_add(key) := {"op": "add", "path": ["spec", "template", "spec", "tolerations", "-"], "value": {"key": key, "operator": "Exists", "effect": "NoSchedule"}}

# _missing(name, path, note) is the warning about the DaemonSet name, at
# path, that does not tolerate the control-plane taint; note follows the
# taint. Its fix adds the toleration, wherever the finding points.
_missing(name, path, note) := {
	"path": path,
	"fix": [_add(_cp)],
	"message": sprintf("daemonset %q does not tolerate the control-plane taint \"node-role.kubernetes.io/control-plane:NoSchedule\"%s: it will not run on control-plane nodes; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}", [name, note]),
}

# _shipper(path) is that warning about the log shipper.
_shipper(path) := _missing("log-shipper", path, "")

_silent(spec) if rule.report == set() with input as _daemonset(spec)

# --- fires ----------------------------------------------------------------------------

test_no_tolerations_points_at_pod_spec if {
	r := rule.report with input as _daemonset({})
	r == {_shipper(_spec_path)}
}

test_only_master_toleration_points_at_list if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _master, "operator": "Exists", "effect": "NoSchedule"}]})
	r == {_missing("log-shipper", _list_path, _master_note)}
}

# A master toleration of every effect: the toleration added is its
# counterpart, the very one deprecated-master-key adds, so that the fix
# adds one toleration, not two.
test_master_toleration_of_every_effect_gets_its_counterpart if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _master, "operator": "Exists"}]})
	counterpart := {"key": _cp, "operator": "Exists"}
	r == {object.union(_missing("log-shipper", _list_path, _master_note), {
		"fix": [{"op": "add", "path": array.concat(_list_path, ["-"]), "value": counterpart}],
		"message": sprintf("daemonset \"log-shipper\" does not tolerate the control-plane taint \"node-role.kubernetes.io/control-plane:NoSchedule\"%s: it will not run on control-plane nodes; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists}", [_master_note]),
	})}
}

test_only_key_only_master_toleration if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _master, "effect": "NoSchedule"}]})
	r == {_missing("log-shipper", _list_path, _master_note)}
}

test_unrelated_tolerations_point_at_list if {
	r := rule.report with input as _daemonset({"tolerations": [
		{"key": "node-role.kubernetes.io/ingress", "operator": "Exists", "effect": "NoSchedule"},
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
	]})
	r == {_shipper(_list_path)}
}

test_empty_toleration_list_points_at_list if {
	r := rule.report with input as _daemonset({"tolerations": []})
	r == {_shipper(_list_path)}
}

# The kubeadm taint has an empty value: Equal with a value does not match it.
test_control_plane_toleration_with_value if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _cp, "operator": "Equal", "value": "true", "effect": "NoSchedule"}]})
	r == {_shipper(_list_path)}
}

test_control_plane_toleration_with_other_effect if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _cp, "operator": "Exists", "effect": "NoExecute"}]})
	r == {_shipper(_list_path)}
	s := rule.report with input as _daemonset({"tolerations": [{"key": _cp, "operator": "Exists", "effect": "PreferNoSchedule"}]})
	s == {_shipper(_list_path)}
}

test_lowercase_exists_does_not_tolerate if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _cp, "operator": "exists", "effect": "NoSchedule"}]})
	r == {_shipper(_list_path)}
}

test_generic_node_selector_is_no_constraint if {
	r := rule.report with input as _daemonset({"nodeSelector": {"kubernetes.io/os": "linux"}})
	r == {_shipper(_spec_path)}
}

test_generic_required_affinity_is_no_constraint if {
	r := rule.report with input as _daemonset({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]}]}]}}}})
	r == {_shipper(_spec_path)}
}

# The DaemonSet controller's automatic tolerations do not include the
# control-plane taint, even with hostNetwork.
test_host_network_does_not_help if {
	r := rule.report with input as _daemonset({"hostNetwork": true})
	r == {_shipper(_spec_path)}
}

test_extensions_v1beta1_daemonset if {
	r := rule.report with input as object.union(_daemonset({}), {"apiVersion": "extensions/v1beta1"})
	r == {_shipper(_spec_path)}
}

# --- silent ------------------------------------------------------------------------------

test_control_plane_exists_noschedule if {
	_silent({"tolerations": [{"key": _cp, "operator": "Exists", "effect": "NoSchedule"}]})
}

test_control_plane_and_master if {
	_silent({"tolerations": [
		{"key": _cp, "operator": "Exists", "effect": "NoSchedule"},
		{"key": _master, "operator": "Exists", "effect": "NoSchedule"},
	]})
}

# operator defaults to Equal and value to "", which the kubeadm taint has.
test_key_only_equal_toleration if {
	_silent({"tolerations": [{"key": _cp, "effect": "NoSchedule"}]})
	_silent({"tolerations": [{"key": _cp, "operator": "Equal", "effect": "NoSchedule"}]})
	_silent({"tolerations": [{"key": _cp, "operator": "Equal", "value": "", "effect": "NoSchedule"}]})
}

test_wildcard_toleration if {
	_silent({"tolerations": [{"operator": "Exists"}]})
	_silent({"tolerations": [{"operator": "Exists", "effect": "NoSchedule"}]})
}

test_control_plane_with_empty_effect if {
	_silent({"tolerations": [{"key": _cp, "operator": "Exists"}]})
	_silent({"tolerations": [{"key": _cp}]})
}

test_node_selector_on_pool_label if {
	_silent({"nodeSelector": {"node-role.kubernetes.io/worker": ""}})
	_silent({"nodeSelector": {"kubernetes.io/os": "linux", "pool": "general"}})
}

test_required_affinity_on_pool_label if {
	_silent({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "nvidia.com/gpu.present", "operator": "Exists"}]}]}}}})
}

test_node_name if {
	_silent({"nodeName": "worker-1"})
}

# Excluding the control plane with a required node affinity is the node
# constraint the rule's remediation asks for: the DaemonSet controller never
# places these pods on control-plane nodes (NodeShouldRunDaemonPod: affinity
# does not fit), whatever the tolerations.
test_affinity_excluding_control_plane if {
	_silent({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": _cp, "operator": "DoesNotExist"}]}]}}}})
}

test_other_kinds_are_not_checked if {
	rule.report == set() with input as object.union(_daemonset({}), {"kind": "Deployment"})
	rule.report == set() with input as {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "i"}]}}
	rule.report == set() with input as object.union(_daemonset({}), {"apiVersion": "example.com/v1"})
}

# The rule follows the comparison-operator gate like the scheduler does.
test_gt_toleration_never_matches_the_empty_valued_taint if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _cp, "operator": "Gt", "value": "0", "effect": "NoSchedule"}]})
		with data.dslint.config as {"featureGates": {"TaintTolerationComparisonOperators": true}}
	r == {_shipper(_list_path)}
}

# A toleration with a null key has no key, and tolerates every key.
test_null_key_exists_toleration if {
	_silent({"tolerations": [{"key": null, "operator": "Exists", "effect": "NoSchedule"}]})
}

# A list entry that is not a mapping decodes as the empty toleration, which
# tolerates every taint without a value.
test_entry_that_is_not_a_mapping if {
	_silent({"tolerations": ["node-role.kubernetes.io/control-plane"]})
}

test_similar_keys_do_not_tolerate if {
	r := rule.report with input as _daemonset({"tolerations": [
		{"key": "node-role.kubernetes.io/control-plane-x", "operator": "Exists"},
		{"key": "node-role.kubernetes.io/Control-plane", "operator": "Exists"},
		{"key": ["node-role.kubernetes.io/control-plane"], "operator": "Exists"},
	]})
	r == {_shipper(_list_path)}
}

# The master note needs a toleration of the master taint itself.
test_master_note_needs_the_master_taint if {
	r := rule.report with input as _daemonset({"tolerations": [{"key": _master, "operator": "Exists", "effect": "NoExecute"}]})
	r == {_shipper(_list_path)}
	s := rule.report with input as _daemonset({"tolerations": [{"key": _master, "operator": "Equal", "value": "x"}]})
	s == {_shipper(_list_path)}
}

# A DaemonSet aimed at a dedicated pool (a GPU device plugin) is not meant to
# cover every node; toleration-without-node-selector reports its gap.
test_daemonset_aimed_at_a_pool_is_silent if {
	rule.report == set() with input as {
		"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "nvidia-device-plugin"},
		"spec": {"template": {"spec": {
			"containers": [{"name": "p", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.16.2"}],
			"tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
		}}},
	}
}

test_daemonset_with_only_system_tolerations_still_fires if {
	r := rule.report with input as {
		"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent"},
		"spec": {"template": {"spec": {
			"containers": [{"name": "a", "image": "agent:1"}],
			"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}],
		}}},
	}
	r == {object.union(_missing("agent", _list_path, ""), {"severity": "info"})}
}

# --- judgement: what a DaemonSet is for -------------------------------------------

_volume(path) := {"volumes": [{"name": "v", "hostPath": {"path": path}}]}

_agent(spec) := {
	"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "a", "image": "agent:1"}]}, spec)}},
}

# _agent_warning is the finding about the DaemonSet "agent", a warning.
_agent_warning := _missing("agent", _spec_path, "")

# _agent_info is that finding lowered to info.
_agent_info := object.union(_agent_warning, {"severity": "info"})

# Kubelet plugins serve pods on their own node; the kubelet directory may
# sit elsewhere (microk8s, k0s).
test_kubelet_plugins_are_silent if {
	every path in [
		"/var/lib/kubelet/device-plugins",
		"/var/lib/kubelet/device-plugins/",
		"/var/lib/kubelet/plugins_registry",
		"/var/lib/kubelet/plugins/csi.example.com",
		"/var/lib/kubelet/plugins",
		"/var/snap/microk8s/common/var/lib/kubelet/plugins_registry",
		"/var/lib/kubelet/pod-resources",
	] {
		rule.report == set() with input as _agent(_volume(path))
	}
}

test_other_kubelet_directories_are_no_plugins if {
	rule.report == {_agent_info} with input as _agent(_volume("/var/lib/kubelet/pods"))
	rule.report == {_agent_info} with input as _agent(_volume("/var/lib/kubelet/plugins-extra"))
}

# A node-wide duty makes a warning; without one the rule informs.
test_node_agents_warn if {
	every spec in [
		_volume("/var/log"),
		_volume("/var/log/pods"),
		_volume("/proc/"),
		_volume("/etc/cni/net.d"),
		_volume("/run/containerd/containerd.sock"),
		_volume("/lib/modules"),
		_volume("/usr/libexec/kubernetes/kubelet-plugins/volume/exec/"),
	] {
		rule.report == {_agent_warning} with input as _agent(spec)
	}
}

test_other_daemonsets_inform if {
	every spec in [{}, {"hostNetwork": true}, {"hostPID": true}, _volume("/"), _volume("/sys"), _volume("/data"), _volume("/var/lib/longhorn"), _volume("/system")] {
		rule.report == {_agent_info} with input as _agent(spec)
	}
}

test_windows_daemonsets_are_silent if {
	rule.report == set() with input as _daemonset({"nodeSelector": {"kubernetes.io/os": "windows"}})
	rule.report == set() with input as _daemonset({"nodeSelector": {"beta.kubernetes.io/os": "windows"}})
	rule.report == set() with input as _daemonset({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["windows"]}]}]}}}})
	r := rule.report with input as _daemonset({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["windows", "linux"]}]}]}}}})
	r == {_shipper(_spec_path)}
}

# Excluding other nodes (Fargate, virtual kubelets) does not pin a
# DaemonSet to a pool: it still means to run everywhere else.
test_exclusions_of_other_labels_do_not_silence if {
	r := rule.report with input as _daemonset({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "eks.amazonaws.com/compute-type", "operator": "NotIn", "values": ["fargate"]}]}]}}}})
	r == {_shipper(_spec_path)}
	s := rule.report with input as _daemonset({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "type", "operator": "DoesNotExist"}]}]}}}})
	s == {_shipper(_spec_path)}
}

test_excluding_the_master_label_is_silent if {
	_silent({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": _master, "operator": "DoesNotExist"}]}]}}}})
}

# An extended resource pins the pods to the nodes that advertise it.
test_extended_resource_is_silent if {
	_silent({"containers": [{"name": "m", "image": "gpu-monitor:1", "resources": {"limits": {"nvidia.com/gpu": 1}}}]})
	r := rule.report with input as _daemonset({"containers": [{"name": "m", "image": "m:1", "resources": {"limits": {"cpu": "1", "memory": "1Gi", "hugepages-2Mi": "1Gi"}}}]})
	r == {_shipper(_spec_path)}
	s := rule.report with input as _daemonset({"containers": [{"name": "m", "image": "m:1", "resources": {"limits": {"nvidia.com/gpu": 0}}}]})
	s == {_shipper(_spec_path)}
}

# The control-plane taints follow the target release (reference §6).
test_target_version if {
	master_only := _daemonset({"tolerations": [{"key": _master, "operator": "Exists", "effect": "NoSchedule"}]})
	rule.report == set() with input as master_only with data.dslint.config as {"kubernetesVersion": "1.23"}
	f := rule.report with input as master_only with data.dslint.config as {"kubernetesVersion": "1.24"}
	f == {_shipper(_list_path)}
	g := rule.report with input as _daemonset({}) with data.dslint.config as {"kubernetesVersion": "1.24"}
	g == {{
		"path": _spec_path,
		"fix": [_add(_cp), _add(_master)],
		"message": "daemonset \"log-shipper\" does not tolerate the control-plane taints \"node-role.kubernetes.io/control-plane:NoSchedule\" and \"node-role.kubernetes.io/master:NoSchedule\": it will not run on control-plane nodes; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} and a toleration {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}",
	}}
	cp_only := _daemonset({"tolerations": [{"key": _cp, "operator": "Exists", "effect": "NoSchedule"}]})
	h := rule.report with input as cp_only with data.dslint.config as {"kubernetesVersion": "1.23"}
	h == {{
		"path": _list_path,
		"fix": [_add(_master)],
		"message": "daemonset \"log-shipper\" does not tolerate the control-plane taint \"node-role.kubernetes.io/master:NoSchedule\": it will not run on control-plane nodes; add a toleration {key: node-role.kubernetes.io/master, operator: Exists, effect: NoSchedule}",
	}}
}

# --- custom resources: their pods are no DaemonSet's ---------------------------------

# The pods of a RayCluster or a JobSet are scheduled, not run on every node:
# staying off the control plane is what they should do.
test_custom_resource_pods_are_not_checked if {
	ray := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": object.union({"containers": [{"name": "head", "image": "ray:2.9"}]}, _volume("/var/log"))}},
			"workerGroupSpecs": [{"template": {"spec": object.union({"containers": [{"name": "w", "image": "ray:2.9"}]}, _volume("/proc"))}}],
		},
	}
	rule.report == set() with input as ray
	jobset := {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "train"},
		"spec": {"replicatedJobs": [{"name": "workers", "template": {"spec": {"template": {"spec": object.union({"containers": [{"name": "w", "image": "train:1"}]}, _volume("/var/log"))}}}}]},
	}
	rule.report == set() with input as jobset
}
