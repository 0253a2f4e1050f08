# METADATA
# title: Toleration and node constraint pointing at different pools
# description: |
#   A dedicated pool is usually marked twice with the same key and value: a
#   taint key=value that keeps other pods off, and a label key=value that the
#   pool's pods select. A pod that tolerates the taint dedicated=gpu but whose
#   nodeSelector (or every satisfiable term of its required node affinity)
#   admits only nodes labelled with another value of dedicated (say
#   dedicated=ingress), or none, points the two halves at different pools:
#   the toleration is for nodes the pod never selects, and the nodes it
#   selects carry a taint it does not tolerate, so its pods stay Pending or
#   land on a pool they were not meant for. It is almost always a
#   copy-and-paste slip. Only tolerations with operator Equal and a non-empty
#   value of a dedicated (non-system) taint are checked; a toleration with no
#   value says nothing about the label's value. With a node inventory the
#   check is exact for any keyed toleration of a dedicated taint: it fires
#   when no node the node constraint selects carries a taint the toleration
#   matches.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
#     description: Assigning Pods to Nodes
# custom:
#   severity: warning
#   intent: |
#     Fires when a toleration of a dedicated taint and the node constraint
#     name different pools: the toleration is for key=value while the
#     constraint admits only other values of key (with an inventory: no
#     selected node carries a taint the toleration matches). Stays quiet for
#     system taints, for a toleration without a value (it says nothing about
#     the label), for workloads without a node constraint
#     (toleration-without-node-selector's case), and for tolerations the API
#     server rejects.
#   remediation: |
#     Make the toleration and the nodeSelector (or required node affinity)
#     name the same pool: tolerate the taint of the nodes the pod selects, or
#     select the nodes whose taint it tolerates.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: ingress-nginx
#     spec:
#       selector: {matchLabels: {app: ingress-nginx}}
#       template:
#         metadata: {labels: {app: ingress-nginx}}
#         spec:
#           containers: [{name: controller, image: ingress-nginx/controller:v1.10.1}]
#           nodeSelector:
#             dedicated: ingress
#           tolerations:
#             - key: dedicated
#               operator: Equal
#               value: gpu
#               effect: NoSchedule
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: ingress-nginx
#     spec:
#       selector: {matchLabels: {app: ingress-nginx}}
#       template:
#         metadata: {labels: {app: ingress-nginx}}
#         spec:
#           containers: [{name: controller, image: ingress-nginx/controller:v1.10.1}]
#           nodeSelector:
#             dedicated: ingress
#           tolerations:
#             - key: dedicated
#               operator: Equal
#               value: ingress
#               effect: NoSchedule
package dslint.rules["toleration-selector-mismatch"]

import data.dslint.lib.k8s
import data.dslint.lib.labels
import data.dslint.lib.nodes
import data.dslint.lib.placement
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

# The findings are _report's. Many objects have no tolerations: each body
# below reads them where one kind of workload keeps its pod spec (a Pod, a
# PodTemplate, a CronJob, the other kinds: k8s.pod_spec_path), so that OPA's
# rule index skips the rule for them without evaluating anything.
report contains finding if {
	_ = input.spec.tolerations
	some finding in _report
}

report contains finding if {
	_ = input.template.spec.tolerations
	some finding in _report
}

report contains finding if {
	_ = input.spec.jobTemplate.spec.template.spec.tolerations
	some finding in _report
}

report contains finding if {
	_ = input.spec.template.spec.tolerations
	some finding in _report
}

# Tolerations with a value are few, keys that the constraint names fewer, and
# most of those are selected plainly (_selects): the exact check
# (sat.never_selects) runs for the rest only. tolerations is k8s.tolerations,
# and key and value are tol.field(t, "key") and tol.field(t, "value"), which
# only need checking when they are non-empty strings: all read directly.
_report contains result.fail(k8s.toleration_path(i), msg) if {
	tolerations := k8s.pod_spec.tolerations
	is_array(tolerations)
	some i, t in tolerations
	value := t.value
	is_string(value)
	value != ""
	key := t.key
	key in _constrained_keys
	is_string(key)
	key != ""
	tol.field(t, "operator") in {"", "Equal"}
	not settings.is_system_taint(key)
	not placement.selected_pools
	not _selects(key, value)
	sat.never_selects(k8s.pod_spec, key, value)
	msg := sprintf("%s %q tolerates the taint %q but its node constraint never selects nodes labelled %s=%s (%s): the toleration and the constraint point at different pools; make both name the same pool", [
		k8s.kind_label,
		k8s.name,
		tol.string_of_taint({"key": key, "value": value, "effect": tol.field(t, "effect")}),
		key,
		value,
		_selected(key),
	])
}

# With a node inventory: the toleration matches no taint of any node the
# node constraint selects, so it points at another pool (or at none).
_report contains result.fail(k8s.toleration_path(i), msg) if {
	selected := placement.selected_pools
	count(selected) > 0
	nodes.has_constraint(k8s.pod_spec)
	some i, t in k8s.valid_tolerations
	key := t.key
	is_string(key)
	key != ""
	not settings.is_system_taint(key)
	not _tolerates_a_selected_taint(t, selected)
	msg := sprintf("%s %q tolerates the taint %q, but no node its node constraint selects carries a taint it matches (%s): the toleration and the constraint point at different pools; make both name the same pool", [
		k8s.kind_label, k8s.name, tol.string_of_taint(t), placement.pool_names(selected),
	])
}

_tolerates_a_selected_taint(t, selected) if {
	some k, _ in placement.tolerated_taints(t)
	some p in placement.pools_with_taint(k)
	p in selected
}

# The label keys the nodeSelector or a required term constrains: a cheap
# filter before the satisfiability check. It may hold more (the keys of a
# nodeSelector or of terms that are not mappings or lists): sat.never_selects
# only holds for a key some alternative constrains.
_constrained_keys contains key if {
	some key, _ in k8s.pod_spec.nodeSelector
}

_constrained_keys contains req.key if {
	some term in k8s.pod_spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
	some req in term.matchExpressions
}

# _selects(key, value) is true when some node the constraint admits surely
# has label key=value, so sat.never_selects does not hold. With a valid
# nodeSelector entry key=value, every alternative requires key=value, and is
# satisfiable (the nodeSelector alone always is). With a plainly satisfiable
# required term (its keys are not in the nodeSelector) that requires key In
# values including value, that term's alternative admits key=value.
_selects(key, value) if {
	k8s.pod_spec.nodeSelector[key] == value
	labels.valid_key(key)
	labels.valid_value(value)
}

_selects(key, value) if {
	some i in sat.plainly_satisfiable_terms
	some req in k8s.pod_spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[i].matchExpressions
	req.key == key
	req.operator == "In"
	value in req.values
}

# _selected(key) renders what the constraint says about the label key.
_selected(key) := concat("; ", sort({sat.describe(key, c) |
	some alt in sat.alternatives(k8s.pod_spec)
	some c in object.get(alt, key, [])
}))
