# METADATA
# title: DaemonSet that skips control-plane nodes
# description: |
#   Control-plane nodes carry the taint node-role.kubernetes.io/control-plane
#   with effect NoSchedule (kubeadm and most distributions), and the DaemonSet
#   controller does not tolerate it on a DaemonSet's behalf. A DaemonSet that
#   selects nodes by generic labels only (OS, architecture, zone) or not at
#   all is meant to cover every node, yet without this
#   toleration its log shipper, metrics exporter or security agent never runs
#   on the control plane. Tolerating only the old node-role.kubernetes.io/master
#   taint is not enough: kubeadm stopped applying it in 1.25.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations
#     description: DaemonSet, taints and tolerations
#   - ref: https://kubernetes.io/docs/reference/labels-annotations-taints/#node-role-kubernetes-io-control-plane-taint
#     description: The control-plane taint
# custom:
#   severity: warning
#   fixable: true
#   intent: |
#     For DaemonSets meant to run on every node: log shippers, metrics
#     exporters, security and network agents. It warns when such a DaemonSet
#     shows a node-wide duty (a host path of logs, /proc, the container
#     runtime, CNI or kernel modules)
#     and does not tolerate the control-plane taint; without such a sign it
#     only informs, since a DaemonSet that serves user workloads (an ingress
#     controller, a storage or app agent, an installer that prepares nodes
#     for one application, hardware discovery that reads /sys) may stay off
#     the control plane on purpose. It stays quiet for DaemonSets pinned to a pool (a nodeSelector
#     or required affinity on a non-generic label, a node name, an extended
#     resource such as nvidia.com/gpu, a toleration of a dedicated taint),
#     for ones that exclude the control plane explicitly (DoesNotExist or
#     NotIn on its role label), for kubelet plugins (device plugins, CSI node
#     plugins, DRA plugins and pod-resources readers: they mount
#     /var/lib/kubelet/device-plugins, plugins_registry, plugins or
#     pod-resources and serve pods on their own node, and control-plane
#     nodes run no workload pods), and for DaemonSets restricted to Windows
#     nodes (control-plane nodes run Linux). A NotIn or DoesNotExist
#     exclusion of other labels (Fargate, virtual kubelets) does not pin a
#     DaemonSet to a pool, so it does not silence the rule. The taints
#     follow the target release (kubernetesVersion): the master taint
#     through 1.23, both in 1.24, the control-plane taint from 1.25. On
#     managed clusters without control-plane nodes (EKS, GKE, AKS), turn it
#     off in .dslint.yaml.
#   remediation: |
#     Add the toleration {key: node-role.kubernetes.io/control-plane,
#     operator: Exists, effect: NoSchedule}. If the DaemonSet should not run on
#     control-plane nodes, say so with a node constraint (for example a
#     nodeSelector on the worker pool) or disable the rule for it with the
#     annotation ignore.dslint.io/daemonset-missing-control-plane-toleration.
#     dslint fix adds the toleration (both, for a target that taints with
#     both keys).
#   bad: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: log-shipper
#     spec:
#       selector: {matchLabels: {app: log-shipper}}
#       template:
#         metadata: {labels: {app: log-shipper}}
#         spec:
#           containers: [{name: shipper, image: fluent-bit:3.1}]
#   good: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: log-shipper
#     spec:
#       selector: {matchLabels: {app: log-shipper}}
#       template:
#         metadata: {labels: {app: log-shipper}}
#         spec:
#           containers: [{name: shipper, image: fluent-bit:3.1}]
#           tolerations:
#             - key: node-role.kubernetes.io/control-plane
#               operator: Exists
#               effect: NoSchedule
package dslint.rules["daemonset-missing-control-plane-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.result
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

report contains _severity(pod, result.with_fix(result.fail(_path(pod), msg), _additions(pod, missing))) if {
	some pod in k8s.pods
	pod.daemonset
	missing := _missing(pod)
	count(missing) > 0
	not nodes.pins_pool(pod.spec)
	not _excludes_control_plane(pod.spec)
	not _aims_at_a_pool(pod)
	not k8s.is_kubelet_plugin(pod.spec)
	not _windows_only(pod.spec)
	msg := sprintf("%s does not tolerate the control-plane %s %s%s: it will not run on control-plane nodes; add %s", [
		k8s.workload_label(pod),
		_noun(missing),
		concat(" and ", [sprintf("%q", [tol.string_of_taint(t)]) | some t in missing]),
		_master_note(pod),
		concat(" and ", [sprintf("a toleration %s", [tol.text(_toleration_for(pod, t))]) | some t in missing]),
	])
}

# _toleration_for(pod, taint) is the toleration to add for a missing taint:
# the control-plane counterpart of the pod's first master toleration that
# tolerates it (deprecated-master-key adds the same one, and dslint fix
# makes the edit once), else Exists with effect NoSchedule (both
# control-plane taints have no value).
_toleration_for(pod, taint) := tol.control_plane_counterpart(pod.valid_tolerations[i]) if {
	i := min({j |
		some j, t in pod.valid_tolerations
		t.key == tol.master_taint.key
		tol.tolerates(tol.control_plane_counterpart(t), taint)
	})
} else := {"key": taint.key, "operator": "Exists", "effect": "NoSchedule"}

# _additions(pod, missing) is the fix: each missing toleration appended to
# the pod's tolerations.
_additions(pod, missing) := [result.append(k8s.pod_path(pod, ["tolerations"]), _toleration_for(pod, t)) | some t in missing]

# _missing(pod) are the taints of control-plane nodes in the target release
# that the pod does not tolerate.
_missing(pod) := [t | some t in tol.control_plane_taints; not _tolerates(pod, t)]

_noun([_]) := "taint"

_noun(ts) := "taints" if count(ts) > 1

# A DaemonSet that tolerates a dedicated taint (nvidia.com/gpu for a device
# plugin) is meant for that pool, not for every node: its gap is a missing
# node constraint, which toleration-without-node-selector reports.
_aims_at_a_pool(pod) if {
	some t in pod.tolerations
	key := object.get(t, "key", "")
	is_string(key)
	key != ""
	not settings.is_system_taint(key)
}

# Every required term keeps the pods off nodes with a control-plane role
# label: the DaemonSet stays off the control plane on purpose.
_excludes_control_plane(spec) if {
	terms := nodes.required_terms(spec)
	count(terms) > 0
	every term in terms {
		some req in term.matchExpressions
		req.key in {"node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master"}
		req.operator in {"DoesNotExist", "NotIn"}
	}
}

# Control-plane nodes run Linux: a DaemonSet for Windows nodes never goes
# there.
_windows_only(spec) if {
	some label in _os_labels
	nodes.node_selector(spec)[label] == "windows"
}

_windows_only(spec) if {
	terms := nodes.required_terms(spec)
	count(terms) > 0
	every term in terms {
		some req in term.matchExpressions
		req.key in _os_labels
		req.operator == "In"
		req.values == ["windows"]
	}
}

_os_labels := {"kubernetes.io/os", "beta.kubernetes.io/os"}

# The tolerations the DaemonSet controller adds (tol.daemonset_auto_tolerations)
# are all for node.kubernetes.io/* taints and tolerate neither taint asked
# about here: the pod's own tolerations decide.
_tolerates(pod, taint) if tol.tolerated(pod.tolerations, taint)

_master_note(pod) := " (it tolerates only the old master taint, which kubeadm stopped applying in 1.25)" if {
	settings.kubernetes_minor >= 25
	_tolerates(pod, tol.master_taint)
} else := ""

# A node agent proper (a node-wide duty in its pod spec) warns; any other
# DaemonSet may be kept off the control plane on purpose, so it informs.
_severity(pod, f) := f if k8s.is_node_agent(pod.spec)

_severity(pod, f) := result.with_severity(f, "info") if not k8s.is_node_agent(pod.spec)

# Point at the tolerations list when there is one, else at the pod spec.
_path(pod) := k8s.pod_path(pod, ["tolerations"]) if {
	pod.spec.tolerations
} else := pod.path
