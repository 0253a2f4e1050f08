# Node selectors and required node affinity against the upstream algorithm
# (component-helpers nodeaffinity and apimachinery labels, v0.36); the
# "verified" cases are the ones the reference (§3) ran through the upstream
# functions. internal/differential compares the library with those functions
# on generated cases.
package dslint.lib.nodeaffinity_test

import data.dslint.lib.nodeaffinity as na

_node(name, ls) := {"metadata": {"name": name, "labels": ls}}

_gpu := _node("n1", {"role": "gpu", "size": "010"})

_req(key, op, values) := {"key": key, "operator": op, "values": values}

_term(exprs) := {"matchExpressions": exprs}

_ns(terms) := {"nodeSelectorTerms": terms}

_pod(selector, required) := {"nodeSelector": selector, "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}}

# --- spec.nodeSelector (§3.1) ---------------------------------------------------

test_node_selector_missing_label_with_empty_value_does_not_match if {
	# verified: {role: ""} vs a node with role=gpu is false
	not na.pod_matches_node({"nodeSelector": {"role": ""}}, _node("n1", {"role": "gpu"}))
	not na.pod_matches_node({"nodeSelector": {"team": ""}}, _gpu)
	na.pod_matches_node({"nodeSelector": {"role": ""}}, _node("n1", {"role": ""}))
}

test_node_selector_is_an_and_of_exact_values if {
	na.pod_matches_node({"nodeSelector": {"role": "gpu", "size": "010"}}, _gpu)
	not na.pod_matches_node({"nodeSelector": {"role": "gpu", "size": "10"}}, _gpu)
	not na.pod_matches_node({"nodeSelector": {"role": "GPU"}}, _gpu)
}

test_absent_or_empty_node_selector_places_no_constraint if {
	na.pod_matches_node({}, _gpu)
	na.pod_matches_node({"nodeSelector": {}}, _gpu)
	na.pod_matches_node({"nodeSelector": null}, _node("", {}))
	na.pod_matches_node({"affinity": {"nodeAffinity": {}}}, _gpu)
	na.pod_matches_node({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}}, _gpu)
}

test_node_selector_and_affinity_must_both_match if {
	na.pod_matches_node(_pod({"role": "gpu"}, _ns([_term([_req("size", "Exists", [])])])), _gpu)
	not na.pod_matches_node(_pod({"role": "cpu"}, _ns([_term([_req("size", "Exists", [])])])), _gpu)
	not na.pod_matches_node(_pod({"role": "gpu"}, _ns([_term([_req("size", "DoesNotExist", [])])])), _gpu)
}

test_set_required_affinity_without_terms_matches_nothing if {
	not na.pod_matches_node(_pod({}, {}), _gpu)
	not na.pod_matches_node(_pod({}, {"nodeSelectorTerms": null}), _gpu)
	not na.pod_matches_node(_pod({}, _ns([])), _gpu)
}

# --- terms (§3.1) ----------------------------------------------------------------

test_empty_term_matches_nothing if {
	# verified: [{}] is false; [{}, {role In gpu}] is true
	not na.node_selector_matches(_ns([{}]), _gpu)
	not na.node_selector_matches(_ns([{"matchExpressions": [], "matchFields": null}]), _gpu)
	not na.node_selector_matches(_ns([null]), _gpu)
	na.node_selector_matches(_ns([{}, _term([_req("role", "In", ["gpu"])])]), _gpu)
}

test_empty_term_list_matches_nothing if {
	# verified: nodeSelectorTerms: [] is false
	not na.node_selector_matches(_ns([]), _gpu)
	not na.node_selector_matches({}, _gpu)
	not na.node_selector_matches({"nodeSelectorTerms": null}, _gpu)
}

test_terms_are_ored if {
	na.node_selector_matches(_ns([_term([_req("role", "In", ["cpu"])]), _term([_req("role", "In", ["gpu"])])]), _gpu)
	not na.node_selector_matches(_ns([_term([_req("role", "In", ["cpu"])]), _term([_req("role", "In", ["tpu"])])]), _gpu)
}

test_requirements_in_a_term_are_anded if {
	na.term_matches(_term([_req("role", "In", ["gpu"]), _req("size", "Exists", [])]), _gpu)
	not na.term_matches(_term([_req("role", "In", ["gpu"]), _req("size", "DoesNotExist", [])]), _gpu)
	na.term_matches({"matchExpressions": [_req("role", "In", ["gpu"])], "matchFields": [_req("metadata.name", "In", ["n1"])]}, _gpu)
	not na.term_matches({"matchExpressions": [_req("role", "In", ["gpu"])], "matchFields": [_req("metadata.name", "In", ["n2"])]}, _gpu)
}

test_a_term_that_fails_to_parse_fails_alone if {
	# verified: [{op: Foo}, {role Exists}] is true
	na.node_selector_matches(_ns([_term([_req("role", "Foo", ["gpu"])]), _term([_req("role", "Exists", [])])]), _gpu)
	not na.node_selector_matches(_ns([_term([_req("role", "Foo", ["gpu"])])]), _gpu)
}

