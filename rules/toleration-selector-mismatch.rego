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
#   value says nothing about the label's value.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
#     description: Assigning Pods to Nodes
# custom:
#   severity: warning
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
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

report contains result.fail(k8s.toleration_path(i), msg) if {
	some i, t in k8s.tolerations
	tol.field(t, "operator") in {"", "Equal"}
	key := tol.field(t, "key")
	value := tol.field(t, "value")
	is_string(key)
	is_string(value)
	key != ""
	value != ""
	not settings.is_system_taint(key)
	key in _constrained_keys
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

# The label keys the nodeSelector or a required term constrains: a cheap
# filter before the satisfiability check.
_constrained_keys contains key if {
	some key, _ in nodes.node_selector(k8s.pod_spec)
}

_constrained_keys contains req.key if {
	some term in nodes.required_terms(k8s.pod_spec)
	some req in sat.requirements(term, "matchExpressions")
}

# _selected(key) renders what the constraint says about the label key.
_selected(key) := concat("; ", sort({sat.describe(key, c) |
	some alt in sat.alternatives(k8s.pod_spec)
	some c in object.get(alt, key, [])
}))
