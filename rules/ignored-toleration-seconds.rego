# METADATA
# title: DaemonSet eviction timeout the controller throws away
# description: |
#   The DaemonSet controller gives every pod it creates the tolerations
#   {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}
#   and the same for node.kubernetes.io/unreachable, without
#   tolerationSeconds, and it replaces a template toleration with the same
#   key, operator, value and effect (AddOrUpdateTolerationInPodSpec compares
#   exactly these) by its own. A tolerationSeconds on such a toleration, meant
#   to evict the DaemonSet's pods some time after their node became not-ready
#   or unreachable, is silently dropped: the pods stay on the node forever
#   (unless an earlier toleration in the list sets a timeout of its own; the
#   first toleration that matches a taint decides). A toleration written with
#   operator Equal (or no operator) and no value is not replaced: it keeps
#   its tolerationSeconds, matches the valueless not-ready and unreachable
#   taints, and, being listed before the controller's own, decides the
#   eviction; it is not reported.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations
#     description: DaemonSet, the tolerations the controller adds
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions
#     description: Taint based evictions and tolerationSeconds
# custom:
#   severity: warning
#   fixable: true
#   intent: |
#     Fires on a DaemonSet toleration of the not-ready or unreachable NoExecute
#     taint with tolerationSeconds that the DaemonSet controller replaces by
#     its own, dropping the timeout. Stays quiet for other workload kinds (the
#     timeout works there), for a toleration the controller does not replace
#     (operator Equal or none), and for a toleration the API server rejects
#     (invalid-toleration reports it).
#   remediation: |
#     Remove the toleration (the controller adds it anyway) and accept that
#     DaemonSet pods stay on not-ready and unreachable nodes, which is what
#     node agents usually need. If the pods really must leave such a node
#     after a timeout, write the toleration with operator Equal and no value
#     ({key: node.kubernetes.io/not-ready, operator: Equal, effect: NoExecute,
#     tolerationSeconds: 300}): the controller keeps it, and as the first
#     matching toleration it sets the timeout. The controller does not
#     recreate the pod while the node also has the not-ready (or unreachable)
#     NoSchedule taint. dslint fix removes tolerationSeconds, which changes
#     nothing the pods get; the toleration left is the controller's own,
#     which redundant-daemonset-toleration then reports.
#   bad: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: fluent-bit
#     spec:
#       selector: {matchLabels: {app: fluent-bit}}
#       template:
#         metadata: {labels: {app: fluent-bit}}
#         spec:
#           containers: [{name: fluent-bit, image: fluent/fluent-bit:3.1}]
#           tolerations:
#             - key: node.kubernetes.io/not-ready
#               operator: Exists
#               effect: NoExecute
#               tolerationSeconds: 300
#   good: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: fluent-bit
#     spec:
#       selector: {matchLabels: {app: fluent-bit}}
#       template:
#         metadata: {labels: {app: fluent-bit}}
#         spec:
#           containers: [{name: fluent-bit, image: fluent/fluent-bit:3.1}]
#           tolerations:
#             - key: node.kubernetes.io/not-ready
#               operator: Equal
#               effect: NoExecute
#               tolerationSeconds: 300
package dslint.rules["ignored-toleration-seconds"]

import data.dslint.lib.k8s
import data.dslint.lib.result
import data.dslint.lib.tolerations as tol

_conditions := {
	"node.kubernetes.io/not-ready": "not-ready",
	"node.kubernetes.io/unreachable": "unreachable",
}

report contains result.with_fix(result.fail(k8s.pod_path(pod, ["tolerations", i, "tolerationSeconds"]), msg), [result.remove(k8s.pod_path(pod, ["tolerations", i, "tolerationSeconds"]))]) if {
	some pod in k8s.pods
	pod.daemonset
	some i, t in pod.valid_tolerations
	is_number(t.tolerationSeconds)
	tol.daemonset_replacement(pod.spec, t) # the controller puts its own in place of t
	condition := _conditions[t.key]
	msg := sprintf("tolerationSeconds %v is ignored: the DaemonSet controller replaces this toleration with its own {key: %s, operator: Exists, effect: NoExecute}, which has no tolerationSeconds, %s", [
		t.tolerationSeconds,
		t.key,
		_outcome(pod, t.key, condition),
	])
}

# _created(pod, j) is the toleration at index j of the pod's list as the
# controller creates it (tol.daemonset_pod_tolerations), without building
# the whole list.
_created(pod, j) := tol.daemonset_replacement(pod.spec, pod.tolerations[j]) if {
	tol.daemonset_replacement(pod.spec, pod.tolerations[j])
} else := pod.tolerations[j]

# The taint-eviction controller uses the first toleration (in list order)
# that tolerates the node's taint; its tolerationSeconds decides. A
# replacement keeps its place in the list and tolerates exactly what the
# toleration it replaces does, and the controller's other tolerations come
# after the manifest's: since the reported toleration itself matches, the
# first match is among the manifest's own tolerations.
_first_match(pod, key) := min({j |
	some j, t in pod.tolerations
	tol.tolerates(t, {"key": key, "effect": "NoExecute"})
})

_outcome(pod, key, condition) := sprintf("so eviction from %s nodes follows tolerations[%d] (tolerationSeconds %v) instead; remove this tolerationSeconds", [condition, j, seconds]) if {
	j := _first_match(pod, key)
	seconds := _seconds(_created(pod, j))
	seconds != null
} else := sprintf("so daemonset pods are never evicted from %s nodes; remove tolerationSeconds (or, to keep a timeout, write this toleration with operator Equal and no value: the controller keeps that one)", [condition])

# A list entry that is not a mapping decodes as the empty toleration.
_seconds(t) := seconds if {
	is_object(t)
	seconds := object.get(t, "tolerationSeconds", null)
} else := null
