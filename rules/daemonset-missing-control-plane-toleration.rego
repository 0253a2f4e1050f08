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
#   remediation: |
#     Add the toleration {key: node-role.kubernetes.io/control-plane,
#     operator: Exists, effect: NoSchedule}. If the DaemonSet should not run on
#     control-plane nodes, say so with a node constraint (for example a
#     nodeSelector on the worker pool) or disable the rule for it with the
#     annotation ignore.dslint.io/daemonset-missing-control-plane-toleration.
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

_control_plane_taint := {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}

# input.kind first: OPA's rule index then skips this body for other kinds.
report contains result.fail(_path, msg) if {
	input.kind == "DaemonSet"
	k8s.is_daemonset
	not _tolerates(_control_plane_taint)
	not nodes.selects_nodes(k8s.pod_spec)
	not _aims_at_a_pool
	msg := sprintf("daemonset %q does not tolerate the control-plane taint %q%s: it will not run on control-plane nodes; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}", [
		k8s.name,
		tol.string_of_taint(_control_plane_taint),
		_master_note,
	])
}

# A DaemonSet that tolerates a dedicated taint (nvidia.com/gpu for a device
# plugin) is meant for that pool, not for every node: its gap is a missing
# node constraint, which toleration-without-node-selector reports.
_aims_at_a_pool if {
	some t in k8s.tolerations
	key := object.get(t, "key", "")
	is_string(key)
	key != ""
	not settings.is_system_taint(key)
}

# _tolerates(taint) is tol.tolerated over the pod's own tolerations. The ones
# the DaemonSet controller adds (tol.daemonset_auto_tolerations) are all for
# node.kubernetes.io/* taints and tolerate neither taint asked about here.
# A toleration with another key cannot match, so only those with the taint's
# key, an empty or null key, or none at all (not a mapping: tol.field reads
# "") go through tol.tolerates.
_tolerates(taint) if {
	some i, t in k8s.tolerations
	object.get(k8s.pod_spec, ["tolerations", i, "key"], "") in {"", null, taint.key}
	tol.tolerates(t, taint)
}

_master_note := " (it tolerates only the old master taint, which kubeadm stopped applying in 1.25)" if {
	_tolerates({"key": "node-role.kubernetes.io/master", "effect": "NoSchedule"})
} else := ""

# Point at the tolerations list when there is one, else at the pod spec.
_path := k8s.toleration_list_path if k8s.pod_spec.tolerations

_path := k8s.pod_spec_path if not k8s.pod_spec.tolerations
