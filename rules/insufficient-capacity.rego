# METADATA
# title: More replicas than the nodes can ever hold
# description: |
#   Each node holds as many pods of a workload as its allocatable has room
#   for: the pods it takes at all, then every resource the pod requests
#   (a GPU pod on a one-GPU node: one), and one when the pods bind host ports
#   (hostNetwork makes every containerPort one). A Deployment or
#   StatefulSet that asks for more replicas than all the nodes it can land on
#   hold, even with nothing else running, leaves the rest Pending for good:
#   the rollout never completes. With a node inventory, dslint adds up that
#   room over the nodes where the pods can land. Pod anti-affinity and
#   topology spread are not counted yet.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
#     description: Resource Management for Pods and Containers
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/
#     description: Kubernetes Scheduler
# custom:
#   severity: error
#   needs_inventory: true
#   intent: |
#     Fires, with a node inventory only, for a Deployment, ReplicaSet,
#     StatefulSet or ReplicationController whose replicas (as written) are
#     more than the nodes it can land on hold on an empty cluster, counting
#     pods per node by allocatable and host ports, and names the pools and
#     what limits each. Stays quiet when some of those nodes say nothing of
#     their resources (the room is unknown), when no node takes the pods
#     (no-matching-nodes), for Jobs (their pods run in waves) and DaemonSets
#     (daemonset-pods-pending), and for replicas left to an autoscaler.
#   remediation: |
#     Lower the replicas or the requests, widen the node constraint to more
#     nodes, or add nodes to the pool.
#   bad: |
#     # The Node stands for the inventory: save it as nodes.yaml and run
#     # dslint --nodes nodes.yaml on the Deployment.
#     apiVersion: v1
#     kind: Node
#     metadata:
#       name: gpu-1
#       labels: {pool: gpu}
#     status:
#       allocatable: {cpu: "8", memory: 30Gi, nvidia.com/gpu: "1", pods: "58"}
#     ---
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: inference
#     spec:
#       replicas: 2
#       selector: {matchLabels: {app: inference}}
#       template:
#         metadata: {labels: {app: inference}}
#         spec:
#           nodeSelector: {pool: gpu}
#           containers:
#             - name: serve
#               image: inference:2.4
#               resources:
#                 limits: {nvidia.com/gpu: 1}
#   good: |
#     # With the same nodes.yaml as inventory (--nodes nodes.yaml).
#     apiVersion: v1
#     kind: Node
#     metadata:
#       name: gpu-1
#       labels: {pool: gpu}
#     status:
#       allocatable: {cpu: "8", memory: 30Gi, nvidia.com/gpu: "1", pods: "58"}
#     ---
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: inference
#     spec:
#       replicas: 1
#       selector: {matchLabels: {app: inference}}
#       template:
#         metadata: {labels: {app: inference}}
#         spec:
#           nodeSelector: {pool: gpu}
#           containers:
#             - name: serve
#               image: inference:2.4
#               resources:
#                 limits: {nvidia.com/gpu: 1}
package dslint.rules["insufficient-capacity"]

import data.dslint.lib.k8s
import data.dslint.lib.placement
import data.dslint.lib.resources
import data.dslint.lib.result

report contains result.fail(k8s.pod_path(pod, _field(pod, placement.pod_room_in(pod))), msg) if {
	placement.has_inventory
	input.kind in {"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"}
	some pod in k8s.pods
	is_number(pod.replicas)
	capacity := placement.pod_capacity(pod)
	capacity > 0
	pod.replicas > capacity
	msg := sprintf("%s asks for %d replicas, but the nodes it can land on hold %d of its pods at most, even with nothing else running: %s; the other replicas stay Pending", [
		k8s.workload_label(pod),
		pod.replicas,
		capacity,
		concat("; ", [_pool_room(i, r) | some i, r in placement.pod_room_in(pod)]),
	])
}

_pool_room(i, r) := sprintf("%s, %s × %d (%s)", [placement.pools[i].name, _nodes(r.nodes), r.each, r.by])

# _field is where the finding points: the request of the resource that
# limits the first pool; the containers when pods or host ports do.
_field(pod, room) := path if {
	path := resources.request_path(pod.spec, room[min(object.keys(room))].resource)
} else := ["containers"]

_nodes(1) := "1 node"

_nodes(n) := sprintf("%d nodes", [n]) if n != 1
