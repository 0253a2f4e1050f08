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
import data.dslint.lib.nodes
import data.dslint.lib.placement
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

# The toleration is for key=value of a label the node constraint names,
# and the constraint admits only other values of key: every way a node can
# be chosen (sat.never_selects) rules out a node labelled key=value.
# Without a node inventory, or where the pod is judged node by node.
report contains result.fail(k8s.pod_path(pod, ["tolerations", i]), msg) if {
	some pod in k8s.pods
	some i, t in pod.tolerations
	value := t.value
	is_string(value)
	value != ""
	key := t.key
	is_string(key)
	key != ""
	key in _constrained_keys(pod.spec)
	tol.field(t, "operator") in {"", "Equal"}
	not settings.is_system_taint(key)
	not placement.pod_selected_pools(pod)
	sat.never_selects(pod.spec, key, value)
	msg := sprintf("%s tolerates the taint %q but its node constraint never selects nodes labelled %s=%s (%s): the toleration and the constraint point at different pools; make both name the same pool", [
		k8s.workload_label(pod),
		tol.string_of_taint({"key": key, "value": value, "effect": tol.field(t, "effect")}),
		key,
		value,
		_selected(pod.spec, key),
	])
}

# With a node inventory: the toleration matches no taint of any node the
# node constraint selects, so it points at another pool (or at none).
report contains result.fail(k8s.pod_path(pod, ["tolerations", i]), msg) if {
	placement.has_inventory
	some pod in k8s.pods
	selected := placement.pod_selected_pools(pod)
	count(selected) > 0
	nodes.has_constraint(pod.spec)
	some i, t in pod.valid_tolerations
	key := t.key
	is_string(key)
	key != ""
	not settings.is_system_taint(key)
	not _tolerates_a_selected_taint(t, selected)
	msg := sprintf("%s tolerates the taint %q, but no node its node constraint selects carries a taint it matches (%s): the toleration and the constraint point at different pools; make both name the same pool", [
		k8s.workload_label(pod), tol.string_of_taint(t), placement.pool_names(selected),
	])
}

_tolerates_a_selected_taint(t, selected) if {
	some k, _ in placement.tolerated_taints(t)
	some p in placement.pools_with_taint(k)
	p in selected
}

# _constrained_keys(spec) are the label keys the nodeSelector or a required
# term of the pod spec names: a toleration of another key says nothing about
# the pool the constraint selects.
_constrained_keys(spec) := {key | some key, _ in nodes.node_selector(spec)} | {req.key |
	some term in nodes.required_terms(spec)
	some req in nodes.expressions(term)
}

# _selected(spec, key) renders what the node constraint of the pod spec
# says about the label key.
_selected(spec, key) := concat("; ", sort({sat.describe(key, c) |
	some alt in sat.alternatives(spec)
	some c in object.get(alt, key, [])
}))
