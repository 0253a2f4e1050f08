# METADATA
# description: |
#   Required pod affinity, pod anti-affinity and DoNotSchedule topology
#   spread, as they act among the replicas of one workload (reference §11,
#   §12): the terms and constraints a pod template states, the label
#   selectors they hold (metav1.LabelSelectorAsSelector), and whether a
#   replica's term or constraint matches the other replicas of its
#   workload, once the API server has merged matchLabelKeys and
#   mismatchLabelKeys into its selector and the controller has added its
#   labels. Other pods of the cluster are not modelled: a term that only
#   matches them says nothing here.
package dslint.lib.podaffinity

import data.dslint.lib.nodeaffinity

# --- what a pod spec states ----------------------------------------------------------

# affinity_terms(spec) are the required pod affinity terms of a pod spec,
# with their paths from the spec: [[path, term], ...]. Only required terms
# filter nodes; preferred ones score.
affinity_terms(spec) := _terms(spec, "podAffinity")

# anti_affinity_terms(spec) are the required pod anti-affinity terms.
anti_affinity_terms(spec) := _terms(spec, "podAntiAffinity")

_terms(spec, kind) := [[path, term] |
	field := ["affinity", kind, "requiredDuringSchedulingIgnoredDuringExecution"]
	some i, term in _list(object.get(spec, field, []))
	is_object(term)
	is_string(term.topologyKey)
	term.topologyKey != ""
	path := array.concat(field, [i])
]

# spread_constraints(spec) are the topology spread constraints the
# scheduler's Filter applies (whenUnsatisfiable: DoNotSchedule), with their
# paths: [[path, constraint], ...].
spread_constraints(spec) := [[["topologySpreadConstraints", i], c] |
	some i, c in _list(object.get(spec, "topologySpreadConstraints", []))
	is_object(c)
	c.whenUnsatisfiable == "DoNotSchedule"
	is_string(c.topologyKey)
	c.topologyKey != ""
]

# topology_keys(spec) are the label keys a node must have for a pod of the
# spec to land on it: every required pod affinity term's topologyKey
# ("affinity") and every DoNotSchedule spread constraint's ("spread"),
# each sorted (reference §11.3 Filter step 1, §12.3 step 1).
topology_keys(spec) := {
	"affinity": sort({t.topologyKey | some [_, t] in affinity_terms(spec)}),
	"spread": sort({c.topologyKey | some [_, c] in spread_constraints(spec)}),
}

# --- label selectors -----------------------------------------------------------------

# selector_matches(selector, labels) is LabelSelectorAsSelector(selector)
# .Matches(labels): a missing (null) selector matches nothing, {} matches
# every label set, and a requirement whose operator a label selector does
# not take (Gt, Lt, anything else) makes the selector match nothing.
selector_matches(selector, labels) if {
	is_object(selector)
	every key, value in _object(object.get(selector, "matchLabels", {})) {
		labels[key] == value
	}
	every req in _list(object.get(selector, "matchExpressions", [])) {
		req.operator in {"In", "NotIn", "Exists", "DoesNotExist"}
		nodeaffinity.requirement_matches(req, labels)
	}
}

# selector_empty(selector) is labels.Selector.Empty() of a selector with
# no requirements at all ({}): a spread constraint with one counts no pod
# (reference §12.2), although it selects every pod.
selector_empty(selector) if {
	is_object(selector)
	count(_object(object.get(selector, "matchLabels", {}))) == 0
	count(_list(object.get(selector, "matchExpressions", []))) == 0
}

# --- among the replicas of a workload ---------------------------------------------------

# replica_labels(pod) are the labels the pod template gives each replica
# (metadata.labels beside the spec), for a pod of k8s.pods.
replica_labels(pod) := _object(object.get(input, array.concat(array.slice(pod.path, 0, count(pod.path) - 1), ["metadata", "labels"]), {}))

