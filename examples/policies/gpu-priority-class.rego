# METADATA
# title: GPU workloads set a priority class
# description: |
#   A workload that tolerates the GPU taint is meant for the GPU pool, where
#   capacity is scarce. Without a priority class its pods queue behind every
#   other GPU job and cannot preempt batch work when the pool is full. Node
#   agents (DaemonSets) are left alone: they run on every GPU node anyway.
# custom:
#   severity: warning
#   remediation: |
#     Set priorityClassName in the pod template to one of the cluster's GPU
#     priority classes (kubectl get priorityclasses).
#   bad: |
#     apiVersion: batch/v1
#     kind: Job
#     metadata: {name: train}
#     spec:
#       template:
#         spec:
#           restartPolicy: Never
#           containers: [{name: train, image: trainer:1.0}]
#           tolerations:
#             - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
#   good: |
#     apiVersion: batch/v1
#     kind: Job
#     metadata: {name: train}
#     spec:
#       template:
#         spec:
#           restartPolicy: Never
#           priorityClassName: gpu-batch
#           containers: [{name: train, image: trainer:1.0}]
#           tolerations:
#             - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
package dslint.rules["gpu-priority-class"]

import data.dslint.lib.k8s
import data.dslint.lib.result
import data.dslint.lib.tolerations

# gpu_taint is the taint of the cluster's GPU nodes.
gpu_taint := {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}

report contains result.fail(k8s.pod_path(pod, ["tolerations", i]), message) if {
	some pod in k8s.pods
	not pod.daemonset
	not pod.spec.priorityClassName
	some i, t in pod.valid_tolerations
	tolerations.tolerates(t, gpu_taint)
	message := sprintf("%s tolerates the GPU taint %s but sets no priorityClassName: it cannot preempt other work on the GPU pool", [
		k8s.workload_label(pod), tolerations.string_of_taint(gpu_taint),
	])
}
