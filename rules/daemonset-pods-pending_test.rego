package dslint.rules["daemonset-pods-pending_test"]

import data.dslint.rules["daemonset-pods-pending"] as rule
import data.dslint.test.inventory as testinv

_inventory := testinv.indexed({"pools": [
	testinv.allocating(testinv.pool("small", {"pool": "small"}, [], ["s-1", "s-2"]), {"cpu": "1930m", "memory": "7Gi", "pods": "29"}),
	testinv.allocating(testinv.pool("big", {"pool": "big"}, [], ["b-1"]), {"cpu": "32", "memory": "120Gi", "pods": "110"}),
	testinv.allocating(testinv.pool("gpu", {"pool": "gpu"}, [{"key": "nvidia.com/gpu", "effect": "NoSchedule"}], ["g-1"]), {"cpu": "8", "pods": "58"}),
	testinv.allocating(testinv.pool("podless", {"pool": "podless"}, [], ["p-1"]), {"cpu": "64"}),
	testinv.pool("unknown", {"pool": "unknown"}, [], ["u-1"]),
]})

_daemonset(spec) := {
	"apiVersion": "apps/v1",
	"kind": "DaemonSet",
	"metadata": {"name": "log-agent"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}},
}

_asking(resources) := {"containers": [{"name": "c", "image": "i", "resources": resources}]}

test_requests_beyond_small_nodes if {
	r := rule.report with input as _daemonset(_asking({"requests": {"cpu": "2"}})) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "containers", 0, "resources", "requests", "cpu"],
		"message": "daemonset \"log-agent\" counts 3 nodes in DESIRED where its pods can never start, so they stay Pending: small (request cpu 2: the node allocates 1930m); podless (room for a pod: the node's allocatable names no pods); lower the requests, or keep the DaemonSet off those nodes",
	}}
}

# Requests that come only from limits count; the tainted GPU pool is not
# among the DaemonSet's nodes, so its size does not matter.
test_limits_count_and_only_desired_nodes if {
	r := rule.report with input as _daemonset(_asking({"limits": {"memory": "16Gi"}})) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "containers", 0, "resources", "limits", "memory"],
		"message": "daemonset \"log-agent\" counts 3 nodes in DESIRED where its pods can never start, so they stay Pending: small (request memory 16Gi: the node allocates 7Gi); podless (room for a pod: the node's allocatable names no pods); lower the requests, or keep the DaemonSet off those nodes",
	}}
}

test_quiet_when_the_pods_fit if {
	inv := testinv.indexed({"pools": [
		testinv.allocating(testinv.pool("small", {"pool": "small"}, [], ["s-1"]), {"cpu": "1930m", "pods": "29"}),
		testinv.pool("unknown", {"pool": "unknown"}, [], ["u-1"]),
	]})
	rule.report == set() with input as _daemonset(_asking({"requests": {"cpu": "200m"}})) with data.dslint.inventory as inv
}

# A node constraint that keeps the DaemonSet on the big pool: nothing pends.
test_quiet_when_kept_off_small_nodes if {
	w := _daemonset(object.union(_asking({"requests": {"cpu": "2"}}), {"nodeSelector": {"pool": "big"}}))
	rule.report == set() with input as w with data.dslint.inventory as _inventory
}

# Other workloads are placed with their resources: no-matching-nodes speaks
# for them.
test_quiet_for_deployments if {
	w := object.union(_daemonset(_asking({"requests": {"cpu": "2"}})), {"kind": "Deployment"})
	rule.report == set() with input as w with data.dslint.inventory as _inventory
}

test_quiet_without_inventory if {
	rule.report == set() with input as _daemonset(_asking({"requests": {"cpu": "2"}}))
}
