# METADATA
# title: Toleration of every taint
# description: |
#   A toleration with operator "Exists" and no key tolerates every taint: the
#   pods can land on every dedicated pool (GPU, ingress, control plane) and
#   ignore any taint added later. With no effect, or effect NoExecute, it
#   also tolerates the not-ready and unreachable NoExecute taints forever, so
#   the pods are never evicted from failed nodes. Node agents and CNI plugins
#   that must run everywhere do this on purpose, so for DaemonSets the rule
#   only informs.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
#     description: Taints and Tolerations
# custom:
#   severity: warning
#   intent: |
#     Warns when a Deployment, StatefulSet, Job or Pod (or a pod template of
#     a custom resource) tolerates every NoSchedule taint (a wildcard with no
#     effect or effect NoSchedule): its pods can land on any node, or on any
#     node its node constraint selects whatever taints they carry; and when a
#     wildcard for NoExecute without tolerationSeconds keeps its pods on
#     failed nodes forever. One finding per pod template (a workload has
#     one), at its first wildcard toleration. Only informs for
#     DaemonSets (node agents that must run everywhere; the controller adds
#     the not-ready and unreachable tolerations to them anyway) and for pods
#     with hostNetwork (network and cluster bootstrap components that must
#     run on nodes that are not ready yet). Stays quiet for a wildcard of
#     PreferNoSchedule only (it never blocks), a NoExecute-only wildcard with
#     tolerationSeconds (a bounded eviction delay), and a toleration the API
#     server rejects (invalid-toleration reports it).
#   remediation: |
#     Name the taint key the workload is meant to tolerate (and its effect).
#     If it really must run on every node, make it a DaemonSet.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: web
#     spec:
#       selector: {matchLabels: {app: web}}
#       template:
#         metadata: {labels: {app: web}}
#         spec:
#           containers: [{name: web, image: nginx:1.27}]
#           tolerations:
#             - operator: Exists
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: web
#     spec:
#       selector: {matchLabels: {app: web}}
#       template:
#         metadata: {labels: {app: web}}
#         spec:
#           containers: [{name: web, image: nginx:1.27}]
#           nodeSelector: {pool: web}
#           tolerations:
#             - key: pool
#               operator: Equal
#               value: web
#               effect: NoSchedule
package dslint.rules["wildcard-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.result
import data.dslint.lib.tolerations as tol

# One finding per pod, at its first wildcard: two wildcards (one per effect)
# are one intent, and their effects add up.
report contains _severity(pod, result.fail(k8s.pod_path(pod, ["tolerations", _first(wildcards)]), msg)) if {
	some p, wildcards in _wildcards
	_reaches_tainted_nodes(wildcards)
	pod := k8s.pods[p]
	msg := sprintf("toleration with operator \"Exists\" and no key tolerates every taint%s: %s %s%s", [
		_effect_note(wildcards), k8s.workload_label(pod), _reach(pod), _eviction_note(pod, wildcards),
	])
}

report contains _severity(pod, result.fail(k8s.pod_path(pod, ["tolerations", _first(wildcards)]), msg)) if {
	some p, wildcards in _wildcards
	not _reaches_tainted_nodes(wildcards)
	pod := k8s.pods[p]
	_never_evicted(pod, wildcards)
	msg := sprintf("toleration with operator \"Exists\" and no key tolerates every NoExecute taint: %s is never evicted from not-ready or unreachable nodes; set tolerationSeconds, or name the taint it is meant for", [
		k8s.workload_label(pod),
	])
}

# _wildcards[p] are the valid tolerations of every key of the pod k8s.pods[p],
# by index, for the pods that have any.
_wildcards[p] := wildcards if {
	some p, pod in k8s.pods
	wildcards := {i: t |
		some i, t in pod.valid_tolerations
		t.operator == "Exists"
		tol.field(t, "key") == ""
	}
	count(wildcards) > 0
}

_first(wildcards) := min(object.keys(wildcards))

_effects(wildcards) := {tol.field(t, "effect") | some t in wildcards}

# A wildcard of every effect or of NoSchedule lets pods onto tainted nodes.
_reaches_tainted_nodes(wildcards) if "" in _effects(wildcards)

_reaches_tainted_nodes(wildcards) if "NoSchedule" in _effects(wildcards)

_effect_note(wildcards) := "" if {
	"" in _effects(wildcards)
} else := "" if {
	"NoExecute" in _effects(wildcards)
} else := " with effect NoSchedule"

# A NoExecute wildcard without tolerationSeconds keeps pods on failed nodes
# forever; DaemonSet pods get the same from their controller regardless.
_never_evicted(pod, wildcards) if {
	not pod.daemonset
	some t in wildcards
	tol.field(t, "effect") in {"", "NoExecute"}
	object.get(t, "tolerationSeconds", null) == null
}

_reach(pod) := "can land on any node its node constraint selects, whatever taints those nodes carry" if {
	nodes.pins_pool(pod.spec)
} else := "can land on any node, dedicated pools and control plane included"

_eviction_note(pod, wildcards) := ", and is never evicted from not-ready or unreachable nodes" if {
	_never_evicted(pod, wildcards)
} else := ""

# Node agents (DaemonSets) and hostNetwork components (CNI, cluster
# bootstrap) tolerate everything on purpose: the rule only informs.
_severity(pod, f) := result.with_severity(f, "info") if {
	pod.spec.hostNetwork == true
} else := result.info_for_daemonsets(f)
