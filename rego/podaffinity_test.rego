package dslint.lib.podaffinity_test

import data.dslint.lib.podaffinity

test_selector_matches if {
	not podaffinity.selector_matches(null, {"app": "web"})
	podaffinity.selector_matches({}, {})
	podaffinity.selector_matches({"matchLabels": {"app": "web"}}, {"app": "web", "tier": "x"})
	not podaffinity.selector_matches({"matchLabels": {"app": "web"}}, {"app": "db"})
	podaffinity.selector_matches({"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", "api"]}]}, {"app": "api"})
	podaffinity.selector_matches({"matchExpressions": [{"key": "app", "operator": "DoesNotExist"}]}, {})
	not podaffinity.selector_matches({"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["web"]}]}, {"app": "web"})

	# Gt and Lt are node-selector operators: a label selector rejects them.
	not podaffinity.selector_matches({"matchExpressions": [{"key": "n", "operator": "Gt", "values": ["1"]}]}, {"n": "5"})
}

test_selector_empty if {
	podaffinity.selector_empty({})
	podaffinity.selector_empty({"matchLabels": {}, "matchExpressions": []})
	not podaffinity.selector_empty({"matchLabels": {"app": "web"}})
	not podaffinity.selector_empty(null)
}

test_topology_keys if {
	spec := {
		"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {}, "topologyKey": "rack"}]}},
		"topologySpreadConstraints": [
			{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
			{"maxSkew": 1, "topologyKey": "host", "whenUnsatisfiable": "ScheduleAnyway"},
		],
	}
	podaffinity.topology_keys(spec) == {"affinity": ["rack"], "spread": ["zone"]}
	podaffinity.topology_keys({}) == {"affinity": [], "spread": []}
}

_deployment(ns, labels) := {"kind": "Deployment", "metadata": {"namespace": ns}, "spec": {"template": {"metadata": {"labels": labels}, "spec": {}}}}

_pod := {"path": ["spec", "template", "spec"]}

test_term_among_replicas_namespaces if {
	term := {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}
	podaffinity.term_among_replicas(_pod, term) with input as _deployment("shop", {"app": "web"})
	not podaffinity.term_among_replicas(_pod, term) with input as _deployment("shop", {"app": "db"})
	other := object.union(term, {"namespaces": ["billing"]})
	not podaffinity.term_among_replicas(_pod, other) with input as _deployment("shop", {"app": "web"})
	own := object.union(term, {"namespaces": ["billing", "shop"]})
	podaffinity.term_among_replicas(_pod, own) with input as _deployment("shop", {"app": "web"})
	every_ns := object.union(term, {"namespaceSelector": {}})
	podaffinity.term_among_replicas(_pod, every_ns) with input as _deployment("shop", {"app": "web"})
	labelled_ns := object.union(term, {"namespaceSelector": {"matchLabels": {"team": "a"}}})
	not podaffinity.term_among_replicas(_pod, labelled_ns) with input as _deployment("shop", {"app": "web"})
}

test_term_among_replicas_label_keys if {
	term := {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}
	sts := object.union(_deployment("shop", {"app": "web"}), {"kind": "StatefulSet"})

	# A key every replica carries alike keeps the term; one that differs
	# per replica (a StatefulSet pod's name) makes it match only itself.
	podaffinity.term_among_replicas(_pod, object.union(term, {"matchLabelKeys": ["app"]})) with input as sts
	not podaffinity.term_among_replicas(_pod, object.union(term, {"matchLabelKeys": ["statefulset.kubernetes.io/pod-name"]})) with input as sts
	not podaffinity.term_among_replicas(_pod, object.union(term, {"mismatchLabelKeys": ["app"]})) with input as sts
	podaffinity.term_among_replicas(_pod, object.union(term, {"mismatchLabelKeys": ["statefulset.kubernetes.io/pod-name"]})) with input as sts

	# pod-template-hash is alike among the replicas, but tells revisions apart.
	hashed := object.union(term, {"matchLabelKeys": ["pod-template-hash"]})
	podaffinity.term_among_replicas(_pod, hashed) with input as _deployment("shop", {"app": "web"})
	not podaffinity.term_across_revisions(_pod, hashed) with input as _deployment("shop", {"app": "web"})
	podaffinity.term_across_revisions(_pod, term) with input as _deployment("shop", {"app": "web"})
}

test_spread_binds if {
	c := {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}
	podaffinity.spread_binds(_pod, c) with input as _deployment("shop", {"app": "web"})
	not podaffinity.spread_binds(_pod, c) with input as _deployment("shop", {"app": "db"})

	# An empty selector counts no pod, unless matchLabelKeys gives it a
	# requirement.
	empty := object.union(object.remove(c, ["labelSelector"]), {"labelSelector": {}})
	not podaffinity.spread_binds(_pod, empty) with input as _deployment("shop", {"app": "web"})
	podaffinity.spread_binds(_pod, object.union(empty, {"matchLabelKeys": ["app"]})) with input as _deployment("shop", {"app": "web"})
	not podaffinity.spread_binds(_pod, object.remove(c, ["labelSelector"])) with input as _deployment("shop", {"app": "web"})
}

test_policies if {
	podaffinity.honors_affinity({})
	not podaffinity.honors_affinity({"nodeAffinityPolicy": "Ignore"})
	not podaffinity.honors_taints({})
	podaffinity.honors_taints({"nodeTaintsPolicy": "Honor"})
	podaffinity.min_domains({}) == 1
	podaffinity.min_domains({"minDomains": 3}) == 3
}
