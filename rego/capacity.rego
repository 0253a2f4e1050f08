# Capacity, part of the placement library (rego/placement.rego holds its
# description). Capacity on an empty cluster (reference §15): how many replicas of a
# pod template the inventory can ever hold, when the only pods are the
# workload's own. Each mechanism limits on its own, and the least limit
# is the answer (§15.1-§15.2):
# - resources: each eligible node holds as many as its allocatable has
#   room for (pod_room_in), one when the pods bind host ports ("ports");
# - required self anti-affinity on key T: one replica per value of T
#   among the eligible nodes, nodes without T as many as they hold;
# - a DoNotSchedule spread constraint that counts the replicas (maxSkew
#   s): Σ_d min(C(d), c + s) over its domains d, where C(d) is what the
#   eligible nodes of d hold and c the least C(d) (0 with fewer domains
#   than minDomains);
# - required self affinity on key T: every replica in the first one's
#   domain of T, the largest of which bounds the count.
# Where the count depends on the nodes the scheduler picks (self affinity
# over several domains, several spread constraints, anti-affinity on
# another key than the spread's, DaemonSets with either), it is an upper
# bound and "exact" is false.
package dslint.lib.placement

import data.dslint.lib.podaffinity
import data.dslint.lib.resources

# pod_replicas(pod) is how many pods the workload wants of the pod's
# template: a DaemonSet's DESIRED (pod_eligible); a Job's parallelism (1 by
# default), no more than its completions; replicas as written; else 1.
pod_replicas(pod) := pod_eligible(pod) if {
	pod.daemonset
} else := _job_replicas(pod) if {
	input.kind in {"Job", "CronJob"}
} else := pod.replicas if {
	is_number(pod.replicas)
} else := 1

_job_replicas(pod) := min([_parallelism(pod), completions]) if {
	completions := object.get(input, array.concat(_job_spec, ["completions"]), null)
	is_number(completions)
} else := _parallelism(pod)

_job_spec := ["spec", "jobTemplate", "spec"] if input.kind == "CronJob"

_job_spec := ["spec"] if input.kind == "Job"

_parallelism(pod) := pod.replicas if is_number(pod.replicas)

_parallelism(pod) := 1 if not is_number(pod.replicas)

# pod_placement(pod) is how many of the pod's replicas an empty cluster
# holds: {"replicas", "placed", "exact", "blocked_by": none, placement,
# resources, ports, anti-affinity, spread or affinity, and, when fewer are
# placed than wanted, "limit": the limit that holds them back, {"by",
# "n", "text", "path"} (path: the field that sets it, from the pod spec)}.
pod_placement(pod) := _daemon_placement(pod) if {
	pod.daemonset
} else := replicas_placed(pod, pod_replicas(pod))

# replicas_placed(pod, wanted) is pod_placement for wanted replicas.
replicas_placed(pod, wanted) := {"replicas": wanted, "placed": 0, "exact": true, "blocked_by": _unplaced_by(pod)} if {
	pod_eligible(pod) == 0
} else := object.union(
	{"replicas": wanted, "placed": placed, "exact": _exact(pod), "blocked_by": _blocked_by(limit, placed, wanted)},
	_limit_field(pod, limit, placed, wanted),
) if {
	limits := _limits(pod, wanted)
	least := min([l.n | some l in limits])
	limit := [l | some l in limits; l.n == least][0]
	placed := min([wanted, least])
}

# A limit is worked out as {"by", "n", "path", "why": what its text
# says}; the text, and the path of a resource, are worked out only for the
# limit that holds replicas back.
_limit_field(pod, limit, placed, wanted) := {"limit": {
	"by": limit.by,
	"n": limit.n,
	"path": _limit_path(pod, limit),
	"text": _limit_text(pod, limit),
}} if placed < wanted

_limit_field(_, _, placed, wanted) := {} if placed >= wanted

_limit_path(pod, limit) := _resource_path(pod) if {
	limit.by == "resources"
} else := limit.path