# Labels the controllers add to each pod: some the same on every replica
# (the ReplicaSet's pod-template-hash), some different on each (a
# StatefulSet pod's name and index, an Indexed Job's completion index).
_shared_controller_labels := {
	"Deployment": {"pod-template-hash"},
	"StatefulSet": {"controller-revision-hash"},
	"DaemonSet": {"controller-revision-hash", "pod-template-generation"},
	"Job": {"batch.kubernetes.io/job-name", "job-name", "batch.kubernetes.io/controller-uid", "controller-uid"},
	"CronJob": {"batch.kubernetes.io/job-name", "job-name", "batch.kubernetes.io/controller-uid", "controller-uid"},
}

_unique_controller_labels := {
	"StatefulSet": {"statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index"},
	"Job": {"batch.kubernetes.io/job-completion-index"},
	"CronJob": {"batch.kubernetes.io/job-completion-index"},
}

# _alike(pod, key): every replica carries label key with one value.
_alike(pod, key) if replica_labels(pod)[key]

_alike(_, key) if key in object.get(_shared_controller_labels, input.kind, set())

# _apart(key): every replica carries label key with a value of its own.
_apart(key) if key in object.get(_unique_controller_labels, input.kind, set())

# term_among_replicas(pod, term) is true when a replica's pod (anti-)affinity
# term matches the other replicas of its workload (reference §11.1-§11.2):
# their namespace is the term's (no namespaces and no namespaceSelector: the
# pod's own; a namespaceSelector {}: every one; or one of its namespaces),
# its labelSelector matches their labels, no matchLabelKeys key differs
# between replicas, and no mismatchLabelKeys key is alike on them. A term
# whose namespaceSelector has requirements depends on the Namespace objects
# and is taken not to match.
term_among_replicas(pod, term) if {
	_namespace_matches(term)
	selector_matches(term.labelSelector, replica_labels(pod))
	every key in _list(object.get(term, "matchLabelKeys", [])) {
		not _apart(key)
	}
	every key in _list(object.get(term, "mismatchLabelKeys", [])) {
		not _alike(pod, key)
	}
}

_namespace_matches(term) if {
	count(_list(object.get(term, "namespaces", []))) == 0
	object.get(term, "namespaceSelector", null) == null
}

_namespace_matches(term) if term.namespaceSelector == {}

_namespace_matches(term) if input.metadata.namespace in _list(term.namespaces)

# term_across_revisions(pod, term) is true when the term of a new
# ReplicaSet's pod also matches the old ReplicaSet's pods during a rolling
# update: it matches among the replicas and does not tell revisions apart by
# pod-template-hash in matchLabelKeys (reference §14.2).
term_across_revisions(pod, term) if {
	term_among_replicas(pod, term)
	not "pod-template-hash" in _list(object.get(term, "matchLabelKeys", []))
}

# spread_binds(pod, constraint) is true when a DoNotSchedule spread
# constraint counts the workload's own replicas (reference §12.2-§12.3):
# its selector, with matchLabelKeys merged, is not empty and matches them,
# and no matchLabelKeys key differs between replicas. Otherwise it never
# limits how many replicas land (it only asks for its topology key).
spread_binds(pod, constraint) if {
	selector_matches(constraint.labelSelector, replica_labels(pod))
	not _counts_nothing(pod, constraint)
	every key in _list(object.get(constraint, "matchLabelKeys", [])) {
		not _apart(key)
	}
}

_counts_nothing(pod, constraint) if {
	selector_empty(constraint.labelSelector)
	not _merges_a_key(pod, constraint)
}

_merges_a_key(pod, constraint) if {
	some key in _list(object.get(constraint, "matchLabelKeys", []))
	_alike(pod, key)
}

# max_skew(constraint) and min_domains(constraint) are the constraint's
# numbers, with the API's default for minDomains (1).
max_skew(constraint) := constraint.maxSkew

min_domains(constraint) := object.get(constraint, "minDomains", 1)

# honors_affinity(constraint) and honors_taints(constraint): the node
# inclusion policies, Honor and Ignore by default (reference §12.1).
honors_affinity(constraint) if object.get(constraint, "nodeAffinityPolicy", "Honor") == "Honor"

honors_taints(constraint) if constraint.nodeTaintsPolicy == "Honor"

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)

_object(x) := x if is_object(x)

_object(x) := {} if not is_object(x)