test_one_bad_requirement_fails_the_whole_term if {
	# NotIn on an absent label would match, but the bad key spoils the term.
	not na.term_matches(_term([_req("team", "NotIn", ["x"]), _req("-bad", "Exists", [])]), _gpu)
	not na.term_matches({"matchExpressions": [_req("role", "In", ["gpu"])], "matchFields": [_req("metadata.name", "In", ["n1", "n2"])]}, _gpu)
}

test_gt_with_a_non_integer_matches_nothing if {
	# verified: [{n Gt "abc"}] is false (a parse error)
	not na.node_selector_matches(_ns([_term([_req("n", "Gt", ["abc"])])]), _node("n1", {"n": "5"}))
	not na.requirement_parses(_req("n", "Gt", ["abc"]))
}

# --- operators (§3.2) ----------------------------------------------------------------

test_in_needs_the_label_with_one_of_the_values if {
	na.requirement_matches(_req("role", "In", ["cpu", "gpu"]), {"role": "gpu"})
	not na.requirement_matches(_req("role", "In", ["cpu"]), {"role": "gpu"})
	not na.requirement_matches(_req("role", "In", [""]), {})
	na.requirement_matches(_req("role", "In", [""]), {"role": ""})
}

test_not_in_holds_for_a_missing_label if {
	# verified: NotIn with the key missing is true
	na.requirement_matches(_req("team", "NotIn", ["a"]), {"role": "gpu"})
	na.requirement_matches(_req("role", "NotIn", ["cpu"]), {"role": "gpu"})
	not na.requirement_matches(_req("role", "NotIn", ["cpu", "gpu"]), {"role": "gpu"})
	na.node_selector_matches(_ns([_term([_req("team", "NotIn", ["a"])])]), _gpu)
}

test_exists_and_does_not_exist_test_presence if {
	na.requirement_matches(_req("role", "Exists", []), {"role": ""})
	not na.requirement_matches(_req("role", "Exists", []), {})
	na.requirement_matches(_req("role", "DoesNotExist", []), {"other": "x"})
	not na.requirement_matches(_req("role", "DoesNotExist", []), {"role": ""})
	na.requirement_matches({"key": "role", "operator": "Exists"}, {"role": "gpu"})
}

test_gt_parses_label_with_leading_zeros if {
	# verified: Gt 5 matches label "010"
	na.requirement_matches(_req("size", "Gt", ["5"]), {"size": "010"})
	na.node_selector_matches(_ns([_term([_req("size", "Gt", ["5"])])]), _gpu)
	na.requirement_matches(_req("size", "Gt", ["005"]), {"size": "6"})
	na.requirement_matches(_req("size", "Lt", ["5"]), {"size": "+4"})
	na.requirement_matches(_req("size", "Lt", ["0"]), {"size": "-1"})
}

test_gt_and_lt_compare_strictly if {
	not na.requirement_matches(_req("n", "Gt", ["5"]), {"n": "5"})
	not na.requirement_matches(_req("n", "Lt", ["5"]), {"n": "5"})
	na.requirement_matches(_req("n", "Lt", ["5"]), {"n": "4"})
	not na.requirement_matches(_req("n", "Lt", ["5"]), {"n": "6"})
}

test_gt_and_lt_keep_int64_precision if {
	na.requirement_matches(_req("n", "Gt", ["9223372036854775806"]), {"n": "9223372036854775807"})
	not na.requirement_matches(_req("n", "Gt", ["9223372036854775807"]), {"n": "9223372036854775807"})
	na.requirement_matches(_req("n", "Lt", ["9007199254740993"]), {"n": "9007199254740992"})
}

test_gt_missing_or_non_integer_label_never_matches if {
	not na.requirement_matches(_req("n", "Gt", ["5"]), {})
	not na.requirement_matches(_req("n", "Lt", ["5"]), {"n": "abc"})
	not na.requirement_matches(_req("n", "Lt", ["5"]), {"n": ""})
	not na.requirement_matches(_req("n", "Gt", ["5"]), {"n": "99999999999999999999"})
}

test_negative_threshold_is_not_a_valid_label_value if {
	# verified: "-1" fails NewRequirement, as does "+5"
	not na.requirement_parses(_req("n", "Gt", ["-1"]))
	not na.requirement_parses(_req("n", "Lt", ["+5"]))
	na.requirement_parses(_req("n", "Gt", ["007"]))
	not na.node_selector_matches(_ns([_term([_req("n", "Gt", ["-1"])])]), _node("n1", {"n": "5"}))
}

test_gt_and_lt_need_exactly_one_int64_value if {
	not na.requirement_parses(_req("n", "Gt", []))
	not na.requirement_parses(_req("n", "Gt", ["1", "2"]))
	not na.requirement_parses(_req("n", "Lt", ["99999999999999999999"]))
	na.requirement_parses(_req("n", "Lt", ["9223372036854775807"]))
	not na.requirement_parses(_req("n", "Lt", ["9223372036854775808"]))
}

