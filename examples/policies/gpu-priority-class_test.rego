package dslint.rules["gpu-priority-class_test"]

import data.dslint.rules["gpu-priority-class"] as rule

_job(spec) := {
	"apiVersion": "batch/v1",
	"kind": "Job",
	"metadata": {"name": "train"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "t", "image": "t"}]}, spec)}},
}

_gpu_toleration := {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}

_message(workload) := sprintf("%s tolerates the GPU taint nvidia.com/gpu=present:NoSchedule but sets no priorityClassName: it cannot preempt other work on the GPU pool", [workload])

test_gpu_job_without_priority_class if {
	rule.report == {{
		"path": ["spec", "template", "spec", "tolerations", 1],
		"message": _message(`job "train"`),
	}} with input as _job({"tolerations": [{"key": "other"}, _gpu_toleration]})
}

test_gpu_job_with_priority_class if {
	rule.report == set() with input as _job({"tolerations": [_gpu_toleration], "priorityClassName": "gpu-batch"})
}

test_wildcard_toleration_counts if {
	rule.report == {{
		"path": ["spec", "template", "spec", "tolerations", 0],
		"message": _message(`job "train"`),
	}} with input as _job({"tolerations": [{"operator": "Exists"}]})
}

test_other_taints_do_not_count if {
	rule.report == set() with input as _job({"tolerations": [{"key": "dedicated", "value": "ingress", "effect": "NoSchedule"}]})
}

test_daemonsets_are_left_alone if {
	ds := {
		"apiVersion": "apps/v1",
		"kind": "DaemonSet",
		"metadata": {"name": "device-plugin"},
		"spec": {"template": {"spec": {"containers": [{"name": "p", "image": "p"}], "tolerations": [_gpu_toleration]}}},
	}
	rule.report == set() with input as ds
}

# Every pod template of a custom resource is judged: a RayCluster's GPU
# worker group, at its own path.
test_ray_worker_group if {
	worker := {"replicas": 2, "template": {"spec": {"containers": [{"name": "w", "image": "ray"}], "tolerations": [_gpu_toleration]}}}
	cluster := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": {"containers": [{"name": "h", "image": "ray"}]}}},
			"workerGroupSpecs": [worker],
		},
	}
	rule.report == {{
		"path": ["spec", "workerGroupSpecs", 0, "template", "spec", "tolerations", 0],
		"message": _message(`raycluster "ray" (spec.workerGroupSpecs[0].template.spec)`),
	}} with input as cluster
}
