# METADATA
# title: More replicas than the nodes can ever hold
# description: |
#   Each node holds as many pods of a workload as its allocatable has room
#   for: the pods it takes at all, then every resource the pod requests
#   (a GPU pod on a one-GPU node: one), and one when the pods bind host ports
#   (hostNetwork makes every containerPort one). Required pod anti-affinity
#   among the replicas allows one per topology domain (one per node on
#   kubernetes.io/hostname), and a DoNotSchedule topology spread constraint
#   stops each domain at maxSkew above the emptiest one, which stays at 0
#   when its nodes can take none of the pods. A Deployment or StatefulSet
#   that asks for more replicas than the nodes it can land on hold, even
#   with nothing else running, leaves the rest Pending for good: the
#   rollout never completes. With a node inventory, dslint counts the
#   replicas an empty cluster holds, as the scheduler places them one by
#   one (reference §15).
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
#     more than an empty cluster holds: by allocatable and host ports per
#     node, required anti-affinity among its own pods (one per domain),
#     DoNotSchedule spread among its own pods, and required self affinity
#     (all in the first pod's domain); it names what limits them and
#     points at that field. Stays quiet on nodes that say nothing of their
#     resources (their room is not counted against the pods), on terms
#     that match other workloads' pods only (other pods are not
#     modelled), when no node takes the pods (no-matching-nodes), for Jobs
#     (their pods run in waves) and DaemonSets (daemonset-pods-pending), and
#     for replicas left to an autoscaler.
#   remediation: |
#     Lower the replicas or the requests, widen the node constraint to more
#     nodes, add nodes to the pool, or relax the anti-affinity or spread
#     (preferred instead of required, ScheduleAnyway, a coarser key).
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
import data.dslint.lib.result

report contains result.fail(k8s.pod_path(pod, c.limit.path), msg) if {
	placement.has_inventory
	input.kind in {"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"}
	some pod in k8s.pods
	is_number(pod.replicas)
	c := placement.pod_placement(pod)
	c.placed > 0
	pod.replicas > c.placed
	msg := sprintf("%s asks for %d replicas, but %s; the other replicas stay Pending", [
		k8s.workload_label(pod),
		pod.replicas,
		c.limit.text,
	])
}
