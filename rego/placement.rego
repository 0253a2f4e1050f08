# METADATA
# description: |
#   Placement: which nodes of the inventory the pods of each pod template of
#   the workload in input (k8s.pods) can land on, with the filters the
#   scheduler and the DaemonSet controller apply (reference §2-§5): nodeName;
#   nodeSelector AND required node affinity (nodeaffinity.pod_matches_node);
#   NoSchedule and NoExecute taints, which must be tolerated
#   (PreferNoSchedule never blocks); spec.unschedulable for ordinary pods.
#   DaemonSet pods carry the controller's automatic tolerations and ignore
#   spec.unschedulable. A pod that names its node (nodeName) bypasses the
#   scheduler: the kubelet checks only the node affinity and NoExecute
#   taints. Ordinary pods carry the not-ready and unreachable NoExecute
#   tolerations the DefaultTolerationSeconds admission plugin adds.
#   NodeResourcesFit (§10.3) on an empty node: room for a pod, then what the
#   pod requests (resources.requests) against the node's allocatable (a
#   node that gives none is not judged on resources). The topology keys of
#   required pod affinity and DoNotSchedule spread (§11-§12): a node without
#   one takes no such pod. How many replicas land, by pod (anti-)affinity
#   and spread among them, is capacity (rego/capacity.rego). Volumes, DRA
#   and the pods already on the nodes are not modelled.
#
#   dslint puts the inventory at data.dslint.inventory: {"pools": [pool]},
#   pool = {"name", "node": a Node object with the labels, taints and
#   unschedulable every node of the pool shares, "nodes": [Node objects with
#   their own labels too], "varying": [label keys whose values differ between
#   the pool's nodes], "everywhere": [the varying keys every node has]}. A
#   pod whose constraints name none of the varying keys, no node name and no
#   matchFields fares alike on every node of a pool, so it is judged once per
#   pool; a topology key only matters by whether a node has it.
package dslint.lib.placement

import data.dslint.lib.k8s
import data.dslint.lib.nodeaffinity
import data.dslint.lib.nodes
import data.dslint.lib.podaffinity
import data.dslint.lib.quantity
import data.dslint.lib.resources
import data.dslint.lib.tolerations

# has_inventory is true when the run has nodes to place workloads on.
has_inventory if data.dslint.inventory.pools[0]

pools := data.dslint.inventory.pools

# --- each pod ---------------------------------------------------------------------

# Placement is worked out for each pod of the object in input (an item of
# k8s.pods): a workload kind has one, a custom resource may have several (a
# RayCluster's head and each worker group), each placed on its own. The
# pod_ functions below take such a pod.

# pod_key(pod) is all placement reads of the pod: its node constraints and
# tolerations (_spec), whether a DaemonSet runs it, the nodes too small for
# it (_short) and the topology keys it needs. Placement is a function of
# the key and the inventory, so dslint places pods with equal keys once.
pod_key(pod) := {
	"spec": _spec(pod.spec),
	"daemonset": pod.daemonset,
	"short": _short(pod),
	"topology": _topology(pod),
	"domains": _has_pod_terms(pod.spec),
} if has_inventory

# _has_pod_terms(spec): the pod has required pod (anti-)affinity or DoNotSchedule
# spread, whose capacity counts replicas by topology domain (pod_verdicts).
_has_pod_terms(spec) if {
	count(podaffinity.affinity_terms(spec)) + count(podaffinity.anti_affinity_terms(spec)) > 0
} else if {
	count(podaffinity.spread_constraints(spec)) > 0
} else := false

# pod_verdicts(pod) holds, for each pool of the inventory (by index), where
# the pod can go: {"pool": i, "fits": true} or {"pool": i, "reason": r,
# "detail": d} for the pool as a whole; or, when the pod may fare
# differently on the pool's nodes, {"pool": i, "groups": [[node indexes,
# verdict], ...], "others": the verdict on the nodes in no group}.
pod_verdicts(pod) := verdicts if {
	verdicts := _given(pod).verdicts
} else := _verdicts(_placed(pod)) if has_inventory

# pod_summary(pod) is where the pod can land, in few words: a verdict per
# label set (label_verdicts, absent when every label set fits) and per taint
# set of the inventory, which hold for a pool as a whole as _pool_wide
# combines them; the pools whose nodes fare apart, as in pod_verdicts
# (apart); and the number of eligible nodes.
pod_summary(pod) := _summary(_placed(pod)) if has_inventory

# pod_eligible(pod) is the number of nodes the pod can land on (for a
# DaemonSet's pod: its DESIRED count).
pod_eligible(pod) := n if {
	n := _given(pod).eligible
} else := _eligible(_placed(pod)) if has_inventory

# pod_eligible_in(pod)[i] is the number of nodes of pool i the pod can land
# on, for the pools where there are some.
pod_eligible_in(pod) := {p: n | some [p, n] in _given(pod).eligible_in} if {
	_ = _given(pod).eligible_in
} else := _eligible_in(_placed(pod))

# pod_eligible_nodes(pod) are the nodes the pod can land on, compactly: whole
# pools by index as strings, and single nodes as "pool/node" index strings
# for the pools whose nodes fare apart.
pod_eligible_nodes(pod) := nodes if {
	nodes := _given(pod).eligible_nodes
} else := _eligible_nodes(_placed(pod))

