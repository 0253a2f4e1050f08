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

_preferred_path := array.concat(k8s.pod_spec_path, ["affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"])

# The findings are _report's. Most objects have no preferred node affinity:
# each body below reads it where one kind of workload keeps its pod spec (a
# Pod, a PodTemplate, a CronJob, the other kinds: k8s.pod_spec_path), so that
# OPA's rule index skips the rule for them without evaluating anything. Most
# of the others favour no label that a toleration names (_toward_toleration).
report contains finding if {
	_ = input.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	_toward_toleration
	some finding in _report
}

report contains finding if {
	_ = input.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	_toward_toleration
	some finding in _report
}

report contains finding if {
	_ = input.spec.jobTemplate.spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	_toward_toleration
	some finding in _report
}

report contains finding if {
	_ = input.spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	_toward_toleration
	some finding in _report
}

# With a node inventory: every taint of the inventory that a dedicated
# toleration matches is PreferNoSchedule, which only discourages other pods.
# (Tolerations are read wherever the pod spec is; few objects get here.)
report contains result.fail(k8s.toleration_path(i), msg) if {
	placement.has_inventory
	some i, t in _dedicated
	taints := placement.tolerated_taints(t)
	count(taints) > 0
	every _, taint in taints {
		taint.effect == "PreferNoSchedule"
	}
	some k, first in taints
	k == min(object.keys(taints))
	msg := sprintf("%s %q tolerates the dedicated taint %q, which the inventory's nodes carry as PreferNoSchedule (%s): it only discourages other pods, which can still land there; make it NoSchedule to dedicate the nodes", [
		k8s.kind_label, k8s.name, tol.string_of_taint(first), placement.pool_names(placement.pools_with_taint(k)),
	])
}

# One finding per preference, naming the first toleration it favours.
_report contains result.fail(array.concat(_preferred_path, [k]), msg) if {
	some k, item in _preferred
	is_object(item)
	toward := {i | some i, t in _dedicated; _prefers(item.preference, t)}
	count(toward) > 0
	not nodes.pins_pool(k8s.pod_spec)
	t := _dedicated[min(toward)]
	msg := sprintf("%s %q tolerates the dedicated taint %q and prefers its nodes, but no required constraint keeps it there: %s; make it required node affinity or a nodeSelector if it must stay on the pool", [
		k8s.kind_label,
		k8s.name,
		_describe(t),
		_effect,
	])
}

_effect := "a DaemonSet runs on every node it may, so the preference has no effect" if k8s.is_daemonset

_effect := "a preference only weighs in the score, so its pods can still land on any other node" if not k8s.is_daemonset

_preferred := ps if {
	ps := k8s.pod_spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	is_array(ps)
}

# A cheap filter, in report, before matching tolerations one by one: some
# toleration has a key that a preference favours (with In or Exists). A
# toleration in _dedicated that a preference favours has one. (It reads the
# preferences and tolerations as written: _preferred, _prefers and
# k8s.tolerations, which _dedicated reads, hold the same or less.)
_toward_toleration if {
	some item in k8s.pod_spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	some req in item.preference.matchExpressions
	req.operator in {"In", "Exists"}
	some t in k8s.pod_spec.tolerations
	t.key == req.key
}

# Keyed tolerations of dedicated taints that can match a taint.
_dedicated[i] := t if {
	some i, t in k8s.valid_tolerations
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
