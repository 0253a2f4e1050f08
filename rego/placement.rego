# METADATA
# description: |
#   Placement: which nodes of the inventory the pods of the workload in input
#   can land on, with the filters the scheduler and the DaemonSet controller
#   apply (reference §2-§5): nodeName; nodeSelector AND required node affinity
#   (nodeaffinity.pod_matches_node); NoSchedule and NoExecute taints, which
#   must be tolerated (PreferNoSchedule never blocks); spec.unschedulable for
#   ordinary pods. DaemonSet pods carry the controller's automatic
#   tolerations and ignore spec.unschedulable. A pod that names its node
#   (nodeName) bypasses the scheduler: the kubelet checks only the node
#   affinity and NoExecute taints. Ordinary pods carry the not-ready and
#   unreachable NoExecute tolerations the DefaultTolerationSeconds admission
#   plugin adds. Resources, pod (anti-)affinity, topology spread and volumes
#   are not modelled.
#
#   dslint puts the inventory at data.dslint.inventory: {"pools": [pool]},
#   pool = {"name", "node": a Node object with the labels, taints and
#   unschedulable every node of the pool shares, "nodes": [Node objects with
#   their own labels too], "varying": [label keys whose values differ between
#   the pool's nodes]}. A workload whose constraints name none of the varying
#   keys, no node name and no matchFields fares alike on every node of a pool,
#   so it is judged once per pool.
package dslint.lib.placement

import data.dslint.lib.k8s
import data.dslint.lib.nodeaffinity
import data.dslint.lib.nodes
import data.dslint.lib.tolerations

# has_inventory is true when the run has nodes to place workloads on.
has_inventory if data.dslint.inventory.pools[0]

pools := data.dslint.inventory.pools

# verdicts holds, for each pool of the inventory (by index), where the pods
# of the workload in input can go: {"pool": i, "fits": true} or {"pool": i,
# "reason": r, "detail": d} for the pool as a whole; or, when the workload
# may fare differently on the pool's nodes, {"pool": i, "groups": [[node
# indexes, verdict], ...], "others": the verdict on the nodes in no group}.
verdicts := [verdict |
	some i, pool in pools
	verdict := _pool_verdict(i, pool)
] if {
	k8s.is_workload
	has_inventory
	_may_treat_nodes_apart
} else := [object.union({"pool": i}, _pool_wide(pool)) | some i, pool in pools] if {
	k8s.is_workload
	has_inventory
}

_pool_verdict(i, pool) := {"pool": i, "groups": _groups(pool), "others": _unnamed_verdict(pool, {})} if {
	_node_specific(pool)
} else := object.union({"pool": i}, _pool_wide(pool))

# _pool_wide is the verdict on every node of a pool for a workload that
# names no node: the first of the label verdict (nodeSelector, then required
# affinity) and the taint verdict (taints, then cordoning) that blocks. Pools
# share label sets and taint sets, so each set is judged once per workload.
_pool_wide(pool) := v if {
	v := _label_verdicts[pool.label_set]
	not v.fits
} else := _taint_verdicts[pool.taint_set]

_label_verdicts := [_label_verdict(_pod, labels, "") | some labels in data.dslint.inventory.label_sets] if {
	not _unconstrained
}

# A workload without nodeSelector or required affinity fits every label set:
# _label_verdicts is then undefined, which _pool_wide reads as fitting.
_unconstrained if {
	count(_pod.required.selector) == 0
	not _pod.required.terms
}

# _taint_verdicts judge each taint set: the first of its taints the pods do
# not tolerate (each distinct taint of the inventory judged once), else
# cordoning.
_taint_verdicts := [_taint_set_verdict(set) | some set in data.dslint.inventory.taint_sets]

_untolerated := {i |
	some i, taint in data.dslint.inventory.taints
	taint.effect in _pod.effects
	not tolerations.tolerated(_pod.tolerations, taint)
}

_taint_set_verdict(set) := {"reason": "taint", "detail": sprintf("untolerated taint %s", [tolerations.string_of_taint(data.dslint.inventory.taints[blocking[0]])])} if {
	blocking := [i | some i in set.taints; i in _untolerated]
	count(blocking) > 0
} else := _cordon_verdict(_pod, set)

