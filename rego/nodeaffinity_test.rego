# Node selectors and required node affinity against the upstream algorithm
# (component-helpers nodeaffinity and apimachinery labels, v0.36); the
# "verified" cases are the ones the reference (§3) ran through the upstream
# functions. internal/differential compares the library with those functions
# on generated cases.
package dslint.lib.nodeaffinity

_node(name, ls) := {"metadata": {"name": name, "labels": ls}}

_gpu := _node("n1", {"role": "gpu", "size": "010"})

_req(key, op, values) := {"key": key, "operator": op, "values": values}

_term(exprs) := {"matchExpressions": exprs}

_ns(terms) := {"nodeSelectorTerms": terms}

_pod(selector, required) := {"nodeSelector": selector, "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}}

# --- spec.nodeSelector (§3.1) ---------------------------------------------------

test_node_selector_missing_label_with_empty_value_does_not_match if {
	# verified: {role: ""} vs a node with role=gpu is false
	not pod_matches_node({"nodeSelector": {"role": ""}}, _node("n1", {"role": "gpu"}))
	not pod_matches_node({"nodeSelector": {"team": ""}}, _gpu)
	pod_matches_node({"nodeSelector": {"role": ""}}, _node("n1", {"role": ""}))
}

test_node_selector_is_an_and_of_exact_values if {
	pod_matches_node({"nodeSelector": {"role": "gpu", "size": "010"}}, _gpu)
	not pod_matches_node({"nodeSelector": {"role": "gpu", "size": "10"}}, _gpu)
	not pod_matches_node({"nodeSelector": {"role": "GPU"}}, _gpu)
}

test_absent_or_empty_node_selector_places_no_constraint if {
	pod_matches_node({}, _gpu)
	pod_matches_node({"nodeSelector": {}}, _gpu)
	pod_matches_node({"nodeSelector": null}, _node("", {}))
	pod_matches_node({"affinity": {"nodeAffinity": {}}}, _gpu)
	pod_matches_node({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}}, _gpu)
}

test_node_selector_and_affinity_must_both_match if {
	pod_matches_node(_pod({"role": "gpu"}, _ns([_term([_req("size", "Exists", [])])])), _gpu)
	not pod_matches_node(_pod({"role": "cpu"}, _ns([_term([_req("size", "Exists", [])])])), _gpu)
	not pod_matches_node(_pod({"role": "gpu"}, _ns([_term([_req("size", "DoesNotExist", [])])])), _gpu)
}

test_set_required_affinity_without_terms_matches_nothing if {
	not pod_matches_node(_pod({}, {}), _gpu)
	not pod_matches_node(_pod({}, {"nodeSelectorTerms": null}), _gpu)
	not pod_matches_node(_pod({}, _ns([])), _gpu)
}

# --- terms (§3.1) ----------------------------------------------------------------

test_empty_term_matches_nothing if {
	# verified: [{}] is false; [{}, {role In gpu}] is true
	not node_selector_matches(_ns([{}]), _gpu)
	not node_selector_matches(_ns([{"matchExpressions": [], "matchFields": null}]), _gpu)
	not node_selector_matches(_ns([null]), _gpu)
	node_selector_matches(_ns([{}, _term([_req("role", "In", ["gpu"])])]), _gpu)
}

test_empty_term_list_matches_nothing if {
	# verified: nodeSelectorTerms: [] is false
	not node_selector_matches(_ns([]), _gpu)
	not node_selector_matches({}, _gpu)
	not node_selector_matches({"nodeSelectorTerms": null}, _gpu)
}

test_terms_are_ored if {
	node_selector_matches(_ns([_term([_req("role", "In", ["cpu"])]), _term([_req("role", "In", ["gpu"])])]), _gpu)
	not node_selector_matches(_ns([_term([_req("role", "In", ["cpu"])]), _term([_req("role", "In", ["tpu"])])]), _gpu)
}

test_requirements_in_a_term_are_anded if {
	term_matches(_term([_req("role", "In", ["gpu"]), _req("size", "Exists", [])]), _gpu)
	not term_matches(_term([_req("role", "In", ["gpu"]), _req("size", "DoesNotExist", [])]), _gpu)
	term_matches({"matchExpressions": [_req("role", "In", ["gpu"])], "matchFields": [_req("metadata.name", "In", ["n1"])]}, _gpu)
	not term_matches({"matchExpressions": [_req("role", "In", ["gpu"])], "matchFields": [_req("metadata.name", "In", ["n2"])]}, _gpu)
}

test_a_term_that_fails_to_parse_fails_alone if {
	# verified: [{op: Foo}, {role Exists}] is true
	node_selector_matches(_ns([_term([_req("role", "Foo", ["gpu"])]), _term([_req("role", "Exists", [])])]), _gpu)
	not node_selector_matches(_ns([_term([_req("role", "Foo", ["gpu"])])]), _gpu)
}

