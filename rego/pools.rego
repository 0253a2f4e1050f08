# METADATA
# description: |
#   The pools declared in .dslint.yaml (pools:), at data.dslint.config.pools:
#   the dedicated pattern of each one (the labels pods select, the taints
#   that keep other pods off) and who owns it. These answer, for a pod of
#   k8s.pods and a declared pool, whether the pod can land on the pool's
#   nodes, whether it asks for them, and whether it is the pool's owners'.
#   The rules and the admission policy of dslint export-policy judge by
#   them: a node's labels other than the pool's are not known, so a node
#   constraint on another label is taken to be met.
package dslint.lib.pools

import data.dslint.lib.k8s
import data.dslint.lib.nodeaffinity
import data.dslint.lib.nodes
import data.dslint.lib.podaffinity
import data.dslint.lib.tolerations as tol

# declared are the pools of the config: {name, labels, taints, owners}
# (internal/config Pool), every field but the name optional.
default declared := []

declared := data.dslint.config.pools

# dedicated are the declared pools with both halves of the pattern: a label
# pods select and a taint that keeps other pods off.
dedicated := [pool |
	some pool in declared
	count(labels(pool)) > 0
	count(keep_out(pool)) > 0
]

# owned are the declared pools with owners.
owned := [pool |
	some pool in declared
	pool.owners
]

# labels(pool) are the labels every node of the pool carries.
labels(pool) := object.get(pool, "labels", {})

# keep_out(pool) are the pool's taints that keep pods off its nodes:
# NoSchedule and NoExecute (PreferNoSchedule only discourages).
keep_out(pool) := [t |
	some t in object.get(pool, "taints", [])
	t.effect in {"NoSchedule", "NoExecute"}
]

# --- tolerating the pool's taints -----------------------------------------------

# tolerates(pod, pool) is true when the pod tolerates every taint that keeps
# pods off the pool (vacuously, for a pool without one).
tolerates(pod, pool) if {
	_tolerations_touch(pod, pool)
	every taint in keep_out(pool) {
		tol.tolerated(pod.valid_tolerations, taint)
	}
}

tolerates(_, pool) if count(keep_out(pool)) == 0

# touches(pod, pool) is true when the pod has anything to do with the pool:
# a toleration with a key of one of its keep-out taints, or with no key, or
# a node constraint on one of its labels. A pod that does not touch a pool
# neither tolerates its taints (when it has one) nor asks for it, nor is
# kept on it; the library's judgements start with this test, which most
# pods fail at once.
touches(pod, pool) if _tolerations_touch(pod, pool)

touches(pod, pool) if _constraint_touches(pod.spec, pool)

# _tolerations_touch(pod, pool) is true when a toleration of the pod has
# no key or the key of one of the pool's taints. References straight into
# the pool and the spec keep it cheap for the many pods that fail it.
_tolerations_touch(pod, pool) if {
	some t in pod.valid_tolerations
	_key_touches(object.get(t, "key", ""), pool)
}

_key_touches("", _)

_key_touches(key, pool) if pool.taints[_].key == key

_constraint_touches(spec, pool) if {
	some key, _ in pool.labels
	_ = spec.nodeSelector[key]
}

_constraint_touches(spec, pool) if {
	some key, _ in pool.labels
	spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[_].matchExpressions[_].key == key
}

# untolerated(pod, pool) are the pool's taints the pod does not tolerate.
untolerated(pod, pool) := [taint |
	some taint in keep_out(pool)
	not tol.tolerated(pod.valid_tolerations, taint)
]

# tolerating(pod, pool) is the index of the pod's first toleration of the
# pool's first keep-out taint it tolerates: where a finding about it points.
tolerating(pod, pool) := min({i |
	some taint in keep_out(pool)
	some i, t in pod.valid_tolerations
	tol.tolerates(t, taint)
})

# --- the node constraint and the pool's labels ----------------------------------