_cordon_verdict(pod, spec) := {"reason": "unschedulable", "detail": "the node is cordoned (spec.unschedulable)"} if {
	_cordoned_for(pod, spec)
} else := {"fits": true}

# _may_treat_nodes_apart is true when some pool's nodes may fare differently.
_may_treat_nodes_apart if count(_mentioned_names) > 0

_may_treat_nodes_apart if _pod.match_fields

_may_treat_nodes_apart if count(_per_node_keys) > 0

# _node_specific is true when the workload may fare differently on the nodes
# of the pool: it names a node (nodeName, matchFields), or constrains a label
# whose value differs between the pool's nodes (hostname, zone).
_node_specific(_) if count(_mentioned_names) > 0

_node_specific(_) if _pod.match_fields

_node_specific(pool) if {
	some key in _per_node_keys
	key in pool.varying
}

# _per_node_keys are the per-node labels the workload constrains: most
# workloads have none, and then no pool is judged node by node for them.
_per_node_keys := {key | some key in _constrained_keys; key in data.dslint.inventory.per_node_keys}

_varying_keys(pool) := {key | some key in _per_node_keys; key in pool.varying}

_constrained_keys contains key if some key, _ in nodes.node_selector(_spec)

_constrained_keys contains req.key if {
	some req in _requirements
}

_requirements contains req if {
	some term in nodes.required_terms(_spec)
	some req in _list(term.matchExpressions)
}

# _groups are the pool's nodes the workload may treat apart, in groups that
# fare alike, each judged on its first node: every node it names, alone;
# with one constrained per-node label, the nodes with each value it names (or,
# with Exists, DoesNotExist, Gt or Lt, with each value at all). Two nodes
# outside the groups differ only in names and values the workload never
# mentions, where In, NotIn and equality give the same answer: they are
# judged together, on a node with neither (_other_node). With two or more
# constrained per-node labels, every node is its own group.
_groups(pool) := [[[j], _verdict(_pod, pool.nodes[j])] | some j in numbers.range(0, count(pool.nodes) - 1)] if {
	count(_varying_keys(pool)) > 1
} else := array.concat(
	[[[j], _verdict(_pod, pool.nodes[j])] | some j in named],
	[[js, _unnamed_verdict(pool, {key: value})] |
		some key in _varying_keys(pool)
		some value in _group_values(pool, key)
		js := _without(pool.by_label[key][value], named)
		count(js) > 0
	],
) if {
	named := {j | some name in _mentioned_names; j := pool.names[name]}
}

_without(js, named) := js if {
	count(named) == 0
} else := [j | some j in js; not j in named]

_group_values(pool, key) := object.keys(pool.by_label[key]) if {
	some req in _requirements
	req.key == key
	not req.operator in {"In", "NotIn"}
} else := _mentioned_values[key]

# _unnamed_verdict is the verdict on the nodes of a pool that the workload
# does not name and whose per-node labels are `labels` (their other per-node
# labels have values it never mentions, so leaving them out changes
# nothing): the pool's shared labels with these, a name no node has, and the
# pool's taints.
_unnamed_verdict(pool, labels) := {"reason": "node-name", "detail": sprintf("the pod names node %q", [_pod.node_name])} if {
	_pod.node_name != ""
} else := v if {
	v := _label_verdict(_pod, object.union(pool.node.metadata.labels, labels), "\u0000")
	not v.fits
} else := _taint_verdicts[pool.taint_set]

_mentioned_names contains name if {
	name := nodes.node_name(_spec)
	name != ""
}

_mentioned_names contains name if {
	some term in nodes.required_terms(_spec)
	some req in _list(term.matchFields)
	req.key == "metadata.name"
	some name in _list(req.values)
}

_mentioned_values[key] := values if {
	some key in _constrained_keys
	values := {v | v := nodes.node_selector(_spec)[key]} | {v |
		some req in _requirements
		req.key == key
		some v in _list(req.values)
	}
}

