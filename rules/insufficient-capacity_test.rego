package dslint.rules["insufficient-capacity_test"]

import data.dslint.rules["insufficient-capacity"] as rule
import data.dslint.test.inventory as testinv

_inventory := testinv.indexed({"pools": [
	testinv.allocating(testinv.pool("gpu", {"pool": "gpu"}, [], ["gpu-1", "gpu-2"]), {"cpu": "8", "memory": "30Gi", "nvidia.com/gpu": "1", "pods": "58"}),
	testinv.allocating(testinv.pool("general", {"pool": "general"}, [], ["g-1"]), {"cpu": "4", "memory": "16Gi", "pods": "3"}),
]})

_deployment(replicas, spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "web"},
	"spec": {"replicas": replicas, "template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}},
}

_gpu_pod := {"nodeSelector": {"pool": "gpu"}, "containers": [{"name": "c", "image": "i", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}

test_more_gpu_replicas_than_gpus if {
	r := rule.report with input as _deployment(3, _gpu_pod) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "containers", 0, "resources", "limits", "nvidia.com/gpu"],
		"message": "deployment \"web\" asks for 3 replicas, but the nodes it can land on hold 2 of its pods at most, even with nothing else running: gpu, 2 nodes × 1 (nvidia.com/gpu 1 of 1); the other replicas stay Pending",
	}}
}

test_replicas_that_fit if {
	rule.report == set() with input as _deployment(2, _gpu_pod) with data.dslint.inventory as _inventory
}

# cpu counts in millicores; without requests, the pod count limits.
test_cpu_and_pod_count if {
	spec := {"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "3"}}}]}
	r := rule.report with input as _deployment(6, spec) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "containers", 0, "resources", "requests", "cpu"],
		"message": "deployment \"web\" asks for 6 replicas, but the nodes it can land on hold 5 of its pods at most, even with nothing else running: gpu, 2 nodes × 2 (cpu 3 of 8); general, 1 node × 1 (cpu 3 of 4); the other replicas stay Pending",
	}}
	rule.report == set() with input as _deployment(5, spec) with data.dslint.inventory as _inventory
	many := rule.report with input as _deployment(200, {}) with data.dslint.inventory as _inventory
	many == {{
		"path": ["spec", "template", "spec", "containers"],
		"message": "deployment \"web\" asks for 200 replicas, but the nodes it can land on hold 119 of its pods at most, even with nothing else running: gpu, 2 nodes × 58 (58 pods); general, 1 node × 3 (3 pods); the other replicas stay Pending",
	}}
}

# With hostNetwork every containerPort is a host port: one pod per node.
test_host_network_ports if {
	spec := {"hostNetwork": true, "nodeSelector": {"pool": "gpu"}, "containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 9100}]}]}
	r := rule.report with input as _deployment(3, spec) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "containers"],
		"message": "deployment \"web\" asks for 3 replicas, but the nodes it can land on hold 2 of its pods at most, even with nothing else running: gpu, 2 nodes × 1 (host ports); the other replicas stay Pending",
	}}
}

test_quiet_when_the_room_is_unknown if {
	inv := testinv.indexed({"pools": [testinv.pool("gpu", {"pool": "gpu"}, [], ["gpu-1"])]})
	rule.report == set() with input as _deployment(3, _gpu_pod) with data.dslint.inventory as inv
}

test_quiet_for_jobs_and_without_replicas if {
	job := {
		"apiVersion": "batch/v1",
		"kind": "Job",
		"metadata": {"name": "train"},
		"spec": {"parallelism": 3, "template": {"spec": _gpu_pod}},
	}
	rule.report == set() with input as job with data.dslint.inventory as _inventory
	w := json.patch(_deployment(1, _gpu_pod), [{"op": "remove", "path": "/spec/replicas"}])
	rule.report == set() with input as w with data.dslint.inventory as _inventory
}

test_quiet_without_inventory if {
	rule.report == set() with input as _deployment(3, _gpu_pod)
}
