# METADATA
# title: Toleration of a dedicated taint without a node constraint
# description: |
#   Dedicated nodes take two halves. The taint keeps other pods off; the label
#   plus a nodeSelector or required node affinity keeps these pods on. A pod
#   that tolerates a dedicated taint but selects no nodes is allowed onto the
#   dedicated nodes and onto every other node too: the GPU job spills onto
#   general nodes, and the dedicated nodes sit idle. A constraint on generic
#   labels only (kubernetes.io/os, kubernetes.io/arch, topology.kubernetes.io/*,
#   node.kubernetes.io/instance-type) does not pin pods to a pool. Taints that
#   Kubernetes itself applies (node.kubernetes.io/*, node-role.kubernetes.io/*,
#   node.cloudprovider.kubernetes.io/*; configurable as systemTaints) are not
#   dedicated. DaemonSets run on every node they may, so for them the rule
#   only informs.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
#     description: Assigning Pods to Nodes
# custom:
#   severity: warning
#   remediation: |
#     Add a nodeSelector (or required node affinity) on the label of the
#     dedicated nodes, next to the toleration of their taint.
#   bad: |
#     apiVersion: batch/v1
#     kind: Job
#     metadata:
#       name: train
#     spec:
#       template:
#         spec:
#           restartPolicy: Never
#           containers: [{name: train, image: trainer:1.0}]
#           tolerations:
#             - key: nvidia.com/gpu
#               operator: Exists
#               effect: NoSchedule
#   good: |
#     apiVersion: batch/v1
#     kind: Job
#     metadata:
#       name: train
#     spec:
#       template:
#         spec:
#           restartPolicy: Never
#           containers: [{name: train, image: trainer:1.0}]
#           nodeSelector:
#             nvidia.com/gpu.present: "true"
#           tolerations:
#             - key: nvidia.com/gpu
#               operator: Exists
#               effect: NoSchedule
package dslint.rules["toleration-without-node-selector"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.result
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

report contains result.info_for_daemonsets(result.fail(k8s.toleration_path(i), msg)) if {
	some i, t in k8s.tolerations
	key := tol.field(t, "key")
	key != ""
	not settings.is_system_taint(key)
	tol.field(t, "operator") in {"", "Equal", "Exists"}
	tol.field(t, "effect") != "PreferNoSchedule"
	not nodes.pins_pool(k8s.pod_spec)
	msg := sprintf("%s %q tolerates the dedicated taint %q but %s: its pods can land on every other node too; add a nodeSelector or required node affinity for the dedicated nodes", [
		k8s.kind_label, k8s.name, _describe(t), _constraint_note,
	])
}

_constraint_note := "has no node constraint" if not nodes.has_constraint(k8s.pod_spec)

_constraint_note := "its node constraint does not keep it on a pool (it selects by generic labels such as OS, architecture or zone, or one required term does)" if nodes.has_constraint(k8s.pod_spec)

_describe(t) := tol.string_of_taint({"key": tol.field(t, "key"), "value": tol.field(t, "value"), "effect": tol.field(t, "effect")}) if {
	tol.field(t, "operator") in {"", "Equal"}
}

_describe(t) := tol.string_of_taint({"key": tol.field(t, "key"), "effect": tol.field(t, "effect")}) if {
	tol.field(t, "operator") == "Exists"
}