test_one_bad_requirement_fails_the_whole_term if {
	# NotIn on an absent label would match, but the bad key spoils the term.
	not term_matches(_term([_req("team", "NotIn", ["x"]), _req("-bad", "Exists", [])]), _gpu)
	not term_matches({"matchExpressions": [_req("role", "In", ["gpu"])], "matchFields": [_req("metadata.name", "In", ["n1", "n2"])]}, _gpu)
}

test_gt_with_a_non_integer_matches_nothing if {
	# verified: [{n Gt "abc"}] is false (a parse error)
	not node_selector_matches(_ns([_term([_req("n", "Gt", ["abc"])])]), _node("n1", {"n": "5"}))
	not requirement_parses(_req("n", "Gt", ["abc"]))
}

# --- operators (§3.2) ----------------------------------------------------------------

test_in_needs_the_label_with_one_of_the_values if {
	requirement_matches(_req("role", "In", ["cpu", "gpu"]), {"role": "gpu"})
	not requirement_matches(_req("role", "In", ["cpu"]), {"role": "gpu"})
	not requirement_matches(_req("role", "In", [""]), {})
	requirement_matches(_req("role", "In", [""]), {"role": ""})
}

test_not_in_holds_for_a_missing_label if {
	# verified: NotIn with the key missing is true
	requirement_matches(_req("team", "NotIn", ["a"]), {"role": "gpu"})
	requirement_matches(_req("role", "NotIn", ["cpu"]), {"role": "gpu"})
	not requirement_matches(_req("role", "NotIn", ["cpu", "gpu"]), {"role": "gpu"})
	node_selector_matches(_ns([_term([_req("team", "NotIn", ["a"])])]), _gpu)
}

test_exists_and_does_not_exist_test_presence if {
	requirement_matches(_req("role", "Exists", []), {"role": ""})
	not requirement_matches(_req("role", "Exists", []), {})
	requirement_matches(_req("role", "DoesNotExist", []), {"other": "x"})
	not requirement_matches(_req("role", "DoesNotExist", []), {"role": ""})
	requirement_matches({"key": "role", "operator": "Exists"}, {"role": "gpu"})
}

test_gt_parses_label_with_leading_zeros if {
	# verified: Gt 5 matches label "010"
	requirement_matches(_req("size", "Gt", ["5"]), {"size": "010"})
	node_selector_matches(_ns([_term([_req("size", "Gt", ["5"])])]), _gpu)
	requirement_matches(_req("size", "Gt", ["005"]), {"size": "6"})
	requirement_matches(_req("size", "Lt", ["5"]), {"size": "+4"})
	requirement_matches(_req("size", "Lt", ["0"]), {"size": "-1"})
}

test_gt_and_lt_compare_strictly if {
	not requirement_matches(_req("n", "Gt", ["5"]), {"n": "5"})
	not requirement_matches(_req("n", "Lt", ["5"]), {"n": "5"})
	requirement_matches(_req("n", "Lt", ["5"]), {"n": "4"})
	not requirement_matches(_req("n", "Lt", ["5"]), {"n": "6"})
}

test_gt_and_lt_keep_int64_precision if {
	requirement_matches(_req("n", "Gt", ["9223372036854775806"]), {"n": "9223372036854775807"})
	not requirement_matches(_req("n", "Gt", ["9223372036854775807"]), {"n": "9223372036854775807"})
	requirement_matches(_req("n", "Lt", ["9007199254740993"]), {"n": "9007199254740992"})
}

test_gt_missing_or_non_integer_label_never_matches if {
	not requirement_matches(_req("n", "Gt", ["5"]), {})
	not requirement_matches(_req("n", "Lt", ["5"]), {"n": "abc"})
	not requirement_matches(_req("n", "Lt", ["5"]), {"n": ""})
	not requirement_matches(_req("n", "Gt", ["5"]), {"n": "99999999999999999999"})
}

test_negative_threshold_is_not_a_valid_label_value if {
	# verified: "-1" fails NewRequirement, as does "+5"
	not requirement_parses(_req("n", "Gt", ["-1"]))
	not requirement_parses(_req("n", "Lt", ["+5"]))
	requirement_parses(_req("n", "Gt", ["007"]))
	not node_selector_matches(_ns([_term([_req("n", "Gt", ["-1"])])]), _node("n1", {"n": "5"}))
}

test_gt_and_lt_need_exactly_one_int64_value if {
	not requirement_parses(_req("n", "Gt", []))
	not requirement_parses(_req("n", "Gt", ["1", "2"]))
	not requirement_parses(_req("n", "Lt", ["99999999999999999999"]))
	requirement_parses(_req("n", "Lt", ["9223372036854775807"]))
	not requirement_parses(_req("n", "Lt", ["9223372036854775808"]))
}

