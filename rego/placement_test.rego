package dslint.lib.placement_test

import data.dslint.test.inventory as testinv

import data.dslint.lib.k8s
import data.dslint.lib.placement

_gpu_taint := {"key": "hw", "value": "gpu", "effect": "NoSchedule"}

_inventory := testinv.indexed({"per_node_keys": ["kubernetes.io/hostname"], "pools": [
	testinv.pool("general", {"pool": "general"}, [], ["g-1", "g-2", "g-3"]),
	testinv.pool("gpu", {"pool": "gpu", "gpus": "08"}, [_gpu_taint], ["gpu-1", "gpu-2"]),
	testinv.pool("control-plane", {"node-role.kubernetes.io/control-plane": ""}, [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}], ["cp-1"]),
]})

_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "app"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}},
}

_daemonset(spec) := object.union(_deployment(spec), {"kind": "DaemonSet"})

# _pod(w) is the one pod of the workload w.
_pod(w) := pod if [pod] := k8s.pods with input as w

test_unconstrained_deployment_fits_untainted_pool_only if {
	v := placement.pod_verdicts(_pod(_deployment({}))) with input as _deployment({}) with data.dslint.inventory as _inventory
	v[0] == {"pool": 0, "fits": true}
	v[1] == {"pool": 1, "reason": "taint", "detail": "untolerated taint hw=gpu:NoSchedule"}
	v[2].reason == "taint"
	placement.eligible == 3 with input as _deployment({}) with data.dslint.inventory as _inventory
}

test_selector_and_toleration_pin_to_gpu if {
	w := _deployment({"nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "hw", "operator": "Exists"}]})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	v[0] == {"pool": 0, "reason": "node-selector", "detail": "node selector pool=gpu: the node has pool=general"}
	v[1] == {"pool": 1, "fits": true}
	v[2] == {"pool": 2, "reason": "node-selector", "detail": "node selector pool=gpu: the node has no label pool"}
	placement.eligible == 2 with input as w with data.dslint.inventory as _inventory
}

test_numeric_affinity_with_leading_zero if {
	w := _deployment({
		"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gpus", "operator": "Gt", "values": ["4"]}]}]}}},
		"tolerations": [{"key": "hw", "value": "gpu", "effect": "NoSchedule"}],
	})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	v[0] == {"pool": 0, "reason": "node-affinity", "detail": "required node affinity: gpus Gt [\"4\"] does not hold"}
	v[1] == {"pool": 1, "fits": true}
}

test_hostname_selector_is_judged_per_node if {
	w := _deployment({"nodeSelector": {"kubernetes.io/hostname": "g-2"}})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	v[0].groups == [[[1], {"fits": true}]]
	v[0].others == {"reason": "node-selector", "detail": "node selector kubernetes.io/hostname=g-2: the node has another value or none"}
	placement.eligible == 1 with input as w with data.dslint.inventory as _inventory
}

test_hostname_not_in_pool if {
	w := _deployment({"nodeSelector": {"kubernetes.io/hostname": "elsewhere"}})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	v[0].groups == []
	v[0].others.reason == "node-selector"
	placement.eligible == 0 with input as w with data.dslint.inventory as _inventory
}

test_node_name_bypasses_noschedule_taints if {
	w := _deployment({"nodeName": "gpu-2"})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	v[1].groups == [[[1], {"fits": true}]]
	v[1].others == {"reason": "node-name", "detail": "the pod names node \"gpu-2\""}
	v[0] == {"pool": 0, "groups": [], "others": {"reason": "node-name", "detail": "the pod names node \"gpu-2\""}}
	placement.eligible == 1 with input as w with data.dslint.inventory as _inventory
}

test_match_fields_is_judged_per_node if {
	w := _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["g-1"]}]}]}}}})
	placement.eligible == 2 with input as w with data.dslint.inventory as _inventory
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	v[0].groups == [[[0], {"reason": "node-affinity", "detail": "required node affinity does not match"}]]
	v[0].others == {"fits": true}
}

test_exists_on_a_per_node_label_groups_every_value if {
	w := _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "Exists"}]}]}}}})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _inventory
	count(v[0].groups) == 3
	v[0].others.reason == "node-affinity"
	placement.eligible == 3 with input as w with data.dslint.inventory as _inventory
}

