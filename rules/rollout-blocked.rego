# METADATA
# title: A rolling update's surge pod can never be placed
# description: |
#   A Deployment's rolling update first adds a new pod (maxSurge, 25% of
#   the replicas rounded up by default) and removes an old one only when
#   maxUnavailable allows it (25% rounded down: 0 for 3 replicas or fewer).
#   When the replicas already fill every place their pods may take (one per
#   node with required anti-affinity on kubernetes.io/hostname, one per
#   node with host ports, every GPU), the surge pod stays Pending, no old
#   pod is removed, and the rollout stalls until progressDeadlineSeconds
#   marks it failed; nothing rolls back by itself. A DaemonSet that surges
#   (maxSurge above 0) starts the new pod beside the old one on the same
#   node, which host ports or hostname anti-affinity forbid. With a node
#   inventory, dslint places the replicas and one more on an empty cluster.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#rolling-update-deployment
#     description: Rolling Update Deployment
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#inter-pod-affinity-and-anti-affinity
#     description: Inter-pod affinity and anti-affinity
# custom:
#   severity: warning
#   needs_inventory: true
#   intent: |
#     Fires, with a node inventory only, for a RollingUpdate Deployment
#     whose maxUnavailable resolves to 0 (explicitly, or 25% of 3 replicas or
#     fewer) and whose replicas (as written) all land on an empty cluster
#     while one more cannot, held back by required self anti-affinity that
#     also matches the old pods, host ports, or resources; and for a
#     DaemonSet with maxSurge above 0 whose pods bind host ports or have
#     required self anti-affinity on kubernetes.io/hostname. Stays quiet for
#     Recreate, for maxUnavailable of 1 or more (old pods go first), when a
#     spare node takes the surge pod, when the anti-affinity term tells
#     revisions apart (matchLabelKeys: [pod-template-hash]), when the count
#     depends on the scheduler's choices, and for StatefulSets (they replace
#     pods one by one, without surge).
#   remediation: |
#     Set strategy.rollingUpdate.maxUnavailable to 1 (or use strategy
#     Recreate), keep a spare node the pods may use, or add matchLabelKeys:
#     [pod-template-hash] to the anti-affinity term so that only pods of the
#     same revision repel each other.
#   bad: |
#     # The Nodes stand for the inventory: save them as nodes.yaml and run
#     # dslint --nodes nodes.yaml on the Deployment.
#     apiVersion: v1
#     kind: List
#     items:
#       - {apiVersion: v1, kind: Node, metadata: {name: ingress-1, labels: {pool: ingress}}}
#       - {apiVersion: v1, kind: Node, metadata: {name: ingress-2, labels: {pool: ingress}}}
#     ---
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: gateway
#     spec:
#       replicas: 2
#       selector: {matchLabels: {app: gateway}}
#       template:
#         metadata: {labels: {app: gateway}}
#         spec:
#           nodeSelector: {pool: ingress}
#           affinity:
#             podAntiAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 - labelSelector: {matchLabels: {app: gateway}}
#                   topologyKey: kubernetes.io/hostname
#           containers:
#             - name: envoy
#               image: envoyproxy/envoy:v1.31.0
#   good: |
#     # With the same nodes.yaml as inventory (--nodes nodes.yaml).
#     apiVersion: v1
#     kind: List
#     items:
#       - {apiVersion: v1, kind: Node, metadata: {name: ingress-1, labels: {pool: ingress}}}
#       - {apiVersion: v1, kind: Node, metadata: {name: ingress-2, labels: {pool: ingress}}}
#     ---
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: gateway
#     spec:
#       replicas: 2
#       strategy:
#         rollingUpdate: {maxSurge: 0, maxUnavailable: 1}
#       selector: {matchLabels: {app: gateway}}
#       template:
#         metadata: {labels: {app: gateway}}
#         spec:
#           nodeSelector: {pool: ingress}
#           affinity:
#             podAntiAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 - labelSelector: {matchLabels: {app: gateway}}
#                   topologyKey: kubernetes.io/hostname
#           containers:
#             - name: envoy
#               image: envoyproxy/envoy:v1.31.0
package dslint.rules["rollout-blocked"]

import data.dslint.lib.k8s
import data.dslint.lib.placement
import data.dslint.lib.podaffinity
import data.dslint.lib.result

