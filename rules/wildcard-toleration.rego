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
#     Warns when a Deployment, StatefulSet, Job or Pod tolerates every
#     NoSchedule taint (a wildcard with no effect or effect NoSchedule): its
#     pods can land on any node, or on any node its node constraint selects
#     whatever taints they carry; and when a wildcard for NoExecute without
#     tolerationSeconds keeps its pods on failed nodes forever. One finding
#     per workload, at its first wildcard toleration. Only informs for
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

report contains _severity(result.fail(k8s.toleration_path(_first), msg)) if {
	_reaches_tainted_nodes
	msg := sprintf("toleration with operator \"Exists\" and no key tolerates every taint%s: %s %q %s%s", [
		_effect_note, k8s.kind_label, k8s.name, _reach, _eviction_note,
	])
}

report contains _severity(result.fail(k8s.toleration_path(_first), msg)) if {
	not _reaches_tainted_nodes
	_never_evicted
	msg := sprintf("toleration with operator \"Exists\" and no key tolerates every NoExecute taint: %s %q is never evicted from not-ready or unreachable nodes; set tolerationSeconds, or name the taint it is meant for", [
		k8s.kind_label, k8s.name,
	])
}

# _wildcards are the valid tolerations of every key, by index.
_wildcards[i] := t if {
	some i, t in k8s.valid_tolerations
	t.operator == "Exists"
	tol.field(t, "key") == ""
}

# One finding per workload, at its first wildcard: two wildcards (one per
# effect) are one intent, and their effects add up.
_first := min(object.keys(_wildcards))

_effects := {tol.field(t, "effect") | some t in _wildcards}

# A wildcard of every effect or of NoSchedule lets pods onto tainted nodes.
_reaches_tainted_nodes if "" in _effects

_reaches_tainted_nodes if "NoSchedule" in _effects

_effect_note := "" if {
	"" in _effects
} else := "" if {
	"NoExecute" in _effects
} else := " with effect NoSchedule"

# A NoExecute wildcard without tolerationSeconds keeps pods on failed nodes
# forever; DaemonSet pods get the same from their controller regardless.
_never_evicted if {
	not k8s.is_daemonset
	some t in _wildcards
	tol.field(t, "effect") in {"", "NoExecute"}
	object.get(t, "tolerationSeconds", null) == null
}

_reach := "can land on any node its node constraint selects, whatever taints those nodes carry" if {
	nodes.pins_pool(k8s.pod_spec)
} else := "can land on any node, dedicated pools and control plane included"

_eviction_note := ", and is never evicted from not-ready or unreachable nodes" if _never_evicted

default _eviction_note := ""

# Node agents (DaemonSets) and hostNetwork components (CNI, cluster
# bootstrap) tolerate everything on purpose: the rule only informs.
_severity(f) := result.with_severity(f, "info") if {
	k8s.pod_spec.hostNetwork == true
} else := result.info_for_daemonsets(f)
