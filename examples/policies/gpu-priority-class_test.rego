package dslint.rules["gpu-priority-class"]

_job(spec) := {
	"apiVersion": "batch/v1",
	"kind": "Job",
	"metadata": {"name": "train"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "t", "image": "t"}]}, spec)}},
}

_gpu_toleration := {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}

test_gpu_job_without_priority_class if {
	findings := report with input as _job({"tolerations": [{"key": "other"}, _gpu_toleration]})
	count(findings) == 1
	some f in findings
	f.path == ["spec", "template", "spec", "tolerations", 1]
	contains(f.message, `job "train" tolerates the GPU taint nvidia.com/gpu=present:NoSchedule`)
}

test_gpu_job_with_priority_class if {
	count(report) == 0 with input as _job({"tolerations": [_gpu_toleration], "priorityClassName": "gpu-batch"})
}

test_wildcard_toleration_counts if {
	count(report) == 1 with input as _job({"tolerations": [{"operator": "Exists"}]})
}

test_other_taints_do_not_count if {
	count(report) == 0 with input as _job({"tolerations": [{"key": "dedicated", "value": "ingress", "effect": "NoSchedule"}]})
}

test_daemonsets_are_left_alone if {
	ds := {
		"apiVersion": "apps/v1",
		"kind": "DaemonSet",
		"metadata": {"name": "device-plugin"},
		"spec": {"template": {"spec": {"containers": [{"name": "p", "image": "p"}], "tolerations": [_gpu_toleration]}}},
	}
	count(report) == 0 with input as ds
}
