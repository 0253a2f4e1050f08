# METADATA
# title: Dedicated pool chosen only by preference
# description: |
#   A pod that tolerates a dedicated taint and expresses a preferred node
#   affinity toward the same pool (a preference on the taint's key with In
#   and the tolerated value, or Exists) but no required constraint that keeps
#   it there (no nodeSelector on a pool label, no required affinity that pins
#   it; generic labels such as OS, architecture or zone do not count) is
#   dedicated only by preference. The scheduler tries the pool first, and
#   when the pool is full, cordoned or scaled down, or another node simply
#   scores higher, the pods land on general nodes: "preferred" is a weight in
#   a score, not a rule. That may be intended (burst out of the pool), so the
#   rule only informs. For a DaemonSet the preference does nothing at all: it
#   runs one pod on every node it is allowed onto. With a node inventory the
#   rule also informs when every taint of the inventory that a dedicated
#   toleration matches is PreferNoSchedule: such a taint only discourages
#   other pods, which can still land on the pool.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
#     description: Assigning Pods to Nodes, node affinity
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes
# custom:
#   severity: info
#   intent: |
#     Informs when a workload tolerates a dedicated taint and leans toward the
#     pool only by preferred affinity, or (with an inventory) when the
#     tolerated taints are all PreferNoSchedule: it may burst out of the pool,
#     which can be intended. Stays quiet when a required constraint or an
#     extended resource keeps the pods on the pool, for system taints, and
#     for tolerations the API server rejects.
#   remediation: |
#     If the pods must run on the pool, turn the preference into required node
#     affinity (requiredDuringSchedulingIgnoredDuringExecution) or a
#     nodeSelector on the pool's label. Keep the preference only if spilling
#     onto other nodes is intended.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: trainer
#     spec:
#       selector: {matchLabels: {app: trainer}}
#       template:
#         metadata: {labels: {app: trainer}}
#         spec:
#           containers: [{name: main, image: trainer:1.0}]
#           affinity:
#             nodeAffinity:
#               preferredDuringSchedulingIgnoredDuringExecution:
#                 - weight: 100
#                   preference:
#                     matchExpressions:
#                       - key: dedicated
#                         operator: In
#                         values: [ml]
#           tolerations:
#             - key: dedicated
#               operator: Equal
#               value: ml
#               effect: NoSchedule
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: trainer
#     spec:
#       selector: {matchLabels: {app: trainer}}
#       template:
#         metadata: {labels: {app: trainer}}
#         spec:
#           containers: [{name: main, image: trainer:1.0}]
#           affinity:
#             nodeAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 nodeSelectorTerms:
#                   - matchExpressions:
#                       - key: dedicated
#                         operator: In
#                         values: [ml]
#           tolerations:
#             - key: dedicated
#               operator: Equal
#               value: ml
#               effect: NoSchedule
package dslint.rules["soft-dedication"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.placement
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

# One finding per preference, naming the first toleration it favours.
report contains result.fail(k8s.pod_path(pod, array.concat(_preferred_path, [k])), msg) if {
	some pod in k8s.pods
	preferred := pod.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	is_array(preferred)
	some k, item in preferred
	is_object(item)
	toward := {i |
		some i, t in pod.valid_tolerations
		_prefers(item.preference, t)
		_dedicated(t)
	}
	count(toward) > 0
	not nodes.pins_pool(pod.spec)
	msg := sprintf("%s tolerates the dedicated taint %q and prefers its nodes, but no required constraint keeps it there: %s; make it required node affinity or a nodeSelector if it must stay on the pool", [
		k8s.workload_label(pod),
		_describe(pod.valid_tolerations[min(toward)]),
		_effect(pod),
	])
}

# With a node inventory: every taint of the inventory that a dedicated
# toleration matches is PreferNoSchedule, which only discourages other pods.
report contains result.fail(k8s.pod_path(pod, ["tolerations", i]), msg) if {
	placement.has_inventory
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	_dedicated(t)
	taints := placement.tolerated_taints(t)
	count(taints) > 0
	every _, taint in taints {
		taint.effect == "PreferNoSchedule"
	}
	some k, first in taints
	k == min(object.keys(taints))
	msg := sprintf("%s tolerates the dedicated taint %q, which the inventory's nodes carry as PreferNoSchedule (%s): it only discourages other pods, which can still land there; make it NoSchedule to dedicate the nodes", [
		k8s.workload_label(pod), tol.string_of_taint(first), placement.pool_names(placement.pools_with_taint(k)),
	])
}

_preferred_path := ["affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"]

_effect(pod) := "a DaemonSet runs on every node it may, so the preference has no effect" if {
	pod.daemonset
} else := "a preference only weighs in the score, so its pods can still land on any other node"

# _dedicated(t) is true for a keyed toleration of a dedicated taint that
# can match a taint.
_dedicated(t) if {
	key := tol.field(t, "key")
	is_string(key)
	key != ""
	not settings.is_system_taint(key)
	tol.field(t, "operator") in {"", "Equal", "Exists"}
}

# A preference favours the pool of K=V with K In [.., V, ..] or K Exists, and
# the pool of every K with K In [...] or K Exists.
_prefers(preference, t) if {
	some req in sat.requirements(preference, "matchExpressions")
	req.key == tol.field(t, "key")
	_favours(req, t)
}

_favours(req, _) if req.operator == "Exists"

_favours(req, t) if {
	req.operator == "In"
	tol.field(t, "operator") in {"", "Equal"}
	tol.field(t, "value") in sat.values(req)
}

_favours(req, t) if {
	req.operator == "In"
	tol.field(t, "operator") == "Exists"
	count(sat.values(req)) > 0
}

_describe(t) := tol.string_of_taint({"key": tol.field(t, "key"), "value": tol.field(t, "value"), "effect": tol.field(t, "effect")}) if {
	tol.field(t, "operator") in {"", "Equal"}
}

_describe(t) := tol.string_of_taint({"key": tol.field(t, "key"), "effect": tol.field(t, "effect")}) if {
	tol.field(t, "operator") == "Exists"
}