_limit_text(pod, limit) := sprintf("the nodes it can land on hold %d of its pods at most, even with nothing else running: %s", [limit.n, _rooms(pod)]) if {
	limit.by == "resources"
} else := sprintf("its host ports allow one pod per node, and it can land on %s", [_nodes_word(limit.n)]) if {
	limit.by == "ports"
} else := sprintf("required pod anti-affinity on %s allows %d, one per %s: %s", [limit.why.key, limit.n, _domain_word(limit.why.key), _listing(limit.why.key, object.keys(_holds_in(limit.why.classes, limit.why.key)))]) if {
	limit.by == "anti-affinity"
} else := _spread_text(limit.why.constraint, limit.n, _spread_held(pod, limit.why.classes, limit.why.constraint), limit.why.least) if {
	limit.by == "spread"
} else := sprintf("required pod affinity on %s keeps every replica in the first one's domain, which holds %d at most", [limit.why.key, limit.n])

_blocked_by(_, placed, wanted) := "none" if placed >= wanted

_blocked_by(limit, placed, wanted) := limit.by if placed < wanted

# A pod no node takes is blocked by placement (labels, taints, cordons),
# unless the nodes that pass those turn it away for its resources or its
# topology keys.
_unplaced_by(pod) := reasons[0] if {
	reasons := [r.reason | some r in pod_blocking_reasons(pod); r.reason in {"resources", "spread", "affinity"}]
	count(reasons) > 0
} else := "placement"

# A DaemonSet wants a pod on each node of its DESIRED count; those on the
# nodes too small for it (pod_pending_in, reference §13), or without a
# topology key its spread constraints or pod affinity ask for, stay
# Pending.
_daemon_placement(pod) := {
	"replicas": wanted,
	"placed": (wanted - pending) - keyless,
	"exact": _daemon_exact(pod),
	"blocked_by": _daemon_blocked_by(pending, keyless),
} if {
	wanted := pod_eligible(pod)
	short := pod_pending_in(pod)
	pending := sum([n | some i, _ in short; n := pod_eligible_in(pod)[i]])
	keyless := _keyless(pod, short)
}

_daemon_blocked_by(0, 0) := "none"

_daemon_blocked_by(n, _) := "resources" if n > 0

_daemon_blocked_by(0, n) := "spread" if n > 0

# _keyless counts the DaemonSet's nodes, outside the pools pending for
# resources, that lack a topology key of its pods.
_keyless(pod, short) := 0 if {
	count(_daemon_keys(pod)) == 0
} else := sum([n |
	some c in _classes(pod, 0)
	c.verdict.fits
	not short[c.pool]
	n := count([j | some j in _class_nodes(c); not _has_keys(pools[c.pool].nodes[j], _daemon_keys(pod))])
])

_daemon_keys(pod) := {k | some k in podaffinity.topology_keys(pod.spec).affinity} | {k | some k in podaffinity.topology_keys(pod.spec).spread}

_class_nodes(c) := numbers.range(0, count(pools[c.pool].nodes) - 1) if c.nodes == null

_class_nodes(c) := c.nodes if c.nodes != null

_has_keys(node, keys) if {
	every key in keys {
		is_string(node.metadata.labels[key])
	}
}

# Pod (anti-)affinity and spread among daemon pods depend on the order the
# controller creates them in (reference §15.2).
_daemon_exact(pod) := false if {
	_has_terms(pod)
} else := false if {
	count(_other_affinity(pod)) > 0
} else := true

_has_terms(pod) if (count(_anti_terms(pod)) + count(_spread(pod))) + count(_self_affinity(pod)) > 0

# --- the limits -------------------------------------------------------------------

# _limits are the limits of each mechanism, in the order the least of them
# is named: anti-affinity, spread, affinity, ports, resources.
_limits(pod, wanted) := array.concat(
	array.concat(
		[_anti_limit(pod, wanted, path, term) | some [path, term] in _anti_terms(pod)],
		[_spread_limit(pod, wanted, path, c) | some [path, c] in _spread(pod)],
	),
	array.concat(
		[_affinity_limit(pod, wanted, path, term) | some [path, term] in _self_affinity(pod)],
		array.concat(_ports_limit(pod), [_resources_limit(pod, wanted)]),
	),
)

_anti_terms(pod) := [[path, term] |
	some [path, term] in podaffinity.anti_affinity_terms(pod.spec)
	podaffinity.term_among_replicas(pod, term)
]

_self_affinity(pod) := [[path, term] |
	some [path, term] in podaffinity.affinity_terms(pod.spec)
	podaffinity.term_among_replicas(pod, term)
]

