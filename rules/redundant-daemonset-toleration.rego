# METADATA
# title: DaemonSet toleration the controller adds anyway
# description: |
#   The DaemonSet controller adds tolerations to every pod it creates
#   (AddOrUpdateDaemonPodTolerations): node.kubernetes.io/not-ready and
#   node.kubernetes.io/unreachable with effect NoExecute, and
#   node.kubernetes.io/disk-pressure, memory-pressure, pid-pressure and
#   unschedulable with effect NoSchedule, all with operator Exists and no
#   tolerationSeconds; node.kubernetes.io/network-unavailable (NoSchedule)
#   too when the pods use hostNetwork. A toleration in the template that is
#   identical to one of them (same key, operator, value and effect; the
#   controller compares these exactly, so a toleration without an operator,
#   which means Equal, is not identical) is replaced by the controller's own:
#   it does nothing and only suggests the DaemonSet needs it. A not-ready or
#   unreachable toleration with tolerationSeconds is reported by
#   ignored-toleration-seconds instead, because there the replacement
#   silently drops the eviction timeout.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations
#     description: DaemonSet, the tolerations the controller adds
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions
#     description: Taint based evictions
# custom:
#   severity: info
#   fixable: true
#   intent: |
#     Informs on a DaemonSet toleration identical to one its controller adds
#     itself (same key, operator, value and effect). Stays quiet for other
#     kinds, for one that differs in any of those (operator Equal or none is
#     not identical), for the timed not-ready/unreachable ones
#     (ignored-toleration-seconds reports those), and for a toleration the API
#     server rejects.
#   remediation: |
#     Remove the toleration: every pod of the DaemonSet gets it from the
#     controller. Keep the tolerations the controller does not add, such as
#     node-role.kubernetes.io/control-plane, the NoSchedule variants of
#     not-ready and unreachable, node.cloudprovider.kubernetes.io/uninitialized,
#     and network-unavailable for pods without hostNetwork. dslint fix
#     removes it, unless a later toleration of the same NoExecute taint
#     sets tolerationSeconds: that one would then decide how long the pods
#     stay on such nodes.
#   bad: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: node-exporter
#     spec:
#       selector: {matchLabels: {app: node-exporter}}
#       template:
#         metadata: {labels: {app: node-exporter}}
#         spec:
#           containers: [{name: exporter, image: quay.io/prometheus/node-exporter:v1.8.1}]
#           tolerations:
#             - key: node-role.kubernetes.io/control-plane
#               operator: Exists
#               effect: NoSchedule
#             - key: node.kubernetes.io/disk-pressure
#               operator: Exists
#               effect: NoSchedule
#   good: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: node-exporter
#     spec:
#       selector: {matchLabels: {app: node-exporter}}
#       template:
#         metadata: {labels: {app: node-exporter}}
#         spec:
#           containers: [{name: exporter, image: quay.io/prometheus/node-exporter:v1.8.1}]
#           tolerations:
#             - key: node-role.kubernetes.io/control-plane
#               operator: Exists
#               effect: NoSchedule
package dslint.rules["redundant-daemonset-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.result
import data.dslint.lib.tolerations as tol

report contains _removal(result.fail(k8s.pod_path(pod, ["tolerations", i]), msg), pod, i, t) if {
	some pod in k8s.pods
	pod.daemonset
	some i, t in pod.valid_tolerations
	not _eviction_timeout(t)
	auto := tol.daemonset_replacement(pod.spec, t)
	msg := sprintf("toleration {key: %s, operator: Exists, effect: %s} is redundant: the DaemonSet controller adds this exact toleration to %s (and replaces this one with it); remove it", [
		auto.key,
		auto.effect,
		_which_pods(auto),
	])
}

# _removal(f, pod, i, t) is finding f about toleration i, t, with its fix:
# removing t. The first toleration of a NoExecute taint decides how long the
# pods stay on a node with it (its tolerationSeconds): when t is that first
# one and the next to match, which would decide instead, sets a
# tolerationSeconds (t and the controller's own set none), removing t would
# change that, so f gets no fix.
_removal(f, pod, i, t) := f if {
	t.effect == "NoExecute"
	tol.hands_over_eviction(tol.daemonset_pod_tolerations(pod.spec), i, t, {"key": t.key, "effect": "NoExecute"})
} else := result.with_fix(f, [result.remove(f.path)])

# A not-ready/unreachable toleration with tolerationSeconds: the timeout is
# dropped, which ignored-toleration-seconds reports.
_eviction_timeout(t) if {
	t.effect == "NoExecute"
	t.key in {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}
	t.tolerationSeconds != null
}

_which_pods(auto) := "daemonset pods that use hostNetwork" if {
	auto.key == "node.kubernetes.io/network-unavailable"
} else := "every daemonset pod"