# pod_blocking_reasons(pod) are the reasons nodes turn the pod away, the one
# that blocks most nodes first: {"reason", "nodes": count, "text"}.
pod_blocking_reasons(pod) := reasons if {
	reasons := _given(pod).blocking_reasons
} else := _reasons(_blocks(_placed(pod)))

# pod_selected_pools(pod) are the pools whose nodes the pod's node
# constraint (nodeSelector and required affinity, taints aside) admits, for
# a pod that is judged alike on every node of a pool; undefined for the
# others.
pod_selected_pools(pod) := {i | some i in _given(pod).selected_pools} if {
	_ = _given(pod).selected_pools
} else := _selected_pools(p) if {
	has_inventory
	p := _placed(pod)
	not _may_treat_nodes_apart(p)
}

# pod_room_in(pod) is, for each pool where the pod can land, how many of
# its pods the pool holds on an empty cluster: {pool index: {"nodes": the
# eligible nodes, "each": pods per node, "by": what limits them in words,
# "resource": the resource that limits them, "pods" or "ports"}}. A node
# holds as many as its allocatable has room for (pods, then each requested
# resource, reference §10.3), and one when the pods bind host ports (with
# hostNetwork every containerPort is one, §10.2). Undefined when some pool
# where the pod can land says nothing of its resources and no host port
# limits the pods: the room is then unknown.
pod_room_in(pod) := {i: room |
	some i, n in pod_eligible_in(pod)
	room := object.union({"nodes": n}, _room(pod, _set_units(_taint_set_of(i))))
} if {
	every i, _ in pod_eligible_in(pod) {
		_judged(pod, _taint_set_of(i))
	}
}

# _taint_set_of(i) is the taint set of pool i: its taints, cordoning and
# allocatable.
_taint_set_of(i) := data.dslint.inventory.taint_sets[data.dslint.inventory.pools[i].taint_set]

# pod_capacity(pod) is how many pods of the pod's template the inventory
# holds on an empty cluster: the sum of pod_room_in.
pod_capacity(pod) := sum([n |
	some r in pod_room_in(pod)
	n := r.nodes * r.each
])

_judged(_, set) if is_object(set.allocatable)

_judged(pod, _) if _binds_host_ports(pod.spec)

# _room is how many pods a node holds, and why: the fewest of what its
# allocatable has room for and, with host ports, one.
_room(pod, allocated) := object.union(object.remove(o, ["request"]), {"by": _room_by(o, allocated)}) if {
	options := _room_options(pod, allocated)
	least := min([o.each | some o in options])
	o := [o | some o in options; o.each == least][0]
}

# _room_each(pod, allocated) is _room's count alone, without the words.
_room_each(pod, allocated) := min([o.each | some o in _room_options(pod, allocated)])

# _room_options are the limits on how many pods a node holds: its pods,
# then each resource the pod requests, then host ports;
# {"each", "resource", "request" (for a resource)}.
_room_options(pod, allocated) := array.concat(
	array.concat(_pods_option(allocated), [{"each": floor(object.get(allocated, name, 0) / n), "resource": name, "request": n} |
		some name, n in resources.requests(pod.spec)
		n > 0
		_judged_resource(allocated, name)
	]),
	_ports_option(pod.spec),
)

_pods_option(allocated) := [{"each": allocated.pods, "resource": "pods"}] if {
	allocated.pods
} else := []

_ports_option(spec) := [{"each": 1, "resource": "ports"}] if {
	_binds_host_ports(spec)
} else := []

_room_by(o, allocated) := sprintf("%d pods", [allocated.pods]) if {
	o.resource == "pods"
} else := "host ports" if {
	o.resource == "ports"
} else := sprintf("%s %s of %s", [o.resource, _show(o.resource, o.request), _show(o.resource, object.get(allocated, o.resource, 0))])

_binds_host_ports(spec) if {
	some field in ["containers", "initContainers"]
	some c in _list(object.get(spec, field, []))
	some port in _list(object.get(c, "ports", []))
	_host_port(spec, port) > 0
}

# host_port_path(spec) is where the pod binds its first host port: the
# hostPort, or hostNetwork, which makes every containerPort one.
host_port_path(spec) := ["hostNetwork"] if {
	object.get(spec, "hostNetwork", false) == true
} else := [path |
	some field in ["containers", "initContainers"]
	some i, c in _list(object.get(spec, field, []))
	some j, port in _list(object.get(c, "ports", []))
	_host_port(spec, port) > 0
	path := [field, i, "ports", j, "hostPort"]
][0]

_host_port(spec, port) := port.hostPort if {
	is_number(port.hostPort)
	port.hostPort > 0
} else := port.containerPort if {
	object.get(spec, "hostNetwork", false) == true
	is_number(port.containerPort)
} else := 0