# _other_affinity are required pod affinity terms that match other pods
# only: the count depends on those pods, which are not modelled (on an
# empty cluster none is placed, reference §11.4).
_other_affinity(pod) := [term |
	some [_, term] in podaffinity.affinity_terms(pod.spec)
	not podaffinity.term_among_replicas(pod, term)
]

_spread(pod) := [[path, c] |
	some [path, c] in podaffinity.spread_constraints(pod.spec)
	podaffinity.spread_binds(pod, c)
]

# _exact is false where the count depends on the scheduler's choices
# (reference §15.2-§15.3).
_exact(pod) if {
	count(_self_affinity(pod)) == 0
	count(_other_affinity(pod)) == 0
	count(_spread(pod)) <= 1
	count(_coarse_anti_keys(pod)) <= 1
	every key in _coarse_anti_keys(pod) {
		every spread in _spread(pod) {
			spread[1].topologyKey == key
		}
	}
	every spread in _spread(pod) {
		_policies_plain(spread[1])
	}
} else := false

# With nodeAffinityPolicy Ignore and nodeTaintsPolicy Honor, a node that
# fails both counts as a domain here (its first reason is the label).
_policies_plain(c) if podaffinity.honors_affinity(c)

_policies_plain(c) if not podaffinity.honors_taints(c)

# _coarse_anti_keys are the topology keys of self anti-affinity other than
# the hostname, which only caps each node at one replica.
_coarse_anti_keys(pod) := {term.topologyKey |
	some [_, term] in _anti_terms(pod)
	term.topologyKey != _hostname
}

_hostname := "kubernetes.io/hostname"

# _resources_limit: Σ over the eligible pools of nodes × what each holds.
_resources_limit(pod, wanted) := {
	"by": "resources",
	"n": sum([held | some i, nodes in pod_eligible_in(pod); held := nodes * _each(pod, i, wanted)]),
}

_rooms(pod) := concat("; ", [_pool_room(i, r) | some i, r in pod_room_in(pod)])

_pool_room(i, r) := sprintf("%s, %s × %d (%s)", [pools[i].name, _nodes_word(r.nodes), r.each, r.by])

_resource_path(pod) := path if {
	room := pod_room_in(pod)
	path := resources.request_path(pod.spec, room[min(object.keys(room))].resource)
} else := ["containers"]

_ports_limit(pod) := [{
	"by": "ports",
	"n": pod_eligible(pod),
	"path": host_port_path(pod.spec),
}] if {
	_binds_host_ports(pod.spec)
} else := []

# _each(pod, i, wanted) is how many replicas a node of pool i holds by its
# resources: what its allocatable has room for, or wanted when the pool
# says nothing of them.
_each(pod, i, wanted) := _room_each(pod, _set_units(_taint_set_of(i))) if {
	_judged(pod, _taint_set_of(i))
} else := wanted

# _held(pod, i, wanted) is _each capped at one per node by host ports or
# hostname anti-affinity.
_held(pod, i, wanted) := min([_each(pod, i, wanted), 1]) if {
	_one_per_node(pod)
} else := _each(pod, i, wanted)

_one_per_node(pod) if _binds_host_ports(pod.spec)

_one_per_node(pod) if {
	some [_, term] in _anti_terms(pod)
	term.topologyKey == _hostname
}

# --- per domain -------------------------------------------------------------------

# _classes(pod, wanted) are the inventory's nodes in classes that fare
# alike: {"pool", "nodes": indexes, or null for the whole pool, "verdict",
# "held": replicas each node holds (0 where the pod cannot land)}.
_classes(pod, wanted) := [object.union(c, {"held": _class_held(pod, c, wanted)}) |
	some v in pod_verdicts(pod)
	some c in _classes_of(v)
]

_class_held(pod, c, wanted) := _held(pod, c.pool, wanted) if c.verdict.fits

_class_held(_, c, _) := 0 if not c.verdict.fits

_classes_of(v) := [{"pool": v.pool, "nodes": null, "verdict": v}] if {
	not v.groups
} else := array.concat(
	[{"pool": v.pool, "nodes": js, "verdict": n} | some [js, n] in v.groups],
	[{"pool": v.pool, "nodes": rest, "verdict": v.others} |
		grouped := {j | some [js, _] in v.groups; some j in js}
		rest := [j | some j in numbers.range(0, count(pools[v.pool].nodes) - 1); not j in grouped]
		count(rest) > 0
	],
)