_zoned := testinv.indexed({"per_node_keys": ["topology.kubernetes.io/zone"], "pools": [{
	"name": "general",
	"node": testinv.node("", {"pool": "general"}, [], null),
	"nodes": [
		testinv.node("a-1", {"pool": "general", "topology.kubernetes.io/zone": "a"}, [], null),
		testinv.node("b-1", {"pool": "general", "topology.kubernetes.io/zone": "b"}, [], null),
		testinv.node("a-2", {"pool": "general", "topology.kubernetes.io/zone": "a"}, [], null),
		testinv.node("x-1", {"pool": "general"}, [], null),
	],
	"varying": ["topology.kubernetes.io/zone"],
	"everywhere": [],
	"names": {"a-1": 0, "b-1": 1, "a-2": 2, "x-1": 3},
	"by_label": {"topology.kubernetes.io/zone": {"a": [0, 2], "b": [1]}},
}]})

test_zone_groups_nodes_by_value if {
	w := _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a"]}]}]}}}})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _zoned
	v[0].groups == [[[0, 2], {"fits": true}]]
	v[0].others.reason == "node-affinity"
	placement.eligible == 2 with input as w with data.dslint.inventory as _zoned
	n := _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "NotIn", "values": ["a"]}]}]}}}})
	placement.eligible == 2 with input as n with data.dslint.inventory as _zoned
}

test_daemonset_needs_control_plane_toleration if {
	v := placement.pod_verdicts(_pod(_daemonset({}))) with input as _daemonset({}) with data.dslint.inventory as _inventory
	v[2] == {"pool": 2, "reason": "taint", "detail": "untolerated taint node-role.kubernetes.io/control-plane:NoSchedule"}
	w := _daemonset({"tolerations": [{"operator": "Exists"}]})
	placement.eligible == 6 with input as w with data.dslint.inventory as _inventory
}

_cordoned := testinv.indexed({"pools": [testinv.cordoned(testinv.pool("cordoned", {}, [], ["c-1"]))]})

test_unschedulable_blocks_pods_not_daemonsets if {
	v := placement.pod_verdicts(_pod(_deployment({}))) with input as _deployment({}) with data.dslint.inventory as _cordoned
	v[0].reason == "unschedulable"
	d := placement.pod_verdicts(_pod(_daemonset({}))) with input as _daemonset({}) with data.dslint.inventory as _cordoned
	d[0].fits
	t := _deployment({"tolerations": [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]})
	u := placement.pod_verdicts(_pod(t)) with input as t with data.dslint.inventory as _cordoned
	u[0].fits
}

_not_ready := testinv.indexed({"pools": [testinv.pool("not-ready", {}, [{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}], ["n-1"])]})

test_admission_adds_not_ready_toleration if {
	v := placement.pod_verdicts(_pod(_deployment({}))) with input as _deployment({}) with data.dslint.inventory as _not_ready
	v[0].fits

	# a toleration of the key with another value stops admission adding its own
	w := _deployment({"tolerations": [{"key": "node.kubernetes.io/not-ready", "value": "x", "effect": "NoExecute"}]})
	u := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _not_ready
	u[0].reason == "taint"
}

test_prefer_no_schedule_never_blocks if {
	inv := testinv.indexed({"pools": [testinv.pool("batch", {}, [{"key": "batch", "effect": "PreferNoSchedule"}], ["b-1"])]})
	v := placement.pod_verdicts(_pod(_deployment({}))) with input as _deployment({}) with data.dslint.inventory as inv
	v[0].fits
}

test_no_inventory_no_verdicts if {
	not placement.pod_verdicts(_pod(_deployment({}))) with input as _deployment({}) with data.dslint.inventory as {}
	not placement.has_inventory with data.dslint.inventory as {"pools": []}
}

test_blocking_reasons_count_nodes if {
	w := _deployment({"nodeSelector": {"pool": "tpu"}, "tolerations": [{"key": "hw", "operator": "Exists"}]})
	r := placement.pod_blocking_reasons(_pod(w)) with input as w with data.dslint.inventory as _inventory
	r == [{"reason": "node-selector", "nodes": 6, "text": "node selector pool=tpu blocks 6 nodes (general, gpu, control-plane)"}]
}

test_blocking_reasons_most_nodes_first if {
	w := _deployment({"nodeSelector": {"pool": "gpu"}})
	r := placement.pod_blocking_reasons(_pod(w)) with input as w with data.dslint.inventory as _inventory
	[x.text | some x in r] == [
		"node selector pool=gpu blocks 4 nodes (general, control-plane)",
		"untolerated taint hw=gpu:NoSchedule blocks 2 nodes (gpu)",
	]
}

