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
		"path": ["spec", "template", "spec", "hostNetwork"],
		"message": "deployment \"web\" asks for 3 replicas, but its host ports allow one pod per node, and it can land on 2 nodes; the other replicas stay Pending",
	}}
}

_labelled(replicas, labels, spec) := json.patch(_deployment(replicas, spec), [{"op": "add", "path": "/spec/template/metadata", "value": {"labels": labels}}])

_anti(key, selector) := {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": selector, "topologyKey": key}]}}

# The issue's example: 3 replicas, one per node, on a 2-node pool.
test_hostname_anti_affinity if {
	spec := {"nodeSelector": {"pool": "gpu"}, "affinity": _anti("kubernetes.io/hostname", {"matchLabels": {"app": "web"}})}
	r := rule.report with input as _labelled(3, {"app": "web"}, spec) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "topologyKey"],
		"message": "deployment \"web\" asks for 3 replicas, but required pod anti-affinity on kubernetes.io/hostname allows 2, one per node: only gpu-1 and gpu-2 are eligible; the other replicas stay Pending",
	}}
	rule.report == set() with input as _labelled(2, {"app": "web"}, spec) with data.dslint.inventory as _inventory
}

# A term that matches other workloads' pods only, or that tells replicas
# apart (a StatefulSet pod's name), does not limit the replicas.
test_anti_affinity_to_other_pods if {
	other := {"nodeSelector": {"pool": "gpu"}, "affinity": _anti("kubernetes.io/hostname", {"matchLabels": {"app": "db"}})}
	rule.report == set() with input as _labelled(3, {"app": "web"}, other) with data.dslint.inventory as _inventory
	apart := {"nodeSelector": {"pool": "gpu"}, "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
		"labelSelector": {"matchLabels": {"app": "web"}},
		"matchLabelKeys": ["statefulset.kubernetes.io/pod-name"],
		"topologyKey": "kubernetes.io/hostname",
	}]}}}
	sts := object.union(_labelled(3, {"app": "web"}, apart), {"kind": "StatefulSet"})
	rule.report == set() with input as sts with data.dslint.inventory as _inventory
	nil_selector := {"nodeSelector": {"pool": "gpu"}, "affinity": _anti("kubernetes.io/hostname", null)}
	rule.report == set() with input as _labelled(3, {"app": "web"}, nil_selector) with data.dslint.inventory as _inventory
}

_zones := testinv.indexed({
	"per_node_keys": ["kubernetes.io/hostname", "topology.kubernetes.io/zone"],
	"pools": [
		_zoned(testinv.pool("a", {"pool": "a"}, [], ["a-1", "a-2", "a-3"]), "a"),
		_zoned(testinv.pool("b", {"pool": "b"}, [], ["b-1"]), "b"),
		_zoned(testinv.pool("c", {"pool": "c"}, [{"key": "x", "value": "y", "effect": "NoSchedule"}], ["c-1"]), "c"),
	],
})

_zoned(p, zone) := testinv.allocating(
	object.union(p, {
		"nodes": [object.union(n, {"metadata": {"labels": {"topology.kubernetes.io/zone": zone}}}) | some n in p.nodes],
		"varying": ["kubernetes.io/hostname", "topology.kubernetes.io/zone"],
		"everywhere": ["kubernetes.io/hostname", "topology.kubernetes.io/zone"],
		"by_label": object.union(p.by_label, {"topology.kubernetes.io/zone": {zone: [j | some j, _ in p.nodes]}}),
	}),
	{"cpu": "4", "pods": "110"},
)

_spread(extra) := {"topologySpreadConstraints": [object.union(
	{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}},
	extra,
)]}

_cpu := {"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "1"}}}]}

# Reference §12.3: zone c's only node is tainted, so zone c holds 0 and
# every other zone 1; with nodeTaintsPolicy Honor zone c is no domain, and
# zone b's 4 CPUs cap the count at 4 + 5.
test_spread_with_an_empty_domain if {
	r := rule.report with input as _labelled(3, {"app": "web"}, object.union(_cpu, _spread({}))) with data.dslint.inventory as _zones
	r == {{
		"path": ["spec", "template", "spec", "topologySpreadConstraints", 0, "maxSkew"],
		"message": "deployment \"web\" asks for 3 replicas, but topology spread on topology.kubernetes.io/zone (maxSkew 1) allows 2: topology.kubernetes.io/zone=c takes none of its pods (its nodes are tainted, cordoned, full or excluded), so every other holds 1 at most; the other replicas stay Pending",
	}}
	honor := object.union(_cpu, _spread({"nodeTaintsPolicy": "Honor"}))
	rule.report == set() with input as _labelled(9, {"app": "web"}, honor) with data.dslint.inventory as _zones
	h := rule.report with input as _labelled(10, {"app": "web"}, honor) with data.dslint.inventory as _zones
	h == {{
		"path": ["spec", "template", "spec", "topologySpreadConstraints", 0, "maxSkew"],
		"message": "deployment \"web\" asks for 10 replicas, but topology spread on topology.kubernetes.io/zone (maxSkew 1) allows 9: its domains can hold a 12, b 4, and none may hold more than 5; the other replicas stay Pending",
	}}
}

# An empty selector counts no pod, and ScheduleAnyway never filters.
test_spread_that_never_binds if {
	empty := json.patch(object.union(_cpu, _spread({})), [{"op": "replace", "path": "/topologySpreadConstraints/0/labelSelector", "value": {}}])
	rule.report == set() with input as _labelled(10, {"app": "web"}, empty) with data.dslint.inventory as _zones
	anyway := object.union(_cpu, _spread({"whenUnsatisfiable": "ScheduleAnyway"}))
	rule.report == set() with input as _labelled(10, {"app": "web"}, anyway) with data.dslint.inventory as _zones
}

# Zone anti-affinity: one per zone the pods can use (a and b; c is tainted).
test_zone_anti_affinity if {
	spec := object.union(_cpu, {"affinity": _anti("topology.kubernetes.io/zone", {"matchLabels": {"app": "web"}})})
	r := rule.report with input as _labelled(3, {"app": "web"}, spec) with data.dslint.inventory as _zones
	r == {{
		"path": ["spec", "template", "spec", "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "topologyKey"],
		"message": "deployment \"web\" asks for 3 replicas, but required pod anti-affinity on topology.kubernetes.io/zone allows 2, one per value of topology.kubernetes.io/zone: the eligible nodes have a and b; the other replicas stay Pending",
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