# eligible is the number of nodes the workload's pods can land on (for a
# DaemonSet: its DESIRED count).
eligible := n if {
	n := input.__dslint.eligible # worked out already, for another workload that reads alike
} else := sum([_fitting(v) | some v in _apart]) + sum([n |
	some i in _fitting_pools
	not i in _apart_pools
	n := count(pools[i].nodes)
]) if {
	k8s.is_workload
	has_inventory
}

# _fitting_pools are the pools whose label set and taint set both fit
# (data.dslint.inventory.pools_by_sets[label set][taint set] and
# pools_by_taint_set[taint set] hold pool indexes).
# (Whether a set fits is decided without the details of why not, which only
# dslint schedule and findings about a workload that fits nowhere need.)
_fitting_pools contains i if {
	not _unconstrained
	some ls in _fitting_label_sets
	some ts, is in data.dslint.inventory.pools_by_sets[ls]
	to_number(ts) in _fitting_taint_sets
	some i in is
}

_fitting_pools contains i if {
	_unconstrained
	some ts in _fitting_taint_sets
	some i in data.dslint.inventory.pools_by_taint_set[ts]
}

_fitting_label_sets := {i |
	some i, labels in data.dslint.inventory.label_sets
	node := {"metadata": {"name": "", "labels": labels}}
	nodeaffinity.selector_matches(_pod.required, node)
	nodeaffinity.affinity_matches(_pod.required, node)
}

_fitting_taint_sets := {i |
	some i, set in data.dslint.inventory.taint_sets
	not _blocked_by_taint(set)
	not _cordoned_for(_pod, set)
}

_blocked_by_taint(set) if {
	some k in set.taints
	k in _untolerated
}

_cordoned_for(pod, spec) if {
	spec.unschedulable == true
	not pod.daemonset
	pod.node_name == ""
	not tolerations.tolerated(pod.tolerations, _unschedulable_taint)
}

# summary is where the pods of the workload can land, in few words: a
# verdict per label set (label_verdicts, absent when every label set fits)
# and per taint set of the inventory, which hold for a pool as a whole as
# _pool_wide combines them; the pools whose nodes fare apart, as in
# verdicts (apart); and eligible.
summary := {
	"label_verdicts": _label_verdicts,
	"taint_verdicts": _taint_verdicts,
	"apart": _apart,
	"eligible": eligible,
} if {
	k8s.is_workload
	has_inventory
	not _unconstrained
} else := {
	"taint_verdicts": _taint_verdicts,
	"apart": _apart,
	"eligible": eligible,
} if {
	k8s.is_workload
	has_inventory
}

# _apart are the verdicts on the pools whose nodes may fare differently.
_apart := [_pool_verdict(i, pool) | some i in _apart_pools; pool := pools[i]]

_apart_pools := {i | some i, pool in pools; _node_specific(pool)} if {
	_may_treat_nodes_apart
} else := set()

_fitting(v) := count(pools[v.pool].nodes) if v.fits

_fitting(v) := sum([count(js) | some [js, n] in v.groups; n.fits]) + _others_fitting(v) if v.groups

_fitting(v) := 0 if v.reason

_others_fitting(v) := count(pools[v.pool].nodes) - _grouped(v) if v.others.fits

_others_fitting(v) := 0 if not v.others.fits

_grouped(v) := sum([count(js) | some [js, _] in v.groups])

_blocks contains {"reason": v.reason, "detail": v.detail, "nodes": count(pools[v.pool].nodes), "pool": v.pool} if {
	some v in verdicts
	v.reason
}

_blocks contains {"reason": n.reason, "detail": n.detail, "nodes": count(js), "pool": v.pool, "group": js} if {
	some v in verdicts
	some [js, n] in v.groups
	n.reason
}

_blocks contains {"reason": v.others.reason, "detail": v.others.detail, "nodes": n, "pool": v.pool, "group": "others"} if {
	some v in verdicts
	v.others.reason
	n := count(pools[v.pool].nodes) - _grouped(v)
	n > 0
}