test_nothing_to_place_for_non_workloads if {
	not placement.eligible with input as {"apiVersion": "v1", "kind": "ConfigMap"} with data.dslint.inventory as _inventory
}

test_eligible_nodes_compact if {
	w := _deployment({"nodeSelector": {"kubernetes.io/hostname": "g-2"}})
	placement.pod_eligible_nodes(_pod(w)) == {"pools": [], "nodes": ["0/1"]} with input as w with data.dslint.inventory as _inventory
	d := _daemonset({"tolerations": [{"operator": "Exists"}]})
	placement.pod_eligible_nodes(_pod(d)) == {"pools": ["0", "1", "2"], "nodes": []} with input as d with data.dslint.inventory as _inventory
	m := _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["g-1"]}]}]}}}})
	placement.pod_eligible_nodes(_pod(m)).nodes == ["0/1", "0/2"] with input as m with data.dslint.inventory as _inventory
}

test_key_is_what_placement_reads if {
	a := _deployment({"nodeSelector": {"pool": "gpu"}, "containers": [{"name": "a", "image": "a:1"}]})
	b := json.patch(_deployment({"nodeSelector": {"pool": "gpu"}}), [{"op": "replace", "path": "/metadata/name", "value": "other"}])
	ka := placement.pod_key(_pod(a)) with input as a with data.dslint.inventory as _inventory
	kb := placement.pod_key(_pod(b)) with input as b with data.dslint.inventory as _inventory
	ka == kb
	d := _daemonset({"nodeSelector": {"pool": "gpu"}})
	kd := placement.pod_key(_pod(d)) with input as d with data.dslint.inventory as _inventory
	kd != ka
}

test_node_verdict_on_one_node if {
	gpu := testinv.node("gpu-1", {"pool": "gpu"}, [_gpu_taint], null)
	spec := {"nodeSelector": {"pool": "gpu"}, "containers": [{"name": "c", "image": "i"}]}
	v := placement.node_verdict(_pod(_deployment(spec)), gpu) with input as _deployment(spec)
	v == {"reason": "taint", "detail": "untolerated taint hw=gpu:NoSchedule"}
	tolerating := object.union(spec, {"tolerations": [{"key": "hw", "operator": "Exists"}]})
	placement.node_verdict(_pod(_deployment(tolerating)), gpu) == {"fits": true} with input as _deployment(tolerating)
}

