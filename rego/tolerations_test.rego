# Toleration matching against the upstream algorithm (k8s.io/api core/v1
# Toleration.ToleratesTaint, v1.36); the "verified" cases are the ones the
# reference (§1.1) ran through the upstream function.
package dslint.lib.tolerations_test

import data.dslint.lib.tolerations

# --- Lt / Gt with the gate on (verified) -----------------------------------

test_gt_5_tolerates_taint_7 if {
	tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "7", "effect": "NoSchedule"}, true)
}

test_lt_5_does_not_tolerate_taint_7 if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Lt", "value": "5"}, {"key": "n", "value": "7", "effect": "NoSchedule"}, true)
}

test_lt_5_tolerates_taint_3 if {
	tolerations.tolerates_with_gate({"key": "n", "operator": "Lt", "value": "5"}, {"key": "n", "value": "3", "effect": "NoSchedule"}, true)
}

test_gt_5_does_not_tolerate_taint_5 if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "5", "effect": "NoSchedule"}, true)
}

test_lt_5_does_not_tolerate_taint_5 if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Lt", "value": "5"}, {"key": "n", "value": "5", "effect": "NoSchedule"}, true)
}

test_gt_5_does_not_tolerate_non_canonical_taint_007 if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "007", "effect": "NoSchedule"}, true)
}

test_gt_non_canonical_toleration_value_matches_nothing if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "+1"}, {"key": "n", "value": "7", "effect": "NoSchedule"}, true)
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "01"}, {"key": "n", "value": "7", "effect": "NoSchedule"}, true)
}

test_gt_non_numeric_taint_value_matches_nothing if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "high", "effect": "NoSchedule"}, true)
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Lt", "value": "5"}, {"key": "n", "effect": "NoSchedule"}, true)
}

test_gt_negative_values if {
	tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "-3"}, {"key": "n", "value": "-2", "effect": "NoSchedule"}, true)
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "-3"}, {"key": "n", "value": "-4", "effect": "NoSchedule"}, true)
}

# int64 values one apart at the top of the range must compare exactly, as
# strconv.ParseInt values do (no float rounding).
test_gt_compares_large_int64_exactly if {
	tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "9223372036854775806"}, {"key": "n", "value": "9223372036854775807"}, true)
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Lt", "value": "9223372036854775806"}, {"key": "n", "value": "9223372036854775807"}, true)
}

test_gt_taint_value_beyond_int64_matches_nothing if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "9223372036854775808"}, true)
}

# --- Lt / Gt with the gate off (the default) --------------------------------

test_gt_with_gate_off_never_matches if {
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "7", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate({"key": "n", "operator": "Lt", "value": "5"}, {"key": "n", "value": "3", "effect": "NoSchedule"}, false)
}

test_tolerates_reads_the_gate_from_config if {
	tolerations.tolerates({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "7"}) with data.dslint.config as {"featureGates": {"TaintTolerationComparisonOperators": true}}
	not tolerations.tolerates({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "7"}) with data.dslint.config as {"featureGates": {"TaintTolerationComparisonOperators": false}}
}

test_tolerates_defaults_to_gate_off if {
	not tolerations.tolerates({"key": "n", "operator": "Gt", "value": "5"}, {"key": "n", "value": "7"})
	tolerations.tolerates({"key": "n", "operator": "Exists"}, {"key": "n", "value": "7"})
}

# --- keys, values, effects (verified) ----------------------------------------