# pod_pending_in(pod) are the pools whose nodes count in a DaemonSet pod's
# DESIRED but are too small for it (reference §13): {pool index: what the
# nodes lack first, {"resource", "text"}}. The controller creates a pod for each such node, pinned
# to it, and the scheduler never places it: it stays Pending. Empty for
# other pods, whose placement already leaves such nodes out.
pod_pending_in(pod) := {i: short[key] |
	pod.daemonset
	short := _shortfalls_by_allocatable(resources.requests(pod.spec))
	some i, _ in pod_eligible_in(pod)
	key := json.marshal(_taint_set_of(i).allocatable)
}

# node_verdict(pod, node) is {"fits": true} when the pod can land on the
# Node object, otherwise the first filter that blocks it, in the order
# node-name, node-selector, node-affinity, taint, unschedulable, resources:
# {"reason": r, "detail": d}. Resources are judged for a node that allocates
# as some node of the inventory does.
node_verdict(pod, node) := _verdict(_placed(pod), node)

# pod_given(pod) is what rules read of the pod's placement, worked out once
# per placement key: dslint hands it to the rules of every workload with that
# key (given, as input.__dslint), and the pod_ functions above read it from
# there.
pod_given(pod) := object.union(
	{
		"eligible": _eligible(p),
		"eligible_in": [[i, n] | some i, n in _eligible_in(p)],
		"eligible_nodes": _eligible_nodes(p),
	},
	object.union_n([_given_selected(p), _given_reasons(p), _given_verdicts(pod, p)]),
) if {
	has_inventory
	p := _placed(pod)
}

_given_reasons(p) := {"blocking_reasons": _reasons(_blocks(p))} if {
	_eligible(p) == 0
} else := {}

_given_verdicts(pod, p) := {"verdicts": _verdicts(p)} if {
	_has_pod_terms(pod.spec)
} else := {}

_given_selected(p) := {"selected_pools": sort(_selected_pools(p))} if {
	not _may_treat_nodes_apart(p)
} else := {}

# _given(pod) is what dslint handed back for the pod: input.__dslint lists
# it for each pod, in the order of k8s.pods.
_given(pod) := input.__dslint[i] if {
	some i, p in k8s.pods
	p.path == pod.path
}

# --- every pod of the object in input, for dslint ------------------------------------

# keys lists where each pod of the workload in input is written
# (k8s.where) and its key: objects with equal keys place alike.
keys := [[k8s.where(pod), pod_key(pod)] | some pod in k8s.pods] if {
	k8s.is_workload
	has_inventory
}

# summaries lists, for each pod of the workload in input, where it is
# written, its summary (dslint schedule) and pod_given, which dslint keeps
# for the workloads with the same keys (given), so that one evaluation
# serves both.
summaries := [{"where": k8s.where(pod), "summary": pod_summary(pod), "given": pod_given(pod)} | some pod in k8s.pods] if {
	k8s.is_workload
	has_inventory
}

# given lists pod_given for each pod of the workload in input: dslint hands
# it to the rules of every workload with the same keys as input.__dslint.
given := [pod_given(pod) | some pod in k8s.pods] if {
	k8s.is_workload
	has_inventory
}

# --- the one pod of an object, for policies ----------------------------------------

# The placement of an object with one pod, as policies written before the
# pods of custom resources were placed read it (like k8s.pod_spec): rules
# call the pod_ functions, which place every pod.

# eligible is pod_eligible for the object's one pod.
eligible := pod_eligible(pod) if [pod] := k8s.pods

# eligible_in is pod_eligible_in for the object's one pod.
eligible_in := pod_eligible_in(pod) if [pod] := k8s.pods

# selected_pools is pod_selected_pools for the object's one pod.
selected_pools := pod_selected_pools(pod) if [pod] := k8s.pods

# --- the inventory ---------------------------------------------------------------

# tolerated_taints(t) are the taints of the inventory the toleration t
# tolerates, as {taint index: taint}.
tolerated_taints(t) := {k: taint |
	some k, taint in data.dslint.inventory.taints
	tolerations.tolerates(t, taint)
}

# pools_with_taint(k) are the pools whose nodes carry inventory taint k.
pools_with_taint(k) := {i |
	some ts, set in data.dslint.inventory.taint_sets
	k in set.taints
	some i in data.dslint.inventory.pools_by_taint_set[ts]
}

# pool_names(is) lists the names of pools, for messages.
pool_names(is) := concat(", ", [pools[i].name | some i in sort(is)])

# --- what placement reads of a pod ----------------------------------------------------

# _spec(spec) is what placement reads of a pod spec.
_spec(spec) := {
	"nodeName": object.get(spec, "nodeName", null),
	"nodeSelector": object.get(spec, "nodeSelector", null),
	"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": object.get(
		spec,
		["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"],
		null,
	)}},
	"tolerations": object.get(spec, "tolerations", null),
	"hostNetwork": object.get(spec, "hostNetwork", null),
}

# _short(pod) says, for each distinct allocatable of the inventory (by its
# JSON) that is too small for the pod, what it lacks first (_shortfalls):
# what placement reads of the pod's requests. Pods that ask for different
# amounts but fall short on the same nodes, or on none (most), place alike.
# A DaemonSet's DESIRED counts the nodes too small for its pods too (the
# controller does not look at resources, reference §13): none are short.
_short(pod) := {} if pod.daemonset