test_given_reads_back_as_computed if {
	every w in [
		_deployment({"nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "hw", "operator": "Exists"}]}),
		_deployment({"nodeSelector": {"pool": "tpu"}}),
		_deployment({"nodeName": "g-2"}),
		_daemonset({}),
	] {
		g := placement.given with input as w with data.dslint.inventory as _inventory
		given := object.union(w, {"__dslint": g})
		computed := _values with input as w with data.dslint.inventory as _inventory
		read_back := _values with input as given with data.dslint.inventory as _inventory
		computed == read_back
		count(computed) >= 4
	}
}

_values := object.union(
	{
		"eligible": placement.eligible,
		"eligible_in": placement.eligible_in,
		"eligible_nodes": placement.pod_eligible_nodes(k8s.pods[0]),
		"blocking_reasons": placement.pod_blocking_reasons(k8s.pods[0]),
	},
	_selected,
)

default _selected := {}

_selected := {"selected_pools": placement.selected_pools} if placement.selected_pools

# What dslint hands back is what the pod functions read: nothing is worked
# out again.
test_given_is_read_back if {
	w := object.union(_deployment({}), {"__dslint": [{"eligible": 42, "eligible_in": [[1, 42]], "eligible_nodes": {"pools": ["1"], "nodes": []}, "blocking_reasons": [], "selected_pools": [1]}]})
	pod := _pod(w)
	placement.pod_eligible(pod) == 42 with input as w with data.dslint.inventory as _inventory
	placement.pod_eligible_in(pod) == {1: 42} with input as w with data.dslint.inventory as _inventory
	placement.pod_eligible_nodes(pod) == {"pools": ["1"], "nodes": []} with input as w with data.dslint.inventory as _inventory
	placement.pod_blocking_reasons(pod) == [] with input as w with data.dslint.inventory as _inventory
	placement.pod_selected_pools(pod) == {1} with input as w with data.dslint.inventory as _inventory
}

# A custom resource with several pod templates: each pod is placed on its
# own, and listed in the order of k8s.pods with where it is written.
_ray := {
	"apiVersion": "ray.io/v1",
	"kind": "RayCluster",
	"metadata": {"name": "ray"},
	"spec": {
		"headGroupSpec": {"template": {"spec": {"containers": [{"name": "head", "image": "ray:2.9"}]}}},
		"workerGroupSpecs": [{"replicas": 2, "template": {"spec": {
			"containers": [{"name": "worker", "image": "ray:2.9"}],
			"nodeSelector": {"pool": "gpu"},
			"tolerations": [{"key": "hw", "operator": "Exists"}],
		}}}],
	},
}

test_each_pod_of_a_custom_resource_is_placed if {
	s := placement.summaries with input as _ray with data.dslint.inventory as _inventory
	[[x.where, x.summary.eligible] | some x in s] == [
		["spec.headGroupSpec.template.spec", 3],
		["spec.workerGroupSpecs[0].template.spec", 2],
	]
	keys := placement.keys with input as _ray with data.dslint.inventory as _inventory
	[where | some [where, _] in keys] == ["spec.headGroupSpec.template.spec", "spec.workerGroupSpecs[0].template.spec"]
	[_, worker] := k8s.pods with input as _ray
	v := placement.pod_verdicts(worker) with input as _ray with data.dslint.inventory as _inventory
	v[0] == {"pool": 0, "reason": "node-selector", "detail": "node selector pool=gpu: the node has pool=general"}
	v[1] == {"pool": 1, "fits": true}

	# the one-pod forms are for objects with one pod
	not placement.eligible with input as _ray with data.dslint.inventory as _inventory
}

test_given_of_each_pod_reads_back if {
	g := placement.given with input as _ray with data.dslint.inventory as _inventory
	[x.eligible | some x in g] == [3, 2]
	pods := k8s.pods with input as _ray
	handed := object.union(_ray, {"__dslint": [{"eligible": 7}, {"eligible": 8}]})
	[placement.pod_eligible(pod) | some pod in pods] == [7, 8] with input as handed with data.dslint.inventory as _inventory
}

# --- resources (NodeResourcesFit on an empty node, reference §10.3) ---------------

_sized := testinv.indexed({"per_node_keys": ["kubernetes.io/hostname"], "pools": [
	testinv.allocating(testinv.pool("small", {"pool": "small"}, [], ["s-1", "s-2"]), {"cpu": "1930m", "memory": "5Gi", "pods": "110"}),
	testinv.allocating(testinv.pool("gpu", {"pool": "gpu"}, [], ["gpu-1"]), {"cpu": "32", "memory": "120Gi", "nvidia.com/gpu": "8", "pods": "110"}),
	testinv.allocating(testinv.pool("podless", {"pool": "podless"}, [], ["p-1"]), {"cpu": "64"}),
	testinv.pool("unknown", {"pool": "unknown"}, [], ["u-1"]),
]})

_asking(requests, limits) := _deployment({"containers": [{"name": "c", "image": "i", "resources": {"requests": requests, "limits": limits}}]})

test_requests_within_allocatable_fit if {
	w := _asking({"cpu": "1", "memory": "1Gi"}, {})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _sized
	[object.get(x, "fits", false) | some x in v] == [true, true, false, true] # the podless pool takes no pod
}

test_requests_beyond_allocatable_are_blocked if {
	w := _asking({"cpu": "2"}, {"nvidia.com/gpu": 16})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _sized
	v[0] == {"pool": 0, "reason": "resources", "detail": "request cpu 2: the node allocates 1930m"}
	v[1] == {"pool": 1, "reason": "resources", "detail": "request nvidia.com/gpu 16: the node allocates 8"}
	v[3] == {"pool": 3, "fits": true} # says nothing of its resources: not judged
	placement.eligible == 1 with input as w with data.dslint.inventory as _sized
}

# A node whose allocatable names no pods takes no pod, with or without
# requests.
test_allocatable_without_pods_takes_no_pod if {
	w := _deployment({})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _sized
	v[2] == {"pool": 2, "reason": "resources", "detail": "room for a pod: the node's allocatable names no pods"}
	placement.eligible == 4 with input as w with data.dslint.inventory as _sized
}

# Taints and cordoning come first; resources are judged on the nodes a pod
# names too.
test_resources_on_named_nodes if {
	w := object.union(_asking({"memory": "8Gi"}, {}), {"spec": {"template": {"spec": {"nodeName": "s-2"}}}})
	v := placement.pod_verdicts(_pod(w)) with input as w with data.dslint.inventory as _sized
	v[0].groups == [[[1], {"reason": "resources", "detail": "request memory 8Gi: the node allocates 5Gi"}]]
	placement.eligible == 0 with input as w with data.dslint.inventory as _sized
}

# A DaemonSet's DESIRED counts the nodes too small for its pods, as the
# controller does (reference §13): resources do not take them away.
test_daemonset_desired_ignores_resources if {
	w := object.union(_asking({"cpu": "8"}, {}), {"kind": "DaemonSet"})
	placement.eligible == 5 with input as w with data.dslint.inventory as _sized
}

# A node that leaves cpu, memory, ephemeral-storage or hugepages out of its
# allocatable (kubectl never does; a hand-written inventory may) is not
# judged on them; an extended resource it does not name, it has none of.
test_unnamed_native_resources_are_not_judged if {
	inv := testinv.indexed({"pools": [testinv.allocating(testinv.pool("gpu", {"pool": "gpu"}, [], ["gpu-1"]), {"nvidia.com/gpu": "1", "pods": "110"})]})
	w := _asking({"cpu": "64", "memory": "1Ti", "ephemeral-storage": "1Ti", "hugepages-2Mi": "1Gi"}, {})
	placement.eligible == 1 with input as w with data.dslint.inventory as inv
	vendor := _asking({}, {"example.com/foo": 1})
	v := placement.pod_verdicts(_pod(vendor)) with input as vendor with data.dslint.inventory as inv
	v == [{"pool": 0, "reason": "resources", "detail": "request example.com/foo 1: the node allocates 0"}]
}

# A pool where only some nodes carry the zone label: a DoNotSchedule spread
# on the zone, or a required pod affinity on it, needs the label.
_zoned_inventory := testinv.indexed({"per_node_keys": ["kubernetes.io/hostname", "topology.kubernetes.io/zone"], "pools": [object.union(
	testinv.pool("general", {"pool": "general"}, [], ["g-1", "g-2", "g-3"]),
	{
		"nodes": [
			testinv.node("g-1", {"pool": "general", "kubernetes.io/hostname": "g-1", "topology.kubernetes.io/zone": "a"}, [], null),
			testinv.node("g-2", {"pool": "general", "kubernetes.io/hostname": "g-2", "topology.kubernetes.io/zone": "b"}, [], null),
			testinv.node("g-3", {"pool": "general", "kubernetes.io/hostname": "g-3"}, [], null),
		],
		"varying": ["kubernetes.io/hostname", "topology.kubernetes.io/zone"],
		"everywhere": ["kubernetes.io/hostname"],
		"by_label": {
			"kubernetes.io/hostname": {"g-1": [0], "g-2": [1], "g-3": [2]},
			"topology.kubernetes.io/zone": {"a": [0], "b": [1]},
		},
	},
)]})

test_spread_and_pod_affinity_need_the_topology_key if {
	spread := _deployment({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {}}]})
	placement.eligible == 2 with input as spread with data.dslint.inventory as _zoned_inventory
	placement.node_verdict(_pod(spread), _zoned_inventory.pools[0].nodes[2]) == {"reason": "spread", "detail": "topology spread on topology.kubernetes.io/zone (DoNotSchedule): the node has no label topology.kubernetes.io/zone"} with input as spread with data.dslint.inventory as _zoned_inventory

	affinity := _deployment({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {}, "topologyKey": "topology.kubernetes.io/zone"}]}}})
	placement.eligible == 2 with input as affinity with data.dslint.inventory as _zoned_inventory

	# ScheduleAnyway scores only; a rack label no node has blocks every node.
	anyway := _deployment({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway"}]})
	placement.eligible == 3 with input as anyway with data.dslint.inventory as _zoned_inventory
	rack := _deployment({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "DoNotSchedule"}]})
	placement.eligible == 0 with input as rack with data.dslint.inventory as _zoned_inventory
	[r] := placement.pod_blocking_reasons(_pod(rack)) with input as rack with data.dslint.inventory as _zoned_inventory
	r.reason == "spread"
}