# node_verdict(pod_spec, node) is {"fits": true} when pods of the workload in
# input (a DaemonSet's or not) can land on the Node object, otherwise the
# first filter that blocks them, in the order node-name, node-selector,
# node-affinity, taint, unschedulable: {"reason": r, "detail": d}.
node_verdict(pod_spec, node) := _verdict(_prepared(pod_spec), node)

# What the filters need of the pod, prepared once per workload rather than
# once per node.
_prepared(pod_spec) := {
	"pod_spec": pod_spec,
	"node_name": nodes.node_name(pod_spec),
	"required": nodeaffinity.required_node_affinity(pod_spec),
	"tolerations": pod_tolerations(pod_spec),
	"effects": _blocking_effects(pod_spec),
	"daemonset": _is_daemonset,
	"match_fields": _uses_match_fields(pod_spec),
}

_uses_match_fields(pod_spec) if {
	some term in nodes.required_terms(pod_spec)
	count(_list(term.matchFields)) > 0
} else := false

_is_daemonset if {
	k8s.is_daemonset
} else := false

_pod := _prepared(_spec)

# _spec is what placement reads of the pod spec, and key all it reads of the
# workload: placement is a function of the key and the inventory, so dslint
# schedule places workloads with equal keys once.
_spec := {
	"nodeName": object.get(k8s.pod_spec, "nodeName", null),
	"nodeSelector": object.get(k8s.pod_spec, "nodeSelector", null),
	"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": object.get(
		k8s.pod_spec,
		["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"],
		null,
	)}},
	"tolerations": object.get(k8s.pod_spec, "tolerations", null),
	"hostNetwork": object.get(k8s.pod_spec, "hostNetwork", null),
}

key := {"spec": _spec, "daemonset": _is_daemonset} if {
	k8s.is_workload
	has_inventory
}

_verdict(pod, node) := {"reason": "node-name", "detail": sprintf("the pod names node %q", [pod.node_name])} if {
	pod.node_name != ""
	pod.node_name != nodeaffinity.node_name(node)
} else := v if {
	v := _label_verdict(pod, nodeaffinity.node_labels(node), _name_if_read(pod, node))
	not v.fits
} else := _taint_verdict(pod, node.spec)

# The name of the node only matters to matchFields: without them, nodes with
# the same labels share one judgement (OPA caches function results by
# argument, within the evaluation of one workload).
_name_if_read(pod, node) := nodeaffinity.node_name(node) if {
	pod.match_fields
} else := ""

_label_verdict(pod, labels, name) := {"reason": "node-selector", "detail": _selector_detail(pod.pod_spec, node)} if {
	node := {"metadata": {"name": name, "labels": labels}}
	not nodeaffinity.selector_matches(pod.required, node)
} else := {"reason": "node-affinity", "detail": _affinity_detail(pod.pod_spec, node)} if {
	node := {"metadata": {"name": name, "labels": labels}}
	not nodeaffinity.affinity_matches(pod.required, node)
} else := {"fits": true}

_taint_verdict(pod, spec) := {"reason": "taint", "detail": sprintf("untolerated taint %s", [tolerations.string_of_taint(untolerated[0])])} if {
	untolerated := [taint |
		some taint in _node_taints(spec)
		taint.effect in pod.effects
		not tolerations.tolerated(pod.tolerations, taint)
	]
	count(untolerated) > 0
} else := _cordon_verdict(pod, spec)

_unschedulable_taint := {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}

# A pod that names its node is admitted by the kubelet, which evicts on
# NoExecute taints only.
_blocking_effects(pod_spec) := {"NoExecute"} if {
	nodes.node_name(pod_spec) != ""
	not _is_daemonset
} else := {"NoSchedule", "NoExecute"}

_node_taints(spec) := ts if {
	ts := spec.taints
	is_array(ts)
} else := []