test_in_and_not_in_need_valid_values if {
	requirement_parses(_req("role", "In", ["gpu"]))
	requirement_parses(_req("role", "NotIn", [""]))
	not requirement_parses(_req("role", "In", []))
	not requirement_parses({"key": "role", "operator": "NotIn"})
	not requirement_parses(_req("role", "In", ["has space"]))
	not requirement_parses(_req("role", "NotIn", ["ok", "-bad"]))
}

test_exists_and_does_not_exist_take_no_values if {
	requirement_parses(_req("role", "Exists", []))
	requirement_parses({"key": "role", "operator": "DoesNotExist"})
	not requirement_parses(_req("role", "Exists", ["gpu"]))
	not requirement_parses(_req("role", "DoesNotExist", [""]))
}

test_operators_are_case_sensitive if {
	not requirement_parses(_req("role", "in", ["gpu"]))
	not requirement_parses(_req("role", "exists", []))
	not requirement_parses(_req("role", "GT", ["1"]))
	not requirement_parses(_req("role", "", []))
	not requirement_parses({"key": "role"})
	not node_selector_matches(_ns([_term([_req("role", "in", ["gpu"])])]), _gpu)
}

test_key_must_be_a_qualified_name if {
	requirement_parses(_req("example.com/role", "Exists", []))
	not requirement_parses(_req("-bad", "Exists", []))
	not requirement_parses(_req("", "DoesNotExist", []))
	not requirement_parses({"operator": "DoesNotExist"})
	not requirement_parses(_req("Example.com/role", "Exists", []))
	not requirement_parses(_req("a/b/c", "Exists", []))
}

# --- matchFields (§3.3) -----------------------------------------------------------

test_match_fields_compare_the_node_name if {
	field_requirement_matches(_req("metadata.name", "In", ["n1"]), "n1")
	not field_requirement_matches(_req("metadata.name", "In", ["n1"]), "n2")
	field_requirement_matches(_req("metadata.name", "NotIn", ["n1"]), "n2")
	not field_requirement_matches(_req("metadata.name", "NotIn", ["n1"]), "n1")
}

test_match_fields_need_in_or_not_in_with_one_value if {
	# verified: metadata.name In [a, b] and Exists are parse errors
	field_requirement_parses(_req("metadata.name", "In", ["a"]))
	field_requirement_parses(_req("metadata.name", "NotIn", ["a"]))
	not field_requirement_parses(_req("metadata.name", "In", ["a", "b"]))
	not field_requirement_parses(_req("metadata.name", "In", []))
	not field_requirement_parses(_req("metadata.name", "Exists", []))
	not field_requirement_parses(_req("metadata.name", "in", ["a"]))
	not node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1", "n2"])]}]), _gpu)
}

test_unknown_field_key_reads_as_empty if {
	# verified: an unknown field key reads as "", so NotIn x is true
	field_requirement_parses(_req("metadata.labels", "NotIn", ["x"]))
	field_requirement_matches(_req("metadata.labels", "NotIn", ["x"]), "n1")
	field_requirement_matches(_req("spec.unschedulable", "In", [""]), "n1")
	node_selector_matches(_ns([{"matchFields": [_req("metadata.labels", "NotIn", ["x"])]}]), _gpu)
	not node_selector_matches(_ns([{"matchFields": [_req("metadata.labels", "In", ["x"])]}]), _gpu)
}

test_node_without_a_name_skips_match_fields if {
	# verified: with an empty node name matchFields match
	node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), _node("", {}))
	node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), {"metadata": {}})
	node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "In", ["n1"])]}]), {})

	# but they must still parse
	not node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "Exists", [])]}]), _node("", {}))
}

# --- JSON shapes -------------------------------------------------------------------

test_mistyped_values_do_not_match if {
	not requirement_parses(_req("role", "In", "gpu"))
	not requirement_parses(_req("role", "In", [1]))
	not requirement_parses({"key": 1, "operator": "Exists"})
	not term_matches({"matchExpressions": "role"}, _gpu)
	not node_selector_matches({"nodeSelectorTerms": {}}, _gpu)
	not node_selector_matches(_ns([{"matchFields": [_req("metadata.name", "NotIn", ["x"])]}]), {"metadata": {"name": 7}})
	node_selector_matches(_ns([_term([_req("role", "Exists", [])])]), {"metadata": {"name": 7, "labels": {"role": ""}}})
	not pod_matches_node({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": false}}}, _gpu)
	not pod_matches_node({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": "x"}}}, _gpu)
	not pod_matches_node({"nodeSelector": {"size": 10}}, _node("n1", {"size": "10"}))
}

test_node_labels_and_name_default if {
	node_labels({}) == {}
	node_labels({"metadata": {"labels": null}}) == {}
	node_labels(_gpu) == {"role": "gpu", "size": "010"}
	node_name({}) == ""
	node_name(_gpu) == "n1"
}