# A DaemonSet's DESIRED does not look at topology keys (reference §13), and
# a pod that names its node bypasses the scheduler.
test_topology_keys_not_for_daemonsets_or_named_nodes if {
	spec := {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "DoNotSchedule"}]}
	placement.eligible == 3 with input as _daemonset(spec) with data.dslint.inventory as _zoned_inventory
	named := _deployment(object.union(spec, {"nodeName": "g-3"}))
	placement.eligible == 1 with input as named with data.dslint.inventory as _zoned_inventory
}

# The replicas an empty cluster holds (capacity.rego), with the zone pool:
# anti-affinity on the zone allows one per zone and any number on g-3,
# which has none.
test_capacity_per_zone if {
	w := object.union(
		_deployment({"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
			"labelSelector": {"matchLabels": {"app": "a"}},
			"topologyKey": "topology.kubernetes.io/zone",
		}]}}}),
		{"spec": {"replicas": 5, "template": {"metadata": {"labels": {"app": "a"}}}}},
	)
	c := placement.pod_placement(_pod(w)) with input as w with data.dslint.inventory as _zoned_inventory
	c == {"replicas": 5, "placed": 5, "exact": true, "blocked_by": "none"}

	# Hostname anti-affinity as well caps g-3 at one.
	both := json.patch(w, [{"op": "add", "path": "/spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/-", "value": {
		"labelSelector": {"matchLabels": {"app": "a"}},
		"topologyKey": "kubernetes.io/hostname",
	}}])
	d := placement.pod_placement(_pod(both)) with input as both with data.dslint.inventory as _zoned_inventory
	d.placed == 3
	d.blocked_by == "anti-affinity"
}