# pod_tolerations(pod_spec) are the tolerations the pods carry when they are
# placed: a DaemonSet's with the controller's own, an ordinary pod's with the
# not-ready and unreachable ones admission adds unless the pod has one for
# that key (or every key) and NoExecute (or every effect).
pod_tolerations(pod_spec) := tolerations.daemonset_pod_tolerations(pod_spec) if {
	_is_daemonset
} else := array.concat(own, [d |
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

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)

# blocking_reasons are the reasons nodes turn the workload's pods away, the
# one that blocks most nodes first: {"reason", "nodes": count, "text"}.
blocking_reasons := input.__dslint.blocking_reasons if {
	_ = input.__dslint.blocking_reasons
} else := [r |
	some [_, reason] in sort({[0 - n, reason] | some reason, n in _nodes_by_reason})
	r := {"reason": reason, "nodes": _nodes_by_reason[reason], "text": _reason_text(reason)}
]

_nodes_by_reason[reason] := sum([b.nodes | some b in _blocks; b.reason == reason]) if {
	some b in _blocks
	reason := b.reason
}

# _reason_text is "<requirement> blocks N nodes (pools)", with the
# requirement as the details say it when they agree.
_reason_text(reason) := sprintf("%s blocks %s (%s)", [_requirement(reason), _count_nodes(_nodes_by_reason[reason]), concat(", ", _pools_of(reason))])

_requirement(reason) := what if {
	whats := {split(b.detail, ": the node")[0] | some b in _blocks; b.reason == reason}
	count(whats) == 1
	some what in whats
} else := reason

_count_nodes(1) := "1 node"

_count_nodes(n) := sprintf("%d nodes", [n]) if n != 1

_pools_of(reason) := [pools[i].name | some i in sort({b.pool | some b in _blocks; b.reason == reason})]

# eligible_in[i] is the number of nodes of pool i the pods can land on, for
# the pools where there are some.
eligible_in := {p: n | some [p, n] in input.__dslint.eligible_in} if {
	_ = input.__dslint.eligible_in # worked out already, for another workload that reads alike
} else := _eligible_in

_eligible_in[i] := count(pools[i].nodes) if {
	some i in _fitting_pools
	not i in _apart_pools
}

_eligible_in[v.pool] := n if {
	some v in _apart
	n := _fitting(v)
	n > 0
}

# selected_pools are the pools whose nodes the workload's node constraint
# (nodeSelector and required affinity, taints aside) admits, for a workload
# that judges every node of a pool alike; undefined for the others.
selected_pools := {i | some i in input.__dslint.selected_pools} if {
	_ = input.__dslint.selected_pools
} else := {i |
	some ls, v in _label_verdicts
	v.fits
	some _, is in data.dslint.inventory.pools_by_sets[ls]
	some i in is
} if {
	has_inventory
	not _may_treat_nodes_apart
}

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

# eligible_nodes are the nodes the pods can land on, compactly: whole pools
# by index as strings, and single nodes as "pool/node" index strings for the
# pools whose nodes fare apart.
eligible_nodes := input.__dslint.eligible_nodes if {
	_ = input.__dslint.eligible_nodes
} else := {
	"pools": [sprintf("%d", [i]) | some i in _fitting_pools; not i in _apart_pools],
	"nodes": [sprintf("%d/%d", [v.pool, j]) | some v in _apart; some j in _fitting_nodes(v)],
}

_fitting_nodes(v) := {j | some [js, n] in v.groups; n.fits; some j in js} | _others_fitting_nodes(v)

_others_fitting_nodes(v) := {j |
	some j in numbers.range(0, count(pools[v.pool].nodes) - 1)
	not j in {k | some [js, _] in v.groups; some k in js}
} if {
	v.others.fits
} else := set()

# given is what rules read of a workload's placement, worked out once per
# placement key: dslint hands it to the rules of every workload with that key
# as input.__dslint, and eligible, eligible_in, selected_pools and
# eligible_nodes read it from there.
given := object.union(
	{
		"eligible": eligible,
		"eligible_in": [[p, n] | some p, n in eligible_in],
		"eligible_nodes": eligible_nodes,
	},
	object.union(_given_selected, _given_reasons),
) if {
	k8s.is_workload
	has_inventory
}

_given_reasons := {"blocking_reasons": blocking_reasons} if {
	eligible == 0
} else := {}

_given_selected := {"selected_pools": sort(selected_pools)} if {
	_ = selected_pools
} else := {}
