# METADATA
# title: A DaemonSet's pods can never start on some of its nodes
# description: |
#   The DaemonSet controller decides which nodes run a daemon pod from the
#   node constraints and taints alone: it does not look at resources. On a
#   node whose allocatable is smaller than what the pod requests (or that
#   takes no pods), the controller still counts the node in DESIRED and
#   creates the pod, pinned to that node; the scheduler never places it, and
#   it stays Pending for good. kubectl get ds shows READY below DESIRED, and
#   on a small pool the daemon (a log shipper, a node exporter, a CNI or CSI
#   plugin) never covers those nodes. With a node inventory, dslint compares
#   what each daemon pod requests with what every node that should run it
#   allocates.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/
#     description: DaemonSet
#   - ref: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
#     description: Resource Management for Pods and Containers
# custom:
#   severity: warning
#   needs_inventory: true
#   intent: |
#     Fires, with a node inventory only (--nodes, nodes: or pools: in
#     .dslint.yaml), for a DaemonSet whose pods request more than some of the
#     nodes it should run on allocate, or that counts nodes whose
#     allocatable takes no pods, naming the pools and what the nodes lack.
#     Stays quiet without an inventory, for nodes that say nothing of their
#     resources, for nodes the DaemonSet does not select or tolerate (that is
#     placement, not resources), and when no node runs it at all
#     (no-matching-nodes' concern).
#   remediation: |
#     Lower the daemon's requests so that the smallest node that should run
#     it can, keep it off the small nodes with a node constraint, or give
#     those nodes more room. Requests that come only from limits count too.
#   bad: |
#     # The Node stands for the inventory: save it as nodes.yaml and run
#     # dslint --nodes nodes.yaml on the DaemonSet.
#     apiVersion: v1
#     kind: Node
#     metadata:
#       name: small-1
#       labels: {pool: small}
#     status:
#       allocatable: {cpu: 1930m, memory: 7220184Ki, pods: "29"}
#     ---
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: log-agent
#     spec:
#       selector: {matchLabels: {app: log-agent}}
#       template:
#         metadata: {labels: {app: log-agent}}
#         spec:
#           containers:
#             - name: agent
#               image: agent:1.0
#               resources:
#                 requests: {cpu: "2", memory: 256Mi}
#   good: |
#     # With the same nodes.yaml as inventory (--nodes nodes.yaml).
#     apiVersion: v1
#     kind: Node
#     metadata:
#       name: small-1
#       labels: {pool: small}
#     status:
#       allocatable: {cpu: 1930m, memory: 7220184Ki, pods: "29"}
#     ---
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: log-agent
#     spec:
#       selector: {matchLabels: {app: log-agent}}
#       template:
#         metadata: {labels: {app: log-agent}}
#         spec:
#           containers:
#             - name: agent
#               image: agent:1.0
#               resources:
#                 requests: {cpu: 200m, memory: 256Mi}
package dslint.rules["daemonset-pods-pending"]

import data.dslint.lib.k8s
import data.dslint.lib.placement
import data.dslint.lib.resources
import data.dslint.lib.result

report contains result.fail(k8s.pod_path(pod, _field(pod, first.resource)), msg) if {
	placement.has_inventory
	some pod in k8s.pods
	pending := placement.pod_pending_in(pod)
	count(pending) > 0
	first := pending[min(object.keys(pending))]
	msg := sprintf("%s counts %s in DESIRED where its pods can never start, so they stay Pending: %s; lower the requests, or keep the DaemonSet off those nodes", [
		k8s.workload_label(pod),
		_nodes(sum([count(placement.pools[i].nodes) | some i, _ in pending])),
		concat("; ", [sprintf("%s (%s)", [placement.pools[i].name, short.text]) | some i, short in pending]),
	])
}

# _field is where the finding points: the request of the resource the
# first pool lacks; the containers when it is room for a pod at all.
_field(pod, name) := path if {
	path := resources.request_path(pod.spec, name)
} else := ["containers"]

_nodes(1) := "1 node"

_nodes(n) := sprintf("%d nodes", [n]) if n != 1
