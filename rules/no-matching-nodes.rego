# METADATA
# title: No node of the inventory can run the workload
# description: |
#   With a node inventory (--nodes, or nodes: and pools: in .dslint.yaml),
#   dslint places every workload as the scheduler and the
#   DaemonSet controller would: nodeName, nodeSelector and required node
#   affinity, NoSchedule and NoExecute taints against the tolerations (the
#   DaemonSet controller's own included), cordoned nodes, resources, and the
#   topology keys that DoNotSchedule spread constraints and required pod
#   affinity terms ask every node for. When no node passes,
#   the pods stay Pending ("0/N nodes are available") or a DaemonSet runs no
#   pod at all, and nothing fails before rollout. The finding names each
#   reason and how many nodes it blocks: most often a nodeSelector for a pool
#   without the toleration of the pool's taint, or a label no node has. Run
#   dslint schedule for the whole matrix. Without an inventory the rule is
#   silent.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
#     description: Assigning Pods to Nodes
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
#     description: Taints and Tolerations
# custom:
#   severity: error
#   needs_inventory: true
#   intent: |
#     Fires, with a node inventory only (--nodes, nodes: or pools: in
#     .dslint.yaml), when no node of the inventory passes a workload's node
#     constraints, taints, resources (what a pod requests against what an
#     empty node allocates, where the inventory says) and topology keys (a
#     DoNotSchedule spread constraint's or a required pod affinity term's
#     key, which a node must carry), naming each blocking reason. Node objects found among the linted files are not an inventory
#     (they are usually test fixtures): without --nodes or nodes: the rule is
#     silent. Stays quiet for fragments, for nodes that give neither
#     status.allocatable nor status.capacity (their resources are not
#     judged), and for pod affinity to other workloads' pods (other pods are
#     not modelled: only the topology key is).
#   remediation: |
#     Make the constraints and the cluster agree: select a label the target
#     nodes have, and tolerate the taints of those nodes (a dedicated pool
#     needs both halves). If the nodes are yet to come, add them to the
#     inventory.
#   bad: |
#     # The Node stands for the inventory: save it as nodes.yaml and run
#     # dslint --nodes nodes.yaml on the Deployment.
#     apiVersion: v1
#     kind: Node
#     metadata:
#       name: infra-1
#       labels: {pool: infra}
#     spec:
#       taints: [{key: dedicated, value: infra, effect: NoSchedule}]
#     ---
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: cert-manager
#     spec:
#       selector: {matchLabels: {app: cert-manager}}
#       template:
#         metadata: {labels: {app: cert-manager}}
#         spec:
#           nodeSelector: {pool: infra}
#           containers: [{name: controller, image: cert-manager-controller:v1.15.3}]
#   good: |
#     # With the same nodes.yaml as inventory (--nodes nodes.yaml).
#     apiVersion: v1
#     kind: Node
#     metadata:
#       name: infra-1
#       labels: {pool: infra}
#     spec:
#       taints: [{key: dedicated, value: infra, effect: NoSchedule}]
#     ---
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: cert-manager
#     spec:
#       selector: {matchLabels: {app: cert-manager}}
#       template:
#         metadata: {labels: {app: cert-manager}}
#         spec:
#           nodeSelector: {pool: infra}
#           tolerations: [{key: dedicated, value: infra, effect: NoSchedule}]
#           containers: [{name: controller, image: cert-manager-controller:v1.15.3}]
package dslint.rules["no-matching-nodes"]

import data.dslint.lib.k8s
import data.dslint.lib.placement
import data.dslint.lib.result

report contains result.fail(k8s.pod_path(pod, _field(reasons[0].reason)), msg) if {
	placement.has_inventory
	some pod in k8s.pods
	placement.pod_eligible(pod) == 0
	reasons := placement.pod_blocking_reasons(pod)
	msg := sprintf("%s fits no node of the inventory: %s", [k8s.workload_label(pod), concat("; ", [r.text | some r in reasons])])
}

# _field is the field a reason is about, for the finding's position.
_field("node-name") := ["nodeName"]

_field("node-selector") := ["nodeSelector"]

_field("node-affinity") := ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"]

_field("taint") := ["tolerations"]

_field("unschedulable") := []

_field("resources") := ["containers"]

_field("spread") := ["topologySpreadConstraints"]

_field("affinity") := ["affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution"]