test_replicas_wanted if {
	job := {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"parallelism": 4, "completions": 2, "template": {"spec": {"containers": [{"name": "c", "image": "i"}]}}}}
	placement.pod_replicas(_pod(job)) == 2 with input as job with data.dslint.inventory as _zoned_inventory
	placement.pod_replicas(_pod(_deployment({}))) == 1 with input as _deployment({}) with data.dslint.inventory as _zoned_inventory
	placement.pod_replicas(_pod(_daemonset({}))) == 3 with input as _daemonset({}) with data.dslint.inventory as _zoned_inventory
}

# A topology key matters to where one pod may land only by whether the node
# has it: a pool whose every node has the key is judged as a whole, and one
# where some lack it in two groups, not one per value.
test_topology_keys_judge_pools_by_presence if {
	hostname := _deployment({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {}}]})
	placement.pod_verdicts(_pod(hostname)) == [{"pool": 0, "fits": true}] with input as hostname with data.dslint.inventory as _zoned_inventory

	zone := _deployment({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {}}]})
	[v] := placement.pod_verdicts(_pod(zone)) with input as zone with data.dslint.inventory as _zoned_inventory
	v.groups == [[[0, 1], {"fits": true}]]
	v.others.reason == "spread"
}

# With a domain per node (unique_keys), capacity counts nodes without
# naming them, and comes to what naming each domain does.
test_capacity_by_node_domains_as_by_named_domains if {
	every w in [
		_replicated(5, {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [_term("kubernetes.io/hostname")]}}}),
		_replicated(5, {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "a"}}, "minDomains": 4}]}),
		_replicated(4, {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [_term("kubernetes.io/hostname")]}, "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [_term("kubernetes.io/hostname")]}}}),
	] {
		by_nodes := placement.pod_placement(_pod(w)) with input as w with data.dslint.inventory as _zoned_inventory
		by_names := placement.pod_placement(_pod(w)) with input as w with data.dslint.inventory as object.union(_zoned_inventory, {"unique_keys": []})
		by_nodes == by_names
		by_nodes.placed < 5
	}
}

# Two nodes that share a hostname label are one domain of it.
test_shared_hostname_is_one_domain if {
	inv := testinv.indexed({"unique_keys": [], "pools": [object.union(
		object.remove(testinv.pool("general", {"pool": "general"}, [], ["n-1", "n-2"]), ["by_label", "names"]),
		{
			"nodes": [
				testinv.node("n-1", {"pool": "general", "kubernetes.io/hostname": "same"}, [], null),
				testinv.node("n-2", {"pool": "general", "kubernetes.io/hostname": "same"}, [], null),
			],
			"by_label": {"kubernetes.io/hostname": {"same": [0, 1]}},
			"names": {"n-1": 0, "n-2": 1},
		},
	)]})
	w := _replicated(3, {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [_term("kubernetes.io/hostname")]}}})
	c := placement.pod_placement(_pod(w)) with input as w with data.dslint.inventory as inv
	c.placed == 1
	c.blocked_by == "anti-affinity"
}

_replicated(n, spec) := object.union(_deployment(spec), {"spec": {"replicas": n, "template": {"metadata": {"labels": {"app": "a"}}}}})

_term(key) := {"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": key}