_class_size(c) := count(pools[c.pool].nodes) if c.nodes == null

_class_size(c) := count(c.nodes) if c.nodes != null

# _values_of(c, key) counts the class's nodes by their value of label key
# (nodes without it are left out).
_values_of(c, key) := {v: _class_size(c)} if {
	v := pools[c.pool].node.metadata.labels[key]
	is_string(v)
} else := {v: count(js) | some v, js in pools[c.pool].by_label[key]} if {
	c.nodes == null
} else := {v: n |
	some v, js in pools[c.pool].by_label[key]
	n := count([j | some j in js; j in nodes])
	n > 0
} if {
	nodes := {j | some j in c.nodes}
}

_lacking(c, key) := _class_size(c) - _keyed(c, key)

# _keyed(c, key) is how many of the class's nodes have label key.
_keyed(c, key) := _class_size(c) if {
	_on_every_node(c.pool, key)
} else := sum([n | some n in _values_of(c, key)])

_on_every_node(i, key) if is_string(pools[i].node.metadata.labels[key])

_on_every_node(i, key) if key in pools[i].everywhere

# _node_domains(key): every node with label key has a value of its own
# (data.dslint.inventory.unique_keys), so each is a domain of key alone,
# and domains are counted without naming them.
_node_domains(key) if key in data.dslint.inventory.unique_keys

# _holds_in(classes, key) is what the eligible nodes hold, by value of key.
# Values are mostly each in one class (a hostname always is): those are
# read as they are, and only values that several classes share are summed.
_holds_in(classes, key) := {v: h | some [v, h] in pairs} if {
	pairs := _held_values(classes, key)
	count({v | some [v, _] in pairs}) == count(pairs)
} else := {v: sum([h | some [v2, h] in pairs; v2 == v]) |
	pairs := _held_values(classes, key)
	some [v, _] in pairs
}

# _held_values(classes, key) is [value, what the class's nodes of that
# value hold] for each class that holds some.
_held_values(classes, key) := [[v, c.held * n] |
	some c in classes
	c.held > 0
	some v, n in _values_of(c, key)
]

# Required self anti-affinity on key T: one per value of T, and nodes
# without T hold what they hold (reference §11.4, §15.1).
_anti_limit(pod, wanted, path, term) := {
	"by": "anti-affinity",
	"n": n,
	"why": {"key": key, "classes": classes},
	"path": array.concat(path, ["topologyKey"]),
} if {
	key := term.topologyKey
	classes := _classes(pod, wanted)
	n := _held_domains(classes, key) + sum([h | some c in classes; h := c.held * _lacking(c, key)])
}

# _held_domains(classes, key) is the number of domains of key where the
# classes hold a replica.
_held_domains(classes, key) := sum([_keyed(c, key) | some c in classes; c.held > 0]) if {
	_node_domains(key)
} else := count(_holds_in(classes, key))

_domain_word(key) := "node" if key == _hostname

_domain_word(key) := sprintf("value of %s", [key]) if key != _hostname

_listing(key, domains) := sprintf("only %s %s eligible", [_names(domains), _is_are(count(domains))]) if {
	key == _hostname
} else := sprintf("the eligible nodes have %s", [_names(domains)])

_is_are(1) := "is"

_is_are(n) := "are" if n != 1

_names(values) := concat("", [_joined(shown), _more(count(values) - count(shown))]) if {
	shown := array.slice(sort(values), 0, 5)
}

_joined(names) := names[0] if {
	count(names) == 1
} else := sprintf("%s and %s", [concat(", ", array.slice(names, 0, count(names) - 1)), names[count(names) - 1]])

_more(0) := ""

_more(n) := sprintf(" (and %d more)", [n]) if n > 0

# A DoNotSchedule spread constraint that counts the replicas: its domains
# are the values of its key on the nodes it counts (_counted), and each
# holds min(C(d), c + maxSkew) (reference §12, §15.1).
_spread_limit(pod, wanted, path, constraint) := {
	"by": "spread",
	"n": n,
	"why": {"constraint": constraint, "classes": classes, "least": least},
	"path": array.concat(path, ["maxSkew"]),
} if {
	classes := _classes(pod, wanted)
	[n, least] := _spread_count(pod, classes, constraint)
}

