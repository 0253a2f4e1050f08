# METADATA
# title: Node constraints that no node can satisfy
# description: |
#   A pod runs only on a node that meets its nodeName, its nodeSelector and
#   one of the terms of its required node affinity (terms are ORed, the
#   requirements inside a term and the nodeSelector are ANDed). When every
#   term contradicts itself or the nodeSelector, no node can ever qualify,
#   whatever labels the cluster has: the pods stay Pending with "node(s)
#   didn't match Pod's node affinity/selector", a DaemonSet runs no pods, and
#   the kubelet rejects a pod bound with nodeName. The API server accepts such
#   a manifest, so nothing fails before rollout. Typical causes: a nodeSelector
#   pool=gpu next to an affinity that requires pool In [cpu] or pool
#   DoesNotExist, In [a] with NotIn [a] on the same key, disjoint In sets,
#   Exists with DoesNotExist, Gt and Lt bounds with no integer between them,
#   a nodeName that a matchFields metadata.name requirement excludes. The
#   check is symbolic and exact: In [a, b] with NotIn [a] is fine, Gt 5 with
#   Lt 6 is not. Terms that are invalid or empty match no node either; they
#   are reported by invalid-node-affinity, and this rule only fires when at
#   least one term holds a real contradiction. The finding points at the
#   requirement that completes the contradiction in the first such term (the
#   one that, with the nodeName, the nodeSelector and the requirements before
#   it, leaves no possible node), and the message says why each term fails.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
#     description: Assigning Pods to Nodes, node affinity
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodeselector
#     description: Assigning Pods to Nodes, nodeSelector
# custom:
#   severity: error
#   intent: |
#     Fires when no node could ever satisfy a workload's node constraints,
#     whatever labels the cluster has: the nodeSelector contradicts every
#     required term, every term contradicts itself, or a nodeName is excluded
#     by matchFields. Stays quiet when one term can still hold (terms are
#     ORed), for invalid or empty terms (invalid-node-affinity reports them),
#     for preferred affinity (it never blocks), and for fragments.
#   remediation: |
#     Make the nodeSelector and at least one required node selector term agree:
#     drop the duplicate constraint, or fix the label key or value that points
#     at the wrong pool. Put alternatives in separate terms (terms are ORed),
#     not in one term (requirements are ANDed).
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
#           nodeSelector:
#             pool: gpu
#           affinity:
#             nodeAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 nodeSelectorTerms:
#                   - matchExpressions:
#                       - key: pool
#                         operator: In
#                         values: [cpu]
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
#           nodeSelector:
#             pool: gpu
#           affinity:
#             nodeAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 nodeSelectorTerms:
#                   - matchExpressions:
#                       - key: nvidia.com/gpu.product
#                         operator: In
#                         values: [A100, H100]
package dslint.rules["conflicting-node-constraints"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat

# The finding is at the requirement that completes the contradiction of the
# first term that holds one; the message says why each term fails.
report contains result.fail(k8s.pod_path(pod, array.concat(_terms_field, [i, c.at["in"], c.at.index])), msg) if {
	some pod in k8s.pods
	spec := pod.spec
	terms := spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
	is_array(terms)
	count(terms) > 0
	not sat.satisfiable(spec)
	contradicting := [j | some j, term in terms; count(sat.conflicts(spec, term)) > 0]
	i := contradicting[0]
	c := sat.first_conflict(spec, terms[i])
	reasons := [_term_reason(spec, terms, j) | some j, _ in terms]
	msg := sprintf("no node can satisfy the node constraints of %s: %s; %s", [k8s.workload_label(pod), concat("; ", reasons), _consequence(pod)])
}

_terms_field := ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"]

_term_reason(spec, terms, j) := _why(spec, terms[j]) if count(terms) == 1

_term_reason(spec, terms, j) := sprintf("nodeSelectorTerms[%d]: %s", [j, _why(spec, terms[j])]) if count(terms) > 1

_why(spec, term) := _explain(sat.first_conflict(spec, term)) if count(sat.conflicts(spec, term)) > 0

_why(_, term) := "the term is empty and matches no node" if sat.term_empty(term)

_why(_, term) := "the term is invalid and matches no node (see invalid-node-affinity)" if {
	not sat.term_empty(term)
	not sat.term_valid(term)
}

_explain(c) := sprintf("%s matches no node", [_describe(c)[0]]) if count(c.constraints) == 1

_explain(c) := sprintf("%s cannot hold together", [_and(_describe(c))]) if count(c.constraints) > 1

_describe(c) := [sat.describe(c.key, x) | some x in c.constraints]

_and(items) := concat(" and ", [concat(", ", array.slice(items, 0, count(items) - 1)), items[count(items) - 1]])

_consequence(pod) := "the DaemonSet runs no pods" if pod.daemonset

_consequence(pod) := sprintf("the kubelet of node %q rejects its pods", [nodes.node_name(pod.spec)]) if {
	not pod.daemonset
	nodes.node_name(pod.spec) != ""
}

_consequence(pod) := "its pods stay Pending" if {
	not pod.daemonset
	nodes.node_name(pod.spec) == ""
}