_short(pod) := _shortfalls_by_allocatable(resources.requests(pod.spec)) if not pod.daemonset

# _shortfalls_by_allocatable(requests) is, for each distinct allocatable of
# the inventory (by its JSON) that is too small for a pod requesting
# requests, what it lacks first.
_shortfalls_by_allocatable(requests) := {key: short[0] |
	some key, allocated in _allocatables
	short := _shortfalls(requests, allocated)
	count(short) > 0
}

# _allocatables are the distinct allocatables of the taint sets, by their
# JSON, in units (many taint sets allocate alike): dslint works them out
# once per run (data.dslint.inventory.allocatables).
_allocatables := data.dslint.inventory.allocatables

_allocatables := {json.marshal(set.allocatable): _set_units(set) |
	some set in data.dslint.inventory.taint_sets
	is_object(set.allocatable)
} if not data.dslint.inventory.allocatables

# allocated_units(allocatable) is what a node allocates in the units of
# resources.requests: cpu in millicores, the rest in units; what is no
# quantity is left out. dslint works it out once per run for each taint set
# of the inventory (its "allocated"), rather than for every workload.
allocated_units(allocatable) := {name: n |
	some name, q in allocatable
	n := _units(name, q)
}

_set_units(set) := set.allocated

_set_units(set) := allocated_units(set.allocatable) if not set.allocated

_placed(pod) := _prepared(_spec(pod.spec), pod.daemonset, _short(pod), _topology(pod))

# _topology(pod) are the label keys a node needs for the pod
# (podaffinity.topology_keys): the scheduler's pod affinity and topology
# spread filters ask for them. A pod that names its node bypasses the
# scheduler; a DaemonSet's DESIRED counts nodes without them too (the
# controller does not look, reference §13).
_topology(pod) := {"affinity": [], "spread": []} if {
	pod.daemonset
} else := {"affinity": [], "spread": []} if {
	nodes.node_name(pod.spec) != ""
} else := podaffinity.topology_keys(pod.spec)

_prepared(pod_spec, daemonset, short, topology) := {
	"pod_spec": pod_spec,
	"node_name": nodes.node_name(pod_spec),
	"required": nodeaffinity.required_node_affinity(pod_spec),
	"tolerations": _pod_tolerations(pod_spec, daemonset),
	"effects": _blocking_effects(pod_spec, daemonset),
	"daemonset": daemonset,
	"match_fields": _uses_match_fields(pod_spec),
	"short": short,
	"topology": topology,
}

_uses_match_fields(pod_spec) if {
	some term in nodes.required_terms(pod_spec)
	count(_list(term.matchFields)) > 0
} else := false

# _pod_tolerations(pod_spec, daemonset) are the tolerations the pods carry
# when they are placed: a DaemonSet's with the controller's own, an ordinary
# pod's with the not-ready and unreachable ones admission adds unless the
# pod has one for that key (or every key) and NoExecute (or every effect).
_pod_tolerations(pod_spec, true) := tolerations.daemonset_pod_tolerations(pod_spec)

_pod_tolerations(pod_spec, false) := array.concat(own, [d |
	some d in _admission_defaults
	not _has_default_for(own, d.key)
]) if {
	own := _list(pod_spec.tolerations)
} else := _admission_defaults

