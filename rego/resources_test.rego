# What a pod requests (reference §10.1-§10.2); internal/differential
# compares resources.requests with PodRequests on generated pods.
package dslint.lib.resources_test

import data.dslint.lib.resources

_c(requests, limits) := {"name": "c", "resources": {"requests": requests, "limits": limits}}

_sidecar(requests) := {"name": "s", "restartPolicy": "Always", "resources": {"requests": requests}}

test_containers_are_summed if {
	resources.requests({"containers": [_c({"cpu": "500m", "memory": "1Gi"}, {}), _c({"cpu": "250m"}, {})]}) == {"cpu": 750, "memory": 1073741824}
}

# A limit stands in for a missing request: the normal way to ask for a GPU.
test_limits_stand_in_for_requests if {
	resources.requests({"containers": [_c({}, {"nvidia.com/gpu": 2, "cpu": "1"})]}) == {"nvidia.com/gpu": 2, "cpu": 1000}
	resources.requests({"containers": [_c({"cpu": "100m"}, {"cpu": "1"})]}) == {"cpu": 100}
}

# Rounding comes once, after the sum: two halves of a millicore are one.
test_rounded_after_the_sum if {
	resources.requests({"containers": [_c({"cpu": "0.5m"}, {}), _c({"cpu": "0.5m"}, {})]}) == {"cpu": 1}
}

# The order of init containers matters (reference §10.1, verified): a plain
# init container needs the sidecars started before it.
test_init_containers_and_sidecars if {
	containers := [_c({"cpu": "1"}, {})]
	resources.requests({"containers": containers, "initContainers": [_sidecar({"cpu": "1"}), _c({"cpu": "2500m"}, {})]}) == {"cpu": 3500}
	resources.requests({"containers": containers, "initContainers": [_c({"cpu": "2500m"}, {}), _sidecar({"cpu": "1"})]}) == {"cpu": 2500}
	resources.requests({"containers": containers, "initContainers": [_c({"memory": "1Gi"}, {})]}) == {"cpu": 1000, "memory": 1073741824}
}

# Pod-level requests replace the containers' cpu, memory and hugepages, not
# the rest; overhead is added.
test_pod_level_and_overhead if {
	spec := {
		"containers": [_c({"cpu": "4", "ephemeral-storage": "1Gi"}, {})],
		"resources": {"requests": {"cpu": "2", "ephemeral-storage": "5Gi"}},
		"overhead": {"cpu": "250m"},
	}
	resources.requests(spec) == {"cpu": 2250, "ephemeral-storage": 1073741824}
}

# Names the scheduler does not count are dropped; so are zeros, and what is
# no quantity (which the API server refuses).
test_dropped if {
	resources.requests({"containers": [_c({"foo": "1", "cpu": "0", "memory": "lots"}, {})]}) == {}
	resources.requests({}) == {}
	resources.requests({"containers": ["not a container"]}) == {}
}

# request_path points at the field that states the request: the first
# container's, an init container's, the pod-level request, the overhead.
test_request_path if {
	spec := {
		"containers": [_c({}, {}), _c({"cpu": "1"}, {"nvidia.com/gpu": 1})],
		"initContainers": [_c({"memory": "1Gi"}, {})],
		"resources": {"requests": {"hugepages-2Mi": "2Mi"}},
		"overhead": {"example.com/foo": "1"},
	}
	resources.request_path(spec, "cpu") == ["containers", 1, "resources", "requests", "cpu"]
	resources.request_path(spec, "nvidia.com/gpu") == ["containers", 1, "resources", "limits", "nvidia.com/gpu"]
	resources.request_path(spec, "memory") == ["initContainers", 0, "resources", "requests", "memory"]
	resources.request_path(spec, "hugepages-2Mi") == ["resources", "requests", "hugepages-2Mi"]
	resources.request_path(spec, "example.com/foo") == ["overhead", "example.com/foo"]
	not resources.request_path(spec, "pods")
}