report contains result.fail(_field(pod, surge.limit), msg) if {
	placement.has_inventory
	input.kind == "Deployment"
	object.get(input, ["spec", "strategy", "type"], "RollingUpdate") == "RollingUpdate"
	some pod in k8s.pods
	is_number(pod.replicas)
	pod.replicas > 0
	_unavailable(pod.replicas) == 0
	placement.pod_placement(pod).placed == pod.replicas
	surge := placement.replicas_placed(pod, pod.replicas + 1)
	surge.exact
	surge.placed == pod.replicas
	_across_revisions(pod, surge.limit)
	msg := sprintf("%s has %d replicas and %s: a rolling update's surge pod can never be placed, and with maxUnavailable 0 (%s) no old pod goes first, so the rollout stalls until progressDeadlineSeconds; set maxUnavailable to 1 or keep a spare node", [
		k8s.workload_label(pod),
		pod.replicas,
		surge.limit.text,
		_unavailable_source,
	])
}

# A DaemonSet that surges starts the new pod on the node of the old one
# (reference §14.3).
report contains result.fail(["spec", "updateStrategy", "rollingUpdate", "maxSurge"], msg) if {
	placement.has_inventory
	input.kind == "DaemonSet"
	object.get(input, ["spec", "updateStrategy", "type"], "RollingUpdate") == "RollingUpdate"
	not object.get(input, ["spec", "updateStrategy", "rollingUpdate", "maxSurge"], 0) in {0, "0%"}
	some pod in k8s.pods
	placement.pod_eligible(pod) > 0
	why := _one_per_node(pod)
	msg := sprintf("%s surges (maxSurge %v), but %s: the new pod can never start beside the old one on its node, so the rollout stalls; surge with maxSurge 0 and maxUnavailable 1 instead", [
		k8s.workload_label(pod),
		input.spec.updateStrategy.rollingUpdate.maxSurge,
		why,
	])
}

_one_per_node(pod) := "its pods bind host ports" if {
	placement.host_port_path(pod.spec)
} else := "required pod anti-affinity on kubernetes.io/hostname allows one per node" if {
	some [_, term] in podaffinity.anti_affinity_terms(pod.spec)
	term.topologyKey == "kubernetes.io/hostname"
	podaffinity.term_across_revisions(pod, term)
}

# _unavailable(replicas) is maxUnavailable resolved as the Deployment
# controller does (reference §14.1): a percentage rounds down, and when
# maxSurge and maxUnavailable both resolve to 0, maxUnavailable is 1.
_unavailable(replicas) := 1 if {
	_resolve(_strategy("maxSurge"), replicas, "up") == 0
	_resolve(_strategy("maxUnavailable"), replicas, "down") == 0
} else := _resolve(_strategy("maxUnavailable"), replicas, "down")

_strategy(name) := object.get(input, ["spec", "strategy", "rollingUpdate", name], "25%")

_resolve(v, _, _) := v if is_number(v)

_resolve(v, replicas, "up") := ceil((to_number(trim_suffix(v, "%")) * replicas) / 100) if {
	is_string(v)
	endswith(v, "%")
}

_resolve(v, replicas, "down") := floor((to_number(trim_suffix(v, "%")) * replicas) / 100) if {
	is_string(v)
	endswith(v, "%")
}

default _unavailable_source := "the default 25%, rounded down"

_unavailable_source := "as written" if input.spec.strategy.rollingUpdate.maxUnavailable

# The surge pod is held back among the old pods: anti-affinity must match
# them too (no matchLabelKeys: [pod-template-hash]); host ports and
# resources always do.
_across_revisions(_, limit) if limit.by in {"ports", "resources"}

_across_revisions(pod, limit) if {
	limit.by in {"anti-affinity", "spread"}
	term := object.get(pod.spec, array.slice(limit.path, 0, count(limit.path) - 1), null)
	not "pod-template-hash" in object.get(term, "matchLabelKeys", [])
}

# _field is where the finding points: maxUnavailable where it is written,
# else what holds the surge pod back.
_field(pod, limit) := ["spec", "strategy", "rollingUpdate", "maxUnavailable"] if {
	input.spec.strategy.rollingUpdate.maxUnavailable
} else := k8s.pod_path(pod, limit.path)