# admits(spec, pool) is true when the pod's node constraint can be met by a
# node with the pool's labels: its nodeSelector agrees with them, and its
# required node affinity is absent or has a term that does. Requirements on
# other labels, and matchFields, are taken to be met.
admits(spec, pool) if {
	ls := labels(pool)
	_affinity_admits(spec, ls)
	every key, value in nodes.node_selector(spec) {
		object.get(ls, key, value) == value
	}
}

_affinity_admits(spec, _) if not nodes.required(spec)

_affinity_admits(spec, ls) if {
	some term in nodes.required_terms(spec)
	_term_admits(term, ls)
}

# _term_admits(term, ls) is true for a term with a requirement (an empty
# term matches no node) whose every requirement on a label of ls holds.
_term_admits(term, ls) if {
	is_object(term)
	count(_list(object.get(term, "matchExpressions", []))) + count(_list(object.get(term, "matchFields", []))) > 0
	every req in _list(object.get(term, "matchExpressions", [])) {
		_holds(req, ls)
	}
}

_holds(req, ls) if not _on(req, ls)

_holds(req, ls) if {
	_on(req, ls)
	nodeaffinity.requirement_matches(req, ls)
}

_on(req, ls) if {
	is_object(req)
	_ = ls[req.key]
}

# asks(spec, pool) is true when the pod's node constraint admits the pool
# and names one of its labels: a nodeSelector entry, or an In (with the
# pool's value) or Exists requirement of a term that admits it.
asks(spec, pool) if {
	_constraint_touches(spec, pool)
	_asking(spec, pool)
	admits(spec, pool)
}

_asking(spec, pool) if _ := selector_key(spec, pool)

_asking(spec, pool) if {
	ls := labels(pool)
	some term in nodes.required_terms(spec)
	_term_admits(term, ls)
	some req in _list(object.get(term, "matchExpressions", []))
	_names(req, ls)
}

# pins(spec, pool) is true when every node the constraint admits carries a
# label of the pool: its nodeSelector names one, or every term of its
# required affinity does. Such pods go nowhere else.
pins(spec, pool) if _ := selector_key(spec, pool)

pins(spec, pool) if {
	_constraint_touches(spec, pool)
	ls := labels(pool)
	terms := nodes.required_terms(spec)
	count(terms) > 0
	every term in terms {
		some req in _list(object.get(term, "matchExpressions", []))
		_names(req, ls)
	}
}

_names(req, ls) if {
	is_object(req)
	req.operator == "In"
	ls[req.key] in _list(req.values)
}

_names(req, ls) if {
	is_object(req)
	req.operator == "Exists"
	_ = ls[req.key]
}

# selector_key(spec, pool) is the first nodeSelector key that names a label
# of the pool with its value.
selector_key(spec, pool) := min({key |
	ls := labels(pool)
	some key, value in nodes.node_selector(spec)
	ls[key] == value
})

# asking_path(pod, pool) is the field by which the pod asks for the pool:
# the nodeSelector key, else the first requirement that names a pool label
# in the first term that admits the pool.
asking_path(pod, pool) := k8s.pod_path(pod, ["nodeSelector", selector_key(pod.spec, pool)]) if {
	selector_key(pod.spec, pool)
} else := k8s.pod_path(pod, [
	"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
	"nodeSelectorTerms", i, "matchExpressions", j, "key",
]) if {
	[i, j] := _asking_requirement(pod.spec, pool)
}

# asking_text(pod, pool) says how the pod asks for the pool, for messages.
asking_text(pod, pool) := sprintf("nodeSelector %s=%s", [key, labels(pool)[key]]) if {
	key := selector_key(pod.spec, pool)
} else := sprintf("required node affinity on %s", [key]) if {
	[i, j] := _asking_requirement(pod.spec, pool)
	key := nodes.required_terms(pod.spec)[i].matchExpressions[j].key
}