# _spread_count is [Σ_d min(C(d), c + maxSkew), c]: with a domain per node,
# each class of k such nodes counts k domains alike.
_spread_count(pod, classes, constraint) := [n, least] if {
	key := constraint.topologyKey
	_node_domains(key)
	counted := [[k, h] |
		some c in classes
		_counted(c, constraint)
		k := _keyed(c, key)
		k > 0
		h := _capped(pod, key, c.held)
	]
	least := _least_of(sum([k | some [k, _] in counted]), [h | some [_, h] in counted], constraint)
	n := sum([x | some [k, h] in counted; x := k * min([h, least + podaffinity.max_skew(constraint)])])
} else := [n, least] if {
	held := _spread_held(pod, classes, constraint)
	least := _least_of(count(held), [h | some h in held], constraint)
	n := sum([min([h, least + podaffinity.max_skew(constraint)]) | some h in held])
}

# _spread_held is what each domain of the constraint holds: its domains
# are the values of its key on the nodes it counts.
_spread_held(pod, classes, constraint) := {d: h |
	some d in domains
	h := _capped(pod, key, object.get(holds, d, 0))
} if {
	key := constraint.topologyKey
	domains := {v | some c in classes; _counted(c, constraint); some v, _ in _values_of(c, key)}
	holds := _holds_in(classes, key)
}

# A domain on which self anti-affinity on the same key holds one replica.
_capped(pod, key, h) := min([h, 1]) if {
	some [_, term] in _anti_terms(pod)
	term.topologyKey == key
} else := h

# _least_of(domains, holds, constraint) is c, the least a domain holds: 0
# with fewer domains than minDomains.
_least_of(domains, holds, constraint) := 0 if {
	domains < podaffinity.min_domains(constraint)
} else := min(holds)

# _counted: the class's nodes count as domains of the constraint
# (reference §12.2): they pass its node inclusion policies; resources and
# cordoning do not matter.
_counted(c, _) if c.verdict.fits

_counted(c, _) if c.verdict.reason in {"unschedulable", "resources", "affinity"}

_counted(c, constraint) if {
	c.verdict.reason == "taint"
	not podaffinity.honors_taints(constraint)
}

_counted(c, constraint) if {
	c.verdict.reason in {"node-selector", "node-affinity"}
	not podaffinity.honors_affinity(constraint)
}

_spread_text(constraint, n, held, 0) := sprintf("topology spread on %s (maxSkew %d) allows %d: %s, so every other holds %d at most", [
	constraint.topologyKey, constraint.maxSkew, n, _empty_domains(held, constraint), constraint.maxSkew,
])

_spread_text(constraint, n, held, least) := sprintf("topology spread on %s (maxSkew %d) allows %d: its domains can hold %s, and none may hold more than %d", [
	constraint.topologyKey, constraint.maxSkew, n, _holdings(held), least + constraint.maxSkew,
]) if least > 0

_empty_domains(held, constraint) := sprintf("%s=%s takes none of its pods (its nodes are tainted, cordoned, full or excluded)", [constraint.topologyKey, _names(empty)]) if {
	empty := [d | some d, h in held; h == 0]
	count(empty) > 0
} else := sprintf("it has %d domains, fewer than minDomains %d", [count(held), podaffinity.min_domains(constraint)])

_holdings(held) := concat("", [
	concat(", ", [sprintf("%s %d", [d, held[d]]) | some d in array.slice(names, 0, 5)]),
	_more(count(names) - min([count(names), 5])),
]) if {
	names := sort(object.keys(held))
}

# Required self affinity on key T: the first replica picks a domain, and
# every other follows it there (reference §11.4).
_affinity_limit(pod, wanted, path, term) := {
	"by": "affinity",
	"n": n,
	"why": {"key": term.topologyKey},
	"path": array.concat(path, ["topologyKey"]),
} if {
	n := _most_held(_classes(pod, wanted), term.topologyKey)
}

# _most_held(classes, key) is the most a domain of key holds.
_most_held(classes, key) := max(array.concat([c.held | some c in classes; _keyed(c, key) > 0], [0])) if {
	_node_domains(key)
} else := max(array.concat([h | some h in _holds_in(classes, key)], [0]))

_nodes_word(1) := "1 node"

_nodes_word(n) := sprintf("%d nodes", [n]) if n != 1