_admission_defaults := [
	{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
	{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
]

_has_default_for(own, key) if {
	some t in own
	tolerations.field(t, "key") in {key, ""}
	tolerations.field(t, "effect") in {"NoExecute", ""}
}

# A pod that names its node is admitted by the kubelet, which evicts on
# NoExecute taints only.
_blocking_effects(pod_spec, daemonset) := {"NoExecute"} if {
	nodes.node_name(pod_spec) != ""
	not daemonset
} else := {"NoSchedule", "NoExecute"}

# --- verdicts ---------------------------------------------------------------------

_verdicts(p) := [verdict |
	some i, pool in pools
	verdict := _pool_verdict(p, i, pool)
] if {
	_may_treat_nodes_apart(p)
} else := [object.union({"pool": i}, _pool_wide(p, pool)) | some i, pool in pools]

_pool_verdict(p, i, pool) := {"pool": i, "groups": _groups(p, pool), "others": _unnamed_verdict(p, pool, {})} if {
	_node_specific(p, pool)
} else := object.union({"pool": i}, _pool_wide(p, pool))

# _pool_wide is the verdict on every node of a pool for a pod that names no
# node: the first of the label verdict (nodeSelector, then required
# affinity) and the taint verdict (taints, then cordoning) that blocks.
# Pools share label sets and taint sets, so each set is judged once per pod.
_pool_wide(p, pool) := v if {
	v := _label_verdicts(p)[pool.label_set]
	not v.fits
} else := v if {
	v := _topology_verdict(p, pool.node.metadata.labels, pool.everywhere)
} else := _taint_verdicts(p)[pool.taint_set]

_label_verdicts(p) := [_label_verdict(p, labels, "") | some labels in data.dslint.inventory.label_sets] if {
	not _unconstrained(p)
}

# A pod without nodeSelector or required affinity fits every label set:
# _label_verdicts is then undefined, which _pool_wide reads as fitting.
_unconstrained(p) if {
	count(p.required.selector) == 0
	not p.required.terms
}

# _taint_verdicts judge each taint set: the first of its taints the pod does
# not tolerate (each distinct taint of the inventory judged once), else
# cordoning.
_taint_verdicts(p) := [_taint_set_verdict(p, set, untolerated) | some set in data.dslint.inventory.taint_sets] if {
	untolerated := _untolerated(p)
}

_untolerated(p) := {i |
	some i, taint in data.dslint.inventory.taints
	taint.effect in p.effects
	not tolerations.tolerated(p.tolerations, taint)
}

_taint_set_verdict(p, set, untolerated) := {"reason": "taint", "detail": sprintf("untolerated taint %s", [tolerations.string_of_taint(data.dslint.inventory.taints[blocking[0]])])} if {
	blocking := [i | some i in set.taints; i in untolerated]
	count(blocking) > 0
} else := _cordon_verdict(p, set, object.get(set, "allocatable", null))

_cordon_verdict(p, spec, allocatable) := {"reason": "unschedulable", "detail": "the node is cordoned (spec.unschedulable)"} if {
	_cordoned_for(p, spec)
} else := _resource_verdict(p, allocatable)

# _resource_verdict is NodeResourcesFit on a node that allocates
# allocatable (reference §10.3): room for a pod first, then each resource
# the pod requests (p.short); a node that says nothing of its resources is
# not judged.
_resource_verdict(p, allocatable) := {"reason": "resources", "detail": detail} if {
	is_object(allocatable)
	detail := p.short[json.marshal(allocatable)].text
} else := {"fits": true}

# _shortfalls say what a node that allocates `allocated` (units) lacks for
# a pod that requests `requests`: room for a pod at all, then each resource
# it requests more of than the node allocates (cpu, memory,
# ephemeral-storage, then the others by name), each as {"resource", "text"}.
_shortfalls(requests, allocated) := array.concat(_no_room(allocated), [{"resource": name, "text": sprintf("request %s %s: the node allocates %s", [name, _show(name, n), _show(name, a)])} |
	some name in _in_order(requests)
	n := requests[name]
	_judged_resource(allocated, name)
	a := object.get(allocated, name, 0)
	n > a
])

# A node whose allocatable names no pods takes none (reference §10.3).
_no_room(allocated) := [{"resource": "pods", "text": "room for a pod: the node's allocatable names no pods"}] if {
	not allocated.pods
} else := [{"resource": "pods", "text": "room for a pod: the node allocates 0 pods"}] if {
	allocated.pods < 1
} else := []

# _judged_resource holds for the resources a node's allocatable is judged
# on: every one it names, and the extended ones it does not (a node without
# GPUs has none). kubectl names cpu, memory, ephemeral-storage and hugepages
# on every node; an inventory written by hand, or a declared pool, that
# leaves one out says nothing of it, and it is not judged (where the
# scheduler would read 0).
_judged_resource(allocated, name) if allocated[name]

_judged_resource(allocated, name) if {
	not allocated[name]
	not name in {"cpu", "memory", "ephemeral-storage"}
	not startswith(name, "hugepages-")
}

_units("cpu", q) := quantity.milli(q)

_units(name, q) := quantity.value(q) if name != "cpu"

_native := ["cpu", "memory", "ephemeral-storage"]

_in_order(requests) := array.concat([name | some name in _native; requests[name]], sort([name |
	some name, _ in requests
	not name in _native
]))

# _show writes an amount for messages: cpu in cores or millicores, bytes
# with the largest binary suffix that divides them, counts as they are.
_show("cpu", n) := format_int(n / 1000, 10) if {
	n % 1000 == 0
} else := sprintf("%sm", [format_int(n, 10)])

_show(name, n) := _bytes(n) if {
	name != "cpu"
	_in_bytes(name)
}

_show(name, n) := format_int(n, 10) if {
	name != "cpu"
	not _in_bytes(name)
}

_in_bytes(name) if name in {"memory", "ephemeral-storage"}

_in_bytes(name) if startswith(name, "hugepages-")

_bytes(n) := [sprintf("%s%s", [format_int(n / unit, 10), suffix]) |
	some [unit, suffix] in [[1099511627776, "Ti"], [1073741824, "Gi"], [1048576, "Mi"], [1024, "Ki"]]
	n % unit == 0
][0] if {
	n > 0
} else := format_int(n, 10)

# _may_treat_nodes_apart is true when some pool's nodes may fare differently.
_may_treat_nodes_apart(p) if count(_mentioned_names(p)) > 0

_may_treat_nodes_apart(p) if p.match_fields

_may_treat_nodes_apart(p) if count(_per_node_keys(p)) > 0

_may_treat_nodes_apart(p) if count(_topology_keys(p)) > 0

# _node_specific is true when the pod may fare differently on the nodes of
# the pool: it names a node (nodeName, matchFields), or constrains a label
# whose value differs between the pool's nodes (hostname, zone).
_node_specific(p, _) if count(_mentioned_names(p)) > 0

_node_specific(p, _) if p.match_fields

_node_specific(p, pool) if {
	some key in _per_node_keys(p)
	key in pool.varying
}

_node_specific(p, pool) if count(_partial_keys(p, pool)) > 0

# _per_node_keys are the per-node labels the pod constrains: most pods have
# none, and then no pool is judged node by node for them.
_per_node_keys(p) := {key | some key in _constrained_keys(p); key in data.dslint.inventory.per_node_keys}

_varying_keys(p, pool) := {key | some key in _per_node_keys(p); key in pool.varying} | _partial_keys(p, pool)

# _partial_keys are the topology keys the pod needs that some nodes of the
# pool have and others lack: the pool's nodes fare apart by them. (A
# topology key's value does not matter to where one pod may land, only
# whether the node has the key.)
_partial_keys(p, pool) := {key |
	some key in _topology_keys(p)
	key in pool.varying
	not key in pool.everywhere
}

_constrained_keys(p) := {key | some key, _ in nodes.node_selector(p.pod_spec)} | {req.key | some req in _requirements(p)}

_topology_keys(p) := {key | some key in p.topology.affinity} | {key | some key in p.topology.spread}

_requirements(p) := {req |
	some term in nodes.required_terms(p.pod_spec)
	some req in _list(term.matchExpressions)
}

# _groups are the pool's nodes the pod may treat apart, in groups that fare
# alike, each judged on its first node: every node it names, alone; with one
# constrained per-node label, the nodes with each value it names (or, with
# Exists, DoesNotExist, Gt or Lt, with each value at all). Two nodes outside
# the groups differ only in names and values the pod never mentions, where
# In, NotIn and equality give the same answer: they are judged together, on
# a node with neither (_other_node). With two or more constrained per-node
# labels, every node is its own group.
_groups(p, pool) := [[[j], _verdict(p, pool.nodes[j])] | some j in numbers.range(0, count(pool.nodes) - 1)] if {
	count(_varying_keys(p, pool)) > 1
} else := array.concat(
	[[[j], _verdict(p, pool.nodes[j])] | some j in named],
	array.concat(
		[[js, _unnamed_verdict(p, pool, {key: value})] |
			some key in _varying_keys(p, pool)
			key in _constrained_keys(p)
			some value in _group_values(p, pool, key)
			js := _without(pool.by_label[key][value], named)
			count(js) > 0
		],
		[[js, _unnamed_verdict(p, pool, {key: ""})] |
			some key in _partial_keys(p, pool)
			not key in _constrained_keys(p)
			js := _without(sort([j | some vjs in pool.by_label[key]; some j in vjs]), named)
			count(js) > 0
		],
	),
) if {
	named := {j | some name in _mentioned_names(p); j := pool.names[name]}
}

_without(js, named) := js if {
	count(named) == 0
} else := [j | some j in js; not j in named]

_group_values(p, pool, key) := object.keys(pool.by_label[key]) if {
	some req in _requirements(p)
	req.key == key
	not req.operator in {"In", "NotIn"}
} else := _mentioned_values(p)[key]

# _unnamed_verdict is the verdict on the nodes of a pool that the pod does
# not name and whose per-node labels are `labels` (their other per-node
# labels have values it never mentions, so leaving them out changes
# nothing): the pool's shared labels with these, a name no node has, the
# keys every node of the pool has, and the pool's taints.
_unnamed_verdict(p, pool, labels) := {"reason": "node-name", "detail": sprintf("the pod names node %q", [p.node_name])} if {
	p.node_name != ""
} else := v if {
	v := _label_verdict(p, object.union(pool.node.metadata.labels, labels), "\u0000")
	not v.fits
} else := v if {
	v := _topology_verdict(p, object.union(pool.node.metadata.labels, labels), pool.everywhere)
} else := _taint_verdicts(p)[pool.taint_set]

_mentioned_names(p) := {name | name := nodes.node_name(p.pod_spec); name != ""} | {name |
	some term in nodes.required_terms(p.pod_spec)
	some req in _list(term.matchFields)
	req.key == "metadata.name"
	some name in _list(req.values)
}

_mentioned_values(p) := {key: values |
	requirements := _requirements(p)
	some key in _constrained_keys(p)
	values := {v | v := nodes.node_selector(p.pod_spec)[key]} | {v |
		some req in requirements
		req.key == key
		some v in _list(req.values)
	}
}

_verdict(p, node) := {"reason": "node-name", "detail": sprintf("the pod names node %q", [p.node_name])} if {
	p.node_name != ""
	p.node_name != nodeaffinity.node_name(node)
} else := v if {
	v := _label_verdict(p, nodeaffinity.node_labels(node), _name_if_read(p, node))
	not v.fits
} else := v if {
	v := _topology_verdict(p, nodeaffinity.node_labels(node), [])
} else := _taint_verdict(p, node)

# The name of the node only matters to matchFields: without them, nodes with
# the same labels share one judgement (OPA caches function results by
# argument, within the evaluation of one workload).
_name_if_read(p, node) := nodeaffinity.node_name(node) if {
	p.match_fields
} else := ""

_label_verdict(p, labels, name) := {"reason": "node-selector", "detail": _selector_detail(p.pod_spec, node)} if {
	node := {"metadata": {"name": name, "labels": labels}}
	not nodeaffinity.selector_matches(p.required, node)
} else := {"reason": "node-affinity", "detail": _affinity_detail(p.pod_spec, node)} if {
	node := {"metadata": {"name": name, "labels": labels}}
	not nodeaffinity.affinity_matches(p.required, node)
} else := {"fits": true}

# _topology_verdict is, on a node with labels and the label keys
# everywhere, the first topology key the pod needs that the node lacks:
# its required pod affinity's, then its DoNotSchedule spread's; undefined
# when the node has them all.
_topology_verdict(p, labels, everywhere) := {"reason": "affinity", "detail": sprintf("required pod affinity on %s: the node has no label %s", [key, key])} if {
	key := _missing(labels, everywhere, p.topology.affinity)[0]
} else := {"reason": "spread", "detail": sprintf("topology spread on %s (DoNotSchedule): the node has no label %s", [key, key])} if {
	key := _missing(labels, everywhere, p.topology.spread)[0]
}

_missing(labels, everywhere, keys) := [key |
	some key in keys
	not _has_key(labels, key)
	not key in everywhere
]

_has_key(labels, key) if is_string(labels[key])

_taint_verdict(p, node) := {"reason": "taint", "detail": sprintf("untolerated taint %s", [tolerations.string_of_taint(untolerated[0])])} if {
	untolerated := [taint |
		some taint in _node_taints(node.spec)
		taint.effect in p.effects
		not tolerations.tolerated(p.tolerations, taint)
	]
	count(untolerated) > 0
} else := _cordon_verdict(p, node.spec, object.get(node, ["status", "allocatable"], null))

_unschedulable_taint := {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}

_cordoned_for(p, spec) if {
	spec.unschedulable == true
	not p.daemonset
	p.node_name == ""
	not tolerations.tolerated(p.tolerations, _unschedulable_taint)
}

_node_taints(spec) := ts if {
	ts := spec.taints
	is_array(ts)
} else := []

# _selector_detail names the first nodeSelector entry (by key) the node lacks.
_selector_detail(pod_spec, node) := sprintf("node selector %s=%s: %s", [key, selector[key], _has_label(labels, key)]) if {
	selector := nodes.node_selector(pod_spec)
	labels := nodeaffinity.node_labels(node)
	missing := [k | some k in _sorted_keys(selector); object.get(labels, k, null) != selector[k]]
	key := missing[0]
}

_sorted_keys(selector) := sort(object.keys(selector))

_has_label(labels, key) := "the node has another value or none" if {
	key in data.dslint.inventory.per_node_keys
} else := sprintf("the node has %s=%s", [key, labels[key]]) if {
	is_string(labels[key])
} else := sprintf("the node has no label %s", [key])

# _affinity_detail names the failing requirement of a single required term,
# or says that none of several terms matches.
_affinity_detail(pod_spec, node) := sprintf("required node affinity: %s does not hold", [_describe_requirement(failing[0])]) if {
	terms := nodes.required_terms(pod_spec)
	count(terms) == 1
	failing := [req | some req in _list(terms[0].matchExpressions); not _requirement_holds(req, node)]
	count(failing) > 0
} else := sprintf("required node affinity: none of its %d terms matches", [count(nodes.required_terms(pod_spec))]) if {
	count(nodes.required_terms(pod_spec)) > 1
} else := "required node affinity does not match"

_requirement_holds(req, node) if {
	nodeaffinity.requirement_parses(req)
	nodeaffinity.requirement_matches(req, nodeaffinity.node_labels(node))
}

_describe_requirement(req) := sprintf("%v %v", [req.key, req.operator]) if {
	req.operator in {"Exists", "DoesNotExist"}
} else := sprintf("%v %v %v", [req.key, req.operator, object.get(req, "values", [])])

# --- counting nodes ------------------------------------------------------------------

# _summary is pod_summary of the prepared pod p.
_summary(p) := {
	"label_verdicts": _label_verdicts(p),
	"taint_verdicts": _taint_verdicts(p),
	"apart": _apart(p),
	"eligible": _eligible(p),
} if {
	not _unconstrained(p)
} else := {
	"taint_verdicts": _taint_verdicts(p),
	"apart": _apart(p),
	"eligible": _eligible(p),
}

# _eligible is the number of nodes the pod can land on.
_eligible(p) := sum([_fitting(v) | some v in _apart(p)]) + sum([n |
	some i in _fitting_pools(p)
	not i in apart
	n := count(pools[i].nodes)
]) if {
	apart := _apart_pools(p)
}

# _fitting_pools are the pools whose label set and taint set both fit
# (data.dslint.inventory.pools_by_sets[label set][taint set] and
# pools_by_taint_set[taint set] hold pool indexes).
# (Whether a set fits is decided without the details of why not, which only
# dslint schedule and findings about a pod that fits nowhere need.)
_fitting_pools(p) := {i |
	taint_sets := _fitting_taint_sets(p)
	some ls in _fitting_label_sets(p)
	some ts, is in data.dslint.inventory.pools_by_sets[ls]
	to_number(ts) in taint_sets
	some i in is
} if {
	not _unconstrained(p)
} else := {i |
	some ts in _fitting_taint_sets(p)
	some i in data.dslint.inventory.pools_by_taint_set[ts]
}

_fitting_label_sets(p) := {i |
	some i, labels in data.dslint.inventory.label_sets
	node := {"metadata": {"name": "", "labels": labels}}
	nodeaffinity.selector_matches(p.required, node)
	nodeaffinity.affinity_matches(p.required, node)
}

_fitting_taint_sets(p) := {i |
	some i, set in data.dslint.inventory.taint_sets
	not _blocked_by_taint(set, untolerated)
	not _cordoned_for(p, set)
	_resource_verdict(p, object.get(set, "allocatable", null)).fits
} if {
	untolerated := _untolerated(p)
}

_blocked_by_taint(set, untolerated) if {
	some k in set.taints
	k in untolerated
}

# _apart are the verdicts on the pools whose nodes may fare differently.
_apart(p) := [_pool_verdict(p, i, pools[i]) | some i in _apart_pools(p)]

_apart_pools(p) := {i | some i, pool in pools; _judged_apart(p, pool)} if {
	_may_treat_nodes_apart(p)
} else := set()

# A pool is judged apart from its label set and taint set when its nodes
# may fare differently, or when they lack a topology key the pod needs
# (which their label set cannot tell).
_judged_apart(p, pool) if _node_specific(p, pool)

_judged_apart(p, pool) if _topology_verdict(p, pool.node.metadata.labels, pool.everywhere)

_fitting(v) := count(pools[v.pool].nodes) if v.fits

_fitting(v) := sum([count(js) | some [js, n] in v.groups; n.fits]) + _others_fitting(v) if v.groups

_fitting(v) := 0 if v.reason

_others_fitting(v) := count(pools[v.pool].nodes) - _grouped(v) if v.others.fits

_others_fitting(v) := 0 if not v.others.fits

_grouped(v) := sum([count(js) | some [js, _] in v.groups])

_eligible_in(p) := object.union(
	{i: count(pools[i].nodes) | some i in _fitting_pools(p); not i in apart},
	{v.pool: n | some v in _apart(p); n := _fitting(v); n > 0},
) if {
	apart := _apart_pools(p)
}

_eligible_nodes(p) := {
	"pools": [sprintf("%d", [i]) | some i in _fitting_pools(p); not i in apart],
	"nodes": [sprintf("%d/%d", [v.pool, j]) | some v in _apart(p); some j in _fitting_nodes(v)],
} if {
	apart := _apart_pools(p)
}

_fitting_nodes(v) := {j | some [js, n] in v.groups; n.fits; some j in js} | _others_fitting_nodes(v)

_others_fitting_nodes(v) := {j |
	some j in numbers.range(0, count(pools[v.pool].nodes) - 1)
	not j in grouped
} if {
	v.others.fits
	grouped := {k | some [js, _] in v.groups; some k in js}
} else := set()

_selected_pools(p) := {i |
	some ls, v in _label_verdicts(p)
	v.fits
	some is in data.dslint.inventory.pools_by_sets[ls]
	some i in is
}

# --- why a pod fits no node ---------------------------------------------------------

# _blocks are the pools, and groups of nodes of a pool, that turn the pod
# away, with the reason and how many nodes.
_blocks(p) := ({b |
	some v in verdicts
	v.reason
	b := {"reason": v.reason, "detail": v.detail, "nodes": count(pools[v.pool].nodes), "pool": v.pool}
} | {b |
	some v in verdicts
	some [js, n] in v.groups
	n.reason
	b := {"reason": n.reason, "detail": n.detail, "nodes": count(js), "pool": v.pool, "group": js}
}) | {b |
	some v in verdicts
	v.others.reason
	n := count(pools[v.pool].nodes) - _grouped(v)
	n > 0
	b := {"reason": v.others.reason, "detail": v.others.detail, "nodes": n, "pool": v.pool, "group": "others"}
} if {
	verdicts := _verdicts(p)
}

# _reasons(blocks) are the reasons of the blocks, the one that blocks most
# nodes first: {"reason", "nodes": count, "text"}.
_reasons(blocks) := [r |
	some [_, reason] in sort({[0 - n, reason] | some reason, n in by_reason})
	r := {"reason": reason, "nodes": by_reason[reason], "text": _reason_text(blocks, reason, by_reason[reason])}
] if {
	by_reason := {reason: sum([b.nodes | some b in blocks; b.reason == reason]) | some reason in {b.reason | some b in blocks}}
}

# _reason_text is "<requirement> blocks N nodes (pools)", with the
# requirement as the details say it when they agree.
_reason_text(blocks, reason, n) := sprintf("%s blocks %s (%s)", [_requirement(blocks, reason), _count_nodes(n), concat(", ", _pools_of(blocks, reason))])

_requirement(blocks, reason) := what if {
	whats := {split(b.detail, ": the node")[0] | some b in blocks; b.reason == reason}
	count(whats) == 1
	some what in whats
} else := reason

_count_nodes(1) := "1 node"

_count_nodes(n) := sprintf("%d nodes", [n]) if n != 1

_pools_of(blocks, reason) := [pools[i].name | some i in sort({b.pool | some b in blocks; b.reason == reason})]

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)