# _asking_requirement(spec, pool) is [term, requirement] of the first
# requirement naming a pool label in the first term that admits the pool.
_asking_requirement(spec, pool) := [i, j] if {
	ls := labels(pool)
	terms := nodes.required_terms(spec)
	i := min({i | some i, term in terms; _term_admits(term, ls); _term_names(term, ls)})
	j := min({j | some j, req in terms[i].matchExpressions; _names(req, ls)})
}

_term_names(term, ls) if {
	some req in _list(object.get(term, "matchExpressions", []))
	_names(req, ls)
}

# --- owners -----------------------------------------------------------------------

# exempt(pod) is true for pods ownership does not judge: a DaemonSet's
# (node agents serve every pool: they take a pod's room on each node, not a
# pool's capacity) and those with a nodeName (they bypass the scheduler, and
# their node is named, not chosen).
exempt(pod) if pod.daemonset

# A pod its DaemonSet created (kubectl get pod -o yaml) is the DaemonSet's.
exempt(_) if {
	input.kind == "Pod"
	some ref in input.metadata.ownerReferences
	ref.kind == "DaemonSet"
	ref.controller == true
}

exempt(pod) if nodes.node_name(pod.spec) != ""

# outsider(pod, pool) is true when the workload is known not to be among
# the pool's owners: its namespace matches none of the owners' globs, or its
# pod labels do not match their selector. A workload without a namespace is
# where it is applied to (kubectl -n, Kustomize, Helm): unknown, so never an
# outsider by namespace.
outsider(_, pool) if namespace_outside(pool)

outsider(pod, pool) if labels_outside(pod, pool)

# namespace_outside(pool) is true when the object's namespace is known and
# matches none of the pool's owners' globs.
namespace_outside(pool) if {
	globs := pool.owners.namespaces
	ns := input.metadata.namespace
	is_string(ns)
	not _matches_any(globs, ns)
}

# labels_outside(pod, pool) is true when the pool's owners have a selector
# that the pod's labels do not match.
labels_outside(pod, pool) if {
	selector := pool.owners.selector
	not podaffinity.selector_matches(selector, pod_labels(pod))
}

_matches_any(globs, ns) if {
	some g in globs
	glob.match(g, [], ns)
}

# pod_labels(pod) are the labels of the pod's template (the object's own for
# a Pod): what the pods created from it carry.
pod_labels(pod) := ls if {
	ls := object.get(input, array.concat(array.slice(pod.path, 0, count(pod.path) - 1), ["metadata", "labels"]), {})
	is_object(ls)
} else := {}

# owners_text(pool) names a pool's owners, for messages.
owners_text(pool) := concat(" and ", array.concat(
	[sprintf("namespaces %s", [concat(", ", pool.owners.namespaces)]) | pool.owners.namespaces],
	[sprintf("pods labelled %s", [_selector_text(pool.owners.selector)]) | pool.owners.selector],
))

_selector_text(selector) := concat(", ", array.concat(
	[sprintf("%s=%s", [k, v]) | some k, v in object.get(selector, "matchLabels", {})],
	[sprintf("%s %s %v", [r.key, r.operator, object.get(r, "values", [])]) | some r in object.get(selector, "matchExpressions", [])],
))

# --- the verdict ------------------------------------------------------------------

# violation(pod, pool) is how a pod breaks a pool's ownership, undefined
# when it does not: "asks" when an outsider's node constraint names the
# pool's label, "lands" when an outsider tolerates the pool's taints and its
# constraint admits the pool's nodes.
violation(pod, pool) := "asks" if {
	touches(pod, pool)
	outsider(pod, pool)
	not exempt(pod)
	asks(pod.spec, pool)
} else := "lands" if {
	touches(pod, pool)
	outsider(pod, pool)
	not exempt(pod)
	count(keep_out(pool)) > 0
	tolerates(pod, pool)
	admits(pod.spec, pool)
}

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)