test_in_and_not_in_need_valid_values if {
	na.requirement_parses(_req("role", "In", ["gpu"]))
	na.requirement_parses(_req("role", "NotIn", [""]))
	not na.requirement_parses(_req("role", "In", []))
	not na.requirement_parses({"key": "role", "operator": "NotIn"})
	not na.requirement_parses(_req("role", "In", ["has space"]))
	not na.requirement_parses(_req("role", "NotIn", ["ok", "-bad"]))
}

test_exists_and_does_not_exist_take_no_values if {
	na.requirement_parses(_req("role", "Exists", []))
	na.requirement_parses({"key": "role", "operator": "DoesNotExist"})
	not na.requirement_parses(_req("role", "Exists", ["gpu"]))
	not na.requirement_parses(_req("role", "DoesNotExist", [""]))
}

test_operators_are_case_sensitive if {
	not na.requirement_parses(_req("role", "in", ["gpu"]))
	not na.requirement_parses(_req("role", "exists", []))
	not na.requirement_parses(_req("role", "GT", ["1"]))
	not na.requirement_parses(_req("role", "", []))
	not na.requirement_parses({"key": "role"})
	not na.node_selector_matches(_ns([_term([_req("role", "in", ["gpu"])])]), _gpu)
}

test_key_must_be_a_qualified_name if {
	na.requirement_parses(_req("example.com/role", "Exists", []))
	not na.requirement_parses(_req("-bad", "Exists", []))
	not na.requirement_parses(_req("", "DoesNotExist", []))
	not na.requirement_parses({"operator": "DoesNotExist"})
	not na.requirement_parses(_req("Example.com/role", "Exists", []))
	not na.requirement_parses(_req("a/b/c", "Exists", []))
}

# --- matchFields (§3.3) -----------------------------------------------------------

test_match_fields_compare_the_node_name if {
	na.field_requirement_matches(_req("metadata.name", "In", ["n1"]), "n1")
	not na.field_requirement_matches(_req("metadata.name", "In", ["n1"]), "n2")
	na.field_requirement_matches(_req("metadata.name", "NotIn", ["n1"]), "n2")
	not na.field_requirement_matches(_req("metadata.name", "NotIn", ["n1"]), "n1")
}

test_match_fields_need_in_or_not_in_with_one_value if {
	# verified: metadata.name In [a, b] and Exists are parse errors
	na.field_requirement_parses(_req("metadata.name", "In", ["a"]))
	na.field_requirement_parses(_req("metadata.name", "NotIn", ["a"]))
	not na.field_requirement_parses(_req("metadata.name", "In", ["a", "b"]))
	not na.field_requirement_parses(_req("metadata.name", "In", []))
	not na.field_requirement_parses(_req("metadata.name", "Exists", []))
	not na.field_requirement_parses(_req("metadata.name", "in", ["a"]))
	not na.node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1", "n2"])]}]), _gpu)
}

test_unknown_field_key_reads_as_empty if {
	# verified: an unknown field key reads as "", so NotIn x is true
	na.field_requirement_parses(_req("metadata.labels", "NotIn", ["x"]))
	na.field_requirement_matches(_req("metadata.labels", "NotIn", ["x"]), "n1")
	na.field_requirement_matches(_req("spec.unschedulable", "In", [""]), "n1")
	na.node_selector_matches(_ns([{"matchFields": [_req("metadata.labels", "NotIn", ["x"])]}]), _gpu)
	not na.node_selector_matches(_ns([{"matchFields": [_req("metadata.labels", "In", ["x"])]}]), _gpu)
}

test_node_without_a_name_skips_match_fields if {
	# verified: with an empty node name matchFields match
	na.node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), _node("", {}))
	na.node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), {"metadata": {}})
	na.node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), {})

	# but they must still parse
	not na.node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "Exists", [])]}]), _node("", {}))
}

# --- JSON shapes -------------------------------------------------------------------

test_mistyped_values_do_not_match if {
	not na.requirement_parses(_req("role", "In", "gpu"))
	not na.requirement_parses(_req("role", "In", [1]))
	not na.requirement_parses({"key": 1, "operator": "Exists"})
	not na.term_matches({"matchExpressions": "role"}, _gpu)
	not na.node_selector_matches({"nodeSelectorTerms": {}}, _gpu)
	not na.node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "NotIn", ["x"])]}]), {"metadata": {"name": 7}})
	na.node_selector_matches(_ns([_term([_req("role", "Exists", [])])]), {"metadata": {"name": 7, "labels": {"role": ""}}})
	not na.pod_matches_node({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": false}}}, _gpu)
	not na.pod_matches_node({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": "x"}}}, _gpu)
	not na.pod_matches_node({"nodeSelector": {"size": 10}}, _node("n1", {"size": "10"}))
}

test_node_labels_and_name_default if {
	na.node_labels({}) == {}
	na.node_labels({"metadata": {"labels": null}}) == {}
	na.node_labels(_gpu) == {"role": "gpu", "size": "010"}
	na.node_name({}) == ""
	na.node_name(_gpu) == "n1"
}