test_empty_key_exists_matches_anything if {
	t := {"operator": "Exists"}
	tolerations.tolerates_with_gate(t, {"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}, false)
	tolerations.tolerates_with_gate(t, {"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}, false)
	tolerations.tolerates_with_gate(t, {"key": "k", "value": "v", "effect": "PreferNoSchedule"}, false)
}

test_all_empty_toleration_matches_taints_with_empty_value if {
	tolerations.tolerates_with_gate({}, {"key": "anything", "effect": "NoSchedule"}, false)
	tolerations.tolerates_with_gate({}, {"key": "other", "value": "", "effect": "NoExecute"}, false)
	not tolerations.tolerates_with_gate({}, {"key": "anything", "value": "x", "effect": "NoSchedule"}, false)
}

test_empty_key_with_value_matches_any_key_with_that_value if {
	t := {"value": "b"}
	tolerations.tolerates_with_gate(t, {"key": "a", "value": "b", "effect": "NoSchedule"}, false)
	tolerations.tolerates_with_gate(t, {"key": "z", "value": "b", "effect": "NoExecute"}, false)
	not tolerations.tolerates_with_gate(t, {"key": "a", "value": "c", "effect": "NoSchedule"}, false)
}

test_key_only_equal_matches_empty_value_only if {
	t := {"key": "a"}
	tolerations.tolerates_with_gate(t, {"key": "a", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate(t, {"key": "a", "value": "b", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate(t, {"key": "b", "effect": "NoSchedule"}, false)
}

test_noschedule_toleration_does_not_match_prefernoschedule_taint if {
	not tolerations.tolerates_with_gate({"key": "a", "operator": "Exists", "effect": "NoSchedule"}, {"key": "a", "effect": "PreferNoSchedule"}, false)
}

test_empty_effect_matches_every_effect if {
	t := {"key": "a", "operator": "Exists"}
	tolerations.tolerates_with_gate(t, {"key": "a", "effect": "NoSchedule"}, false)
	tolerations.tolerates_with_gate(t, {"key": "a", "effect": "PreferNoSchedule"}, false)
	tolerations.tolerates_with_gate(t, {"key": "a", "effect": "NoExecute"}, false)
}

test_effect_must_be_equal_when_set if {
	not tolerations.tolerates_with_gate({"key": "a", "operator": "Exists", "effect": "NoExecute"}, {"key": "a", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate({"key": "a", "operator": "Exists", "effect": "noschedule"}, {"key": "a", "effect": "NoSchedule"}, false)
}

test_equal_compares_values_exactly if {
	tolerations.tolerates_with_gate({"key": "a", "operator": "Equal", "value": "gpu"}, {"key": "a", "value": "gpu", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate({"key": "a", "operator": "Equal", "value": "GPU"}, {"key": "a", "value": "gpu", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate({"key": "a", "operator": "Equal", "value": "gpu"}, {"key": "A", "value": "gpu", "effect": "NoSchedule"}, false)
}

test_exists_ignores_the_value if {
	tolerations.tolerates_with_gate({"key": "a", "operator": "Exists", "value": "other"}, {"key": "a", "value": "gpu", "effect": "NoSchedule"}, false)
}

test_operators_are_case_sensitive if {
	not tolerations.tolerates_with_gate({"key": "a", "operator": "exists"}, {"key": "a", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate({"key": "a", "operator": "equal"}, {"key": "a", "effect": "NoSchedule"}, false)
	not tolerations.tolerates_with_gate({"operator": "exists"}, {"key": "a", "effect": "NoSchedule"}, true)
}

# A YAML null (`value:` left empty, as a Helm template with an empty value
# renders it) decodes into "" in the Go struct, so it matches like "".
test_null_fields_read_as_empty if {
	tolerations.tolerates_with_gate({"key": "a", "value": null}, {"key": "a", "effect": "NoSchedule"}, false)
	tolerations.tolerates_with_gate({"key": "a", "operator": "Exists", "effect": null}, {"key": "a", "effect": "NoSchedule"}, false)
	tolerations.field({"value": null}, "value") == ""
}

# tolerationSeconds plays no part in matching, even 0.
test_toleration_seconds_is_ignored_for_matching if {
	tolerations.tolerates_with_gate({"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0}, {"key": "a", "effect": "NoExecute"}, false)
}

# --- lists and rendering ------------------------------------------------------

test_tolerated_is_any_toleration if {
	taint := {"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}
	tolerations.tolerated([{"key": "other", "operator": "Exists"}, {"key": "dedicated", "value": "gpu"}], taint)
	not tolerations.tolerated([{"key": "other", "operator": "Exists"}, {"key": "dedicated", "value": "cpu"}], taint)
	not tolerations.tolerated([], taint)
}

test_string_of_taint if {
	tolerations.string_of_taint({"key": "k", "value": "v", "effect": "NoSchedule"}) == "k=v:NoSchedule"
	tolerations.string_of_taint({"key": "k", "effect": "NoExecute"}) == "k:NoExecute"
	tolerations.string_of_taint({"key": "k", "value": "v"}) == "k=v"
	tolerations.string_of_taint({"key": "k"}) == "k"
}

test_daemonset_auto_tolerations_without_host_network if {
	auto := tolerations.daemonset_auto_tolerations({})
	count(auto) == 6
	{t.key | some t in auto} == {
		"node.kubernetes.io/not-ready",
		"node.kubernetes.io/unreachable",
		"node.kubernetes.io/disk-pressure",
		"node.kubernetes.io/memory-pressure",
		"node.kubernetes.io/pid-pressure",
		"node.kubernetes.io/unschedulable",
	}
	not tolerations.tolerated(auto, {"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"})
	not tolerations.tolerated(auto, {"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"})
	tolerations.tolerated(auto, {"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"})
	every t in auto {
		t.operator == "Exists"
		not t.tolerationSeconds
	}
}

test_daemonset_auto_tolerations_with_host_network if {
	auto := tolerations.daemonset_auto_tolerations({"hostNetwork": true})
	count(auto) == 7
	tolerations.tolerated(auto, {"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"})
}

# --- the DaemonSet controller's replacements ------------------------------------

_nr := "node.kubernetes.io/not-ready"

_net := "node.kubernetes.io/network-unavailable"

test_daemonset_replacement_is_match_toleration if {
	auto := {"key": _nr, "operator": "Exists", "effect": "NoExecute"}
	tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 5}) == auto
	tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Exists", "effect": "NoExecute", "value": ""}) == auto
	tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Exists", "effect": "NoExecute", "value": null}) == auto
	not tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Exists", "effect": "NoExecute", "value": "x"})
	not tolerations.daemonset_replacement({}, {"key": _nr, "effect": "NoExecute"})
	not tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Equal", "effect": "NoExecute"})
	not tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Exists", "effect": "NoSchedule"})
	not tolerations.daemonset_replacement({}, {"key": _nr, "operator": "Exists"})
	not tolerations.daemonset_replacement({}, {"operator": "Exists", "effect": "NoExecute"})
	not tolerations.daemonset_replacement({}, "a string")
	not tolerations.daemonset_replacement({}, null)
}

test_daemonset_replacement_of_network_unavailable_needs_host_network if {
	t := {"key": _net, "operator": "Exists", "effect": "NoSchedule"}
	tolerations.daemonset_replacement({"hostNetwork": true}, t) == t
	not tolerations.daemonset_replacement({}, t)
	not tolerations.daemonset_replacement({"hostNetwork": "true"}, t)
}

test_daemonset_replacement_agrees_with_same_toleration if {
	candidates := [
		{"key": _nr, "operator": "Exists", "effect": "NoExecute"},
		{"key": _nr, "operator": "Exists", "effect": "NoExecute", "value": ""},
		{"key": _nr, "operator": "Exists", "effect": "NoExecute", "value": "v"},
		{"key": _nr, "operator": "Equal", "effect": "NoExecute"},
		{"key": _nr, "effect": "NoExecute"},
		{"key": _net, "operator": "Exists", "effect": "NoSchedule"},
		{"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 1},
		{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"},
		{"operator": "Exists"},
		{},
		"x",
	]
	every spec in [{}, {"hostNetwork": true}] {
		every t in candidates {
			{a | some a in tolerations.daemonset_auto_tolerations(spec); tolerations.same_toleration(t, a)} == {a | a := tolerations.daemonset_replacement(spec, t)}
		}
	}
}

test_daemonset_pod_tolerations if {
	not_ready := {"key": _nr, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
	own := {"key": "dedicated", "operator": "Exists"}
	pod := tolerations.daemonset_pod_tolerations({"tolerations": [not_ready, "x", own]})
	pod[0] == {"key": _nr, "operator": "Exists", "effect": "NoExecute"}
	pod[1] == "x"
	pod[2] == own
	[t.key | some t in array.slice(pod, 3, 8)] == [
		"node.kubernetes.io/unreachable",
		"node.kubernetes.io/disk-pressure",
		"node.kubernetes.io/memory-pressure",
		"node.kubernetes.io/pid-pressure",
		"node.kubernetes.io/unschedulable",
	]
	count(pod) == 8
}

test_daemonset_pod_tolerations_without_tolerations if {
	tolerations.daemonset_pod_tolerations({}) == tolerations.daemonset_auto_tolerations({})
	tolerations.daemonset_pod_tolerations({"tolerations": null}) == tolerations.daemonset_auto_tolerations({})
	count(tolerations.daemonset_pod_tolerations({"hostNetwork": true})) == 7
}

# --- field and operator edge cases --------------------------------------------------

test_field_of_non_mappings_is_empty if {
	tolerations.field("x", "key") == ""
	tolerations.field(["key"], "key") == ""
	tolerations.field(null, "key") == ""
	tolerations.field({"key": false}, "key") == false
}

test_entries_that_are_not_mappings_are_the_empty_toleration if {
	tolerations.tolerates_with_gate("x", {"key": "a", "effect": "NoSchedule"}, false)
	tolerations.tolerates_with_gate(null, {"key": "a", "effect": "NoExecute"}, true)
	not tolerations.tolerates_with_gate("x", {"key": "a", "value": "v", "effect": "NoSchedule"}, false)
}

test_absent_or_null_operator_is_equal if {
	tolerations.tolerates_with_gate({"key": "a", "value": "v"}, {"key": "a", "value": "v"}, false)
	tolerations.tolerates_with_gate({"key": "a", "operator": null, "value": "v"}, {"key": "a", "value": "v"}, false)
	tolerations.tolerates_with_gate({"key": "a", "operator": "", "value": "v"}, {"key": "a", "value": "v"}, false)
	not tolerations.tolerates_with_gate({"key": "a", "operator": null, "value": "v"}, {"key": "a", "value": "w"}, false)
	not tolerations.tolerates_with_gate({"key": "a", "operator": 5}, {"key": "a"}, true)
}

test_text_writes_the_fields_given_in_the_api_order if {
	tolerations.text({"effect": "NoSchedule", "operator": "Exists", "key": "a"}) == "{key: a, operator: Exists, effect: NoSchedule}"
	tolerations.text({"key": "a", "operator": "Equal", "value": "b c", "tolerationSeconds": 30, "effect": "NoExecute"}) == `{key: a, operator: Equal, value: "b c", effect: NoExecute, tolerationSeconds: 30}`
	tolerations.text({"operator": "Exists", "value": "", "effect": null}) == "{operator: Exists}"
}

test_control_plane_counterpart if {
	cp := "node-role.kubernetes.io/control-plane"
	master := "node-role.kubernetes.io/master"
	tolerations.control_plane_counterpart({"key": master, "operator": "Exists", "effect": "NoSchedule"}) == {"key": cp, "operator": "Exists", "effect": "NoSchedule"}
	tolerations.control_plane_counterpart({"key": master, "value": "true", "effect": "NoExecute", "tolerationSeconds": 60}) == {"key": cp, "operator": "Equal", "value": "true", "effect": "NoExecute", "tolerationSeconds": 60}
	tolerations.control_plane_counterpart({"key": master, "operator": "Equal", "value": "", "effect": ""}) == {"key": cp, "operator": "Exists"}
}

test_hands_over_eviction if {
	taint := {"key": "k", "effect": "NoExecute"}
	first := {"key": "k", "operator": "Exists", "effect": "NoExecute"}
	later := {"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}
	tolerations.hands_over_eviction([first, later], 0, first, taint)
	not tolerations.hands_over_eviction([first, first], 0, first, taint) # the same timeout
	not tolerations.hands_over_eviction([later, first], 1, first, taint) # not the first
	not tolerations.hands_over_eviction([first], 0, first, taint) # none after it
}
