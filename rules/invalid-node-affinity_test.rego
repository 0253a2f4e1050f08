package dslint.rules["invalid-node-affinity_test"]

import data.dslint.rules["invalid-node-affinity"] as rule

_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "trainer", "namespace": "ml"},
	"spec": {
		"selector": {"matchLabels": {"app": "trainer"}},
		"template": {
			"metadata": {"labels": {"app": "trainer"}},
			"spec": object.union({"containers": [{"name": "main", "image": "trainer:1.0"}]}, spec),
		},
	},
}

_tpl := ["spec", "template", "spec"]

_na := array.concat(_tpl, ["affinity", "nodeAffinity"])

_req_path := array.concat(_na, ["requiredDuringSchedulingIgnoredDuringExecution"])

_tpl_terms := array.concat(_req_path, ["nodeSelectorTerms"])

_pref_path := array.concat(_na, ["preferredDuringSchedulingIgnoredDuringExecution"])

# _expr_path(i, j, rest) is the path into matchExpressions[j] of required term i.
_expr_path(i, j, rest) := array.concat(_tpl_terms, array.concat([i, "matchExpressions", j], rest))

_field_path(i, j, rest) := array.concat(_tpl_terms, array.concat([i, "matchFields", j], rest))

_with_required(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_with_preferred(items) := {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": items}}}

# _expr(req) is a Deployment with one required term holding req.
_expr(req) := _deployment(_with_required([{"matchExpressions": [req]}]))

_field(req) := _deployment(_with_required([{"matchFields": [req]}]))

_in(key, values) := {"key": key, "operator": "In", "values": values}

_f(path, message) := {"path": path, "message": message}

# _quoted(path, message) is a finding whose fix quotes the value at its path,
# which YAML read as a boolean or a number.
_quoted(path, message) := {"path": path, "message": message, "fix": [{"op": "quote", "path": path}]}

_name_problem := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

_value_problem := "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

_placeholder := " (it looks like a placeholder left in the manifest)"

_operator_list := "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\" or \"Lt\""

_scoring := "the scheduler then fails to score nodes with this preference, and the pod is not scheduled while more than one node fits"

# --- valid manifests are silent -------------------------------------------------------

test_valid_constraints if {
	rule.report == set() with input as _deployment(object.union(
		{"nodeSelector": {"kubernetes.io/os": "linux", "example.com/pool": "ml", "empty": ""}},
		{"affinity": {"nodeAffinity": {
			"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
				{"matchExpressions": [
					_in("nvidia.com/gpu.product", ["A100", "H100"]),
					{"key": "spot", "operator": "DoesNotExist"},
					{"key": "dedicated", "operator": "Exists", "values": []},
					{"key": "cores", "operator": "Gt", "values": ["8"]},
					{"key": "gen", "operator": "Lt", "values": ["010"]},
				]},
				{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["node-1.example.com"]}]},
			]},
			"preferredDuringSchedulingIgnoredDuringExecution": [
				{"weight": 1, "preference": {"matchExpressions": [_in("zone", ["a"])]}},
				{"weight": 100, "preference": {}},
			],
		}}},
	))
}

test_no_affinity_at_all if {
	rule.report == set() with input as _deployment({})
	rule.report == set() with input as _deployment({"nodeSelector": null, "affinity": {"nodeAffinity": null}})
}

# --- nodeSelector --------------------------------------------------------------------------

test_node_selector_invalid_key if {
	r := rule.report with input as _deployment({"nodeSelector": {"-pool": "ml"}})
	r == {_f(array.concat(_tpl, ["nodeSelector", "-pool"]), sprintf("nodeSelector key \"-pool\" is not a valid label key: %s", [_name_problem]))}
}

test_node_selector_invalid_value if {
	r := rule.report with input as _deployment({"nodeSelector": {"pool": "gpu nodes"}})
	r == {_f(array.concat(_tpl, ["nodeSelector", "pool"]), sprintf("nodeSelector value \"gpu nodes\" of \"pool\" is not a valid label value: %s", [_value_problem]))}
}

test_node_selector_placeholder if {
	r := rule.report with input as _deployment({"nodeSelector": {"kubernetes.io/hostname": "<node-name>"}})
	r == {_f(array.concat(_tpl, ["nodeSelector", "kubernetes.io/hostname"]), sprintf("nodeSelector value \"<node-name>\" of \"kubernetes.io/hostname\" is not a valid label value: %s%s", [_value_problem, _placeholder]))}
	s := rule.report with input as _deployment({"nodeSelector": {"pool": "${POOL}"}})
	s == {_f(array.concat(_tpl, ["nodeSelector", "pool"]), sprintf("nodeSelector value \"${POOL}\" of \"pool\" is not a valid label value: %s%s", [_value_problem, _placeholder]))}
}

test_node_selector_value_too_long if {
	value := concat("", [x | some _ in numbers.range(1, 64); x := "a"])
	r := rule.report with input as _deployment({"nodeSelector": {"pool": value}})
	r == {_f(array.concat(_tpl, ["nodeSelector", "pool"]), sprintf("nodeSelector value %q of \"pool\" is not a valid label value: must be no more than 63 characters", [value]))}
}

test_node_selector_boolean_value if {
	r := rule.report with input as _deployment({"nodeSelector": {"nvidia.com/gpu.present": true}})
	r == {_quoted(array.concat(_tpl, ["nodeSelector", "nvidia.com/gpu.present"]), "nodeSelector value ⟦written:true⟧ of \"nvidia.com/gpu.present\" is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")")}
}

test_node_selector_number_value if {
	r := rule.report with input as _deployment({"nodeSelector": {"cores": 8}})
	r == {_quoted(array.concat(_tpl, ["nodeSelector", "cores"]), "nodeSelector value ⟦written:8⟧ of \"cores\" is not a string (YAML reads it as the number 8); quote it (\"⟦written:8⟧\")")}
}

# A null, a mapping or a list has no text to quote: their findings carry no
# fix, and neither does a string value's problem.
test_node_selector_values_without_one_repair_carry_no_fix if {
	r := rule.report with input as _deployment({"nodeSelector": {"pool": {"name": "gpu"}, "zone": ["a"], "rack": "not ok"}})
	count(r) == 3
	every f in r {
		not f.fix
	}
}

test_node_selector_as_list if {
	r := rule.report with input as _deployment({"nodeSelector": [{"pool": "ml"}]})
	r == {_f(array.concat(_tpl, ["nodeSelector"]), "nodeSelector must be a mapping of node label keys to values, not a list; write \"key: value\" pairs without \"- \"")}
}

# --- required: shape ------------------------------------------------------------------------

# The shape of kubernetes/website's pod-with-node-affinity.yaml.
test_required_written_as_list if {
	r := rule.report with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
		"preference": {"matchExpressions": [_in("topology.kubernetes.io/zone", ["antarctica-east1"])]},
		"weight": 5,
	}]}}})
	r == {_f(_req_path, "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not a list: the API server rejects the pod; list items with weight and preference belong under preferredDuringSchedulingIgnoredDuringExecution")}
}

test_required_written_as_list_of_terms if {
	r := rule.report with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"matchExpressions": [_in("pool", ["a"])]}]}}})
	r == {_f(_req_path, "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not a list: the API server rejects the pod; write it as nodeSelectorTerms: [{matchExpressions: [...]}]")}
}

test_required_as_string if {
	r := rule.report with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": "pool=ml"}}})
	r == {_f(_req_path, "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not \"pool=ml\"")}
}

_no_terms := _f(_tpl_terms, "required node affinity must have at least one node selector term: the API server rejects an empty nodeSelectorTerms (and it would match no node)")

test_empty_node_selector_terms if {
	rule.report == {_no_terms} with input as _deployment(_with_required([]))
}

test_missing_node_selector_terms if {
	rule.report == {_no_terms} with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}})
	rule.report == {_no_terms} with input as _deployment(_with_required(null))
}

test_node_selector_terms_as_mapping if {
	r := rule.report with input as _deployment(_with_required({"matchExpressions": [_in("pool", ["a"])]}))
	r == {_f(_tpl_terms, "nodeSelectorTerms must be a list of node selector terms, not a mapping; write \"- matchExpressions: ...\"")}
}

test_empty_term_alone if {
	r := rule.report with input as _deployment(_with_required([{}]))
	r == {_f(array.concat(_tpl_terms, [0]), "node selector term is empty and matches no node: the API server accepts it, but with no other term no node can run these pods; add matchExpressions or matchFields")}
}

test_empty_term_among_others if {
	r := rule.report with input as _deployment(_with_required([
		{"matchExpressions": [_in("pool", ["a"])]},
		{"matchExpressions": [], "matchFields": null},
	]))
	r == {_f(array.concat(_tpl_terms, [1]), "node selector term is empty and matches no node: the API server accepts it, and as terms are ORed it adds nothing; remove it")}
}

test_null_term_is_empty if {
	r := rule.report with input as _deployment(_with_required([null]))
	r == {_f(array.concat(_tpl_terms, [0]), "node selector term is empty and matches no node: the API server accepts it, but with no other term no node can run these pods; add matchExpressions or matchFields")}
}

test_requirement_written_into_the_term if {
	r := rule.report with input as _deployment(_with_required([_in("pool", ["a"])]))
	r == {_f(array.concat(_tpl_terms, [0]), "node selector term has \"key\", \"operator\" and \"values\" directly: put the requirement under matchExpressions (as written, the API server rejects the unknown fields or drops them, leaving a term that matches no node)")}
}

test_term_as_string if {
	r := rule.report with input as _deployment(_with_required(["pool In a"]))
	r == {_f(array.concat(_tpl_terms, [0]), "node selector term must be a mapping with matchExpressions or matchFields, not \"pool In a\"")}
}

test_match_expressions_as_mapping if {
	r := rule.report with input as _deployment(_with_required([{"matchExpressions": _in("pool", ["a"])}]))
	r == {_f(array.concat(_tpl_terms, [0, "matchExpressions"]), "matchExpressions must be a list of requirements, not a mapping; write \"- key: ...\"")}
}

test_requirement_as_string if {
	r := rule.report with input as _expr("pool=a")
	r == {_f(_expr_path(0, 0, []), "requirement must be a mapping with key, operator and values, not \"pool=a\"")}
}

# --- matchExpressions ------------------------------------------------------------------------

test_in_without_values if {
	r := rule.report with input as _expr({"key": "pool", "operator": "In"})
	r == {_f(_expr_path(0, 0, ["values"]), "values must be specified when operator is \"In\": list the label values to match")}
	s := rule.report with input as _expr({"key": "pool", "operator": "NotIn", "values": []})
	s == {_f(_expr_path(0, 0, ["values"]), "values must be specified when operator is \"NotIn\": list the label values to exclude")}
}

test_exists_or_does_not_exist_with_values if {
	r := rule.report with input as _expr({"key": "pool", "operator": "Exists", "values": ["a"]})
	r == {_f(_expr_path(0, 0, ["values"]), "values must be empty when operator is \"Exists\": it matches any value of the label; remove the values, or use operator \"In\" to match only them")}
	s := rule.report with input as _expr({"key": "pool", "operator": "DoesNotExist", "values": ["a"]})
	s == {_f(_expr_path(0, 0, ["values"]), "values must be empty when operator is \"DoesNotExist\": it matches nodes without the label; remove the values, or use operator \"NotIn\" to exclude only them")}
}

test_gt_without_exactly_one_value if {
	r := rule.report with input as _expr({"key": "cores", "operator": "Gt", "values": ["4", "8"]})
	r == {_f(_expr_path(0, 0, ["values"]), "operator \"Gt\" needs exactly one value, the integer to compare the label with, not 2")}
	s := rule.report with input as _expr({"key": "cores", "operator": "Lt"})
	s == {_f(_expr_path(0, 0, ["values"]), "operator \"Lt\" needs exactly one value, the integer to compare the label with, not 0")}
}

test_gt_with_a_non_integer if {
	r := rule.report with input as _expr({"key": "cores", "operator": "Gt", "values": ["eight"]})
	r == {_f(_expr_path(0, 0, ["values", 0]), "value \"eight\" of operator \"Gt\" is not an integer: the API server accepts it, but the requirement never matches, so its node selector term matches no node")}
	s := rule.report with input as _expr({"key": "mem", "operator": "Lt", "values": ["1.5"]})
	s == {_f(_expr_path(0, 0, ["values", 0]), "value \"1.5\" of operator \"Lt\" is not an integer: the API server accepts it, but the requirement never matches, so its node selector term matches no node")}
}

# ParseInt accepts leading zeros; a negative number is not a label value.
test_gt_integer_forms if {
	rule.report == set() with input as _expr({"key": "cores", "operator": "Gt", "values": ["007"]})
	r := rule.report with input as _expr({"key": "cores", "operator": "Gt", "values": ["-1"]})
	r == {_f(_expr_path(0, 0, ["values", 0]), sprintf("node affinity value \"-1\" is not a valid label value: %s", [_value_problem]))}
}

test_gt_with_an_unquoted_number if {
	r := rule.report with input as _expr({"key": "cores", "operator": "Gt", "values": [8]})
	r == {_quoted(_expr_path(0, 0, ["values", 0]), "value ⟦written:8⟧ is not a string (YAML reads it as the number 8); quote it (\"⟦written:8⟧\")")}
}

test_unknown_operator_wrong_case if {
	r := rule.report with input as _expr({"key": "pool", "operator": "in", "values": ["a"]})
	r == {_f(_expr_path(0, 0, ["operator"]), sprintf("node affinity operator \"in\" is not a valid selector operator: use %s (did you mean \"In\"?)", [_operator_list]))}
}

test_unknown_operator_aliases if {
	r := rule.report with input as _expr({"key": "pool", "operator": "NotExists"})
	r == {_f(_expr_path(0, 0, ["operator"]), sprintf("node affinity operator \"NotExists\" is not a valid selector operator: use %s (did you mean \"DoesNotExist\"?)", [_operator_list]))}
	s := rule.report with input as _expr({"key": "pool", "operator": "Equals", "values": ["a"]})
	s == {_f(_expr_path(0, 0, ["operator"]), sprintf("node affinity operator \"Equals\" is not a valid selector operator: use %s (did you mean \"In\"?)", [_operator_list]))}
	t := rule.report with input as _expr({"key": "pool", "operator": "Like", "values": ["a"]})
	t == {_f(_expr_path(0, 0, ["operator"]), sprintf("node affinity operator \"Like\" is not a valid selector operator: use %s", [_operator_list]))}
}

test_missing_operator if {
	r := rule.report with input as _expr({"key": "pool", "values": ["a"]})
	r == {_f(_expr_path(0, 0, ["operator"]), sprintf("node affinity requirement needs an operator: %s", [_operator_list]))}
}

test_missing_key if {
	r := rule.report with input as _expr({"operator": "Exists"})
	r == {_f(_expr_path(0, 0, ["key"]), "node affinity requirement needs a key: the node label to match")}
}

test_invalid_key if {
	r := rule.report with input as _expr(_in("Example.com/pool", ["a"]))
	r == {_f(_expr_path(0, 0, ["key"]), "node affinity key \"Example.com/pool\" is not a valid label key: prefix part must be a lowercase DNS subdomain: lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character")}
}

test_invalid_values if {
	r := rule.report with input as _expr(_in("pool", ["ok", "not ok", true]))
	r == {
		_f(_expr_path(0, 0, ["values", 1]), sprintf("node affinity value \"not ok\" is not a valid label value: %s", [_value_problem])),
		_quoted(_expr_path(0, 0, ["values", 2]), "value ⟦written:true⟧ is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")"),
	}
}

# A requirement's value in a preference, and a node name of matchFields,
# that YAML read as a number are quoted too; a null or a mapping is not.
test_misread_values_of_preferences_and_match_fields if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [_in("gen", [5, null, {"a": "b"}])]}}]))
	r == {
		_quoted(array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 0]), "value ⟦written:5⟧ is not a string (YAML reads it as the number 5); quote it (\"⟦written:5⟧\")"),
		_f(array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 1]), "value ⟦written:null⟧ is not a string (YAML reads it as the null null); quote it (\"⟦written:null⟧\")"),
		_f(array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 2]), "value ⟦written:{\"a\": \"b\"}⟧ is not a string (YAML reads it as the object {\"a\":\"b\"}); quote it (\"⟦written:{\"a\": \"b\"}⟧\")"),
	}
	s := rule.report with input as _field({"key": "metadata.name", "operator": "In", "values": [42]})
	s == {_quoted(_field_path(0, 0, ["values", 0]), "value ⟦written:42⟧ is not a string (YAML reads it as the number 42); quote it (\"⟦written:42⟧\")")}
}

test_values_as_string if {
	r := rule.report with input as _expr({"key": "pool", "operator": "In", "values": "gpu"})
	r == {_f(_expr_path(0, 0, ["values"]), "values must be a list, not \"gpu\"; write values: [\"gpu\"]")}
}

test_several_problems_in_several_terms if {
	r := rule.report with input as _deployment(_with_required([
		{"matchExpressions": [_in("pool", ["a"]), {"key": "gpu", "operator": "exists"}]},
		{"matchExpressions": [{"key": "zone", "operator": "In"}]},
	]))
	r == {
		_f(_expr_path(0, 1, ["operator"]), sprintf("node affinity operator \"exists\" is not a valid selector operator: use %s (did you mean \"Exists\"?)", [_operator_list])),
		_f(_expr_path(1, 0, ["values"]), "values must be specified when operator is \"In\": list the label values to match"),
	}
}

# --- matchFields -----------------------------------------------------------------------------

test_match_fields_key_other_than_metadata_name if {
	r := rule.report with input as _field({"key": "metadata.labels", "operator": "In", "values": ["a"]})
	r == {_f(_field_path(0, 0, ["key"]), "matchFields key \"metadata.labels\" is not a valid field selector key: the only node field is \"metadata.name\"")}
	s := rule.report with input as _field({"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-1"]})
	s == {_f(_field_path(0, 0, ["key"]), "matchFields key \"kubernetes.io/hostname\" is not a valid field selector key: the only node field is \"metadata.name\"; select node labels with matchExpressions")}
}

test_match_fields_missing_key if {
	r := rule.report with input as _field({"operator": "In", "values": ["node-1"]})
	r == {_f(_field_path(0, 0, ["key"]), "matchFields requirement needs key \"metadata.name\", the only node field")}
}

test_match_fields_operator if {
	r := rule.report with input as _field({"key": "metadata.name", "operator": "Exists"})
	r == {_f(_field_path(0, 0, ["operator"]), "matchFields operator \"Exists\" is not supported: use \"In\" or \"NotIn\"")}
	s := rule.report with input as _field({"key": "metadata.name", "operator": "notin", "values": ["a"]})
	s == {_f(_field_path(0, 0, ["operator"]), "matchFields operator \"notin\" is not supported: use \"In\" or \"NotIn\" (did you mean \"NotIn\"?)")}
}

test_match_fields_with_two_values if {
	r := rule.report with input as _field({"key": "metadata.name", "operator": "In", "values": ["node-1", "node-2"]})
	r == {_f(_field_path(0, 0, ["values"]), "matchFields needs exactly one value with operator \"In\", not 2: to allow several nodes, write one node selector term per node name (terms are ORed)")}
	s := rule.report with input as _field({"key": "metadata.name", "operator": "NotIn", "values": []})
	s == {_f(_field_path(0, 0, ["values"]), "matchFields needs exactly one value with operator \"NotIn\", not 0: to exclude several nodes, write one matchFields requirement per node name (requirements are ANDed)")}
}

_node_name_problem := "is not a valid node name: it must be a lowercase DNS-1123 subdomain (lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character, at most 253 characters)"

test_match_fields_invalid_node_name if {
	r := rule.report with input as _field({"key": "metadata.name", "operator": "In", "values": ["Node_1"]})
	r == {_f(_field_path(0, 0, ["values", 0]), sprintf("matchFields value \"Node_1\" %s", [_node_name_problem]))}
	s := rule.report with input as _field({"key": "metadata.name", "operator": "In", "values": ["<node-name>"]})
	s == {_f(_field_path(0, 0, ["values", 0]), sprintf("matchFields value \"<node-name>\" %s%s", [_node_name_problem, _placeholder]))}
}

# --- preferred ----------------------------------------------------------------------------------

test_weight_out_of_range if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": 0, "preference": {"matchExpressions": [_in("a", ["b"])]}}]))
	r == {_f(array.concat(_pref_path, [0, "weight"]), "preference weight 0 must be in the range 1-100")}
	s := rule.report with input as _deployment(_with_preferred([{"weight": 101, "preference": {}}]))
	s == {_f(array.concat(_pref_path, [0, "weight"]), "preference weight 101 must be in the range 1-100")}
	t := rule.report with input as _deployment(_with_preferred([{"weight": 2.5, "preference": {}}]))
	t == {_f(array.concat(_pref_path, [0, "weight"]), "preference weight 2.5 must be in the range 1-100")}
}

test_weight_missing if {
	r := rule.report with input as _deployment(_with_preferred([
		{"weight": 1, "preference": {}},
		{"preference": {"matchExpressions": [_in("a", ["b"])]}},
	]))
	r == {_f(array.concat(_pref_path, [1, "weight"]), "preferred scheduling term needs a weight from 1 to 100: without one the weight is 0, which the API server rejects")}
}

test_weight_as_string if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": "50", "preference": {}}]))
	r == {_f(array.concat(_pref_path, [0, "weight"]), "preference weight \"50\" must be an integer from 1 to 100; remove the quotes")}
}

test_preferred_as_mapping if {
	r := rule.report with input as _deployment(_with_preferred({"nodeSelectorTerms": [{"matchExpressions": [_in("a", ["b"])]}]}))
	r == {_f(_pref_path, "preferredDuringSchedulingIgnoredDuringExecution must be a list of weighted preferences (weight and preference), not a mapping; nodeSelectorTerms belong under requiredDuringSchedulingIgnoredDuringExecution")}
}

test_preferred_item_without_preference_level if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": 10, "matchExpressions": [_in("a", ["b"])]}]))
	r == {_f(array.concat(_pref_path, [0]), "preferred scheduling term has \"matchExpressions\" directly: put matchExpressions or matchFields under preference")}
}

test_preferred_requirement_errors if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [{"key": "a", "operator": "IN", "values": ["b"]}]}}]))
	r == {_f(array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "operator"]), sprintf("node affinity operator \"IN\" is not a valid selector operator: use %s (did you mean \"In\"?)", [_operator_list]))}
}

# The API server lets invalid label values and non-integer Gt values into a
# preference; the scheduler then errors while scoring.
test_preferred_invalid_value_breaks_scoring if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [_in("a", ["b c"])]}}]))
	r == {_f(
		array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 0]),
		sprintf("node affinity value \"b c\" is not a valid label value: %s (the API server accepts it in a preference, but %s)", [_value_problem, _scoring]),
	)}
	s := rule.report with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [{"key": "cores", "operator": "Gt", "values": ["many"]}]}}]))
	s == {_f(
		array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 0]),
		sprintf("value \"many\" of operator \"Gt\" is not an integer: the API server accepts it, but %s", [_scoring]),
	)}
}

test_preferred_match_fields if {
	r := rule.report with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchFields": [{"key": "spec.unschedulable", "operator": "In", "values": ["false"]}]}}]))
	r == {_f(array.concat(_pref_path, [0, "preference", "matchFields", 0, "key"]), "matchFields key \"spec.unschedulable\" is not a valid field selector key: the only node field is \"metadata.name\"; select node labels with matchExpressions")}
}

# --- kinds ------------------------------------------------------------------------------------

_list_form := "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not a list: the API server rejects the pod; list items with weight and preference belong under preferredDuringSchedulingIgnoredDuringExecution"

test_pod_path if {
	r := rule.report with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "with-node-affinity"},
		"spec": {"containers": [{"name": "c", "image": "i"}], "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"weight": 5, "preference": {}}]}}},
	}
	r == {_f(["spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"], _list_form)}
}

test_daemonset_is_an_error_too if {
	r := rule.report with input as object.union(_deployment({"nodeSelector": {"pool": false}}), {"kind": "DaemonSet"})
	r == {_quoted(array.concat(_tpl, ["nodeSelector", "pool"]), "nodeSelector value ⟦written:false⟧ of \"pool\" is not a string (YAML reads it as the boolean false); quote it (\"⟦written:false⟧\")")}
}

test_cronjob_path if {
	r := rule.report with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, _with_required([{"matchExpressions": [{"key": "a", "operator": "DoesNotExists"}]}]))}}}},
	}
	r == {_f(
		["spec", "jobTemplate", "spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchExpressions", 0, "operator"],
		sprintf("node affinity operator \"DoesNotExists\" is not a valid selector operator: use %s (did you mean \"DoesNotExist\"?)", [_operator_list]),
	)}
}

test_unknown_custom_resource_is_not_checked if {
	rule.report == set() with input as object.union(_deployment({"nodeSelector": {"pool": true}}), {"apiVersion": "example.com/v1"})
}

# --- every workload kind ----------------------------------------------------------------

# _every_kind(spec) holds a workload of each built-in kind with spec as its
# pod spec, and the path to that pod spec.
_every_kind(spec) := [[w, path] |
	some [head, path] in [
		[{"apiVersion": "v1", "kind": "Pod"}, ["spec"]],
		[{"apiVersion": "v1", "kind": "PodTemplate"}, ["template", "spec"]],
		[{"apiVersion": "v1", "kind": "ReplicationController"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "Deployment"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "ReplicaSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "StatefulSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "DaemonSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "batch/v1", "kind": "Job"}, ["spec", "template", "spec"]],
		[{"apiVersion": "batch/v1", "kind": "CronJob"}, ["spec", "jobTemplate", "spec", "template", "spec"]],
	]
	w := object.union(
		object.union(head, {"metadata": {"name": "w"}}),
		_nest(path, object.union({"containers": [{"name": "main", "image": "app:1.0"}]}, spec)),
	)
]

_nest([a], v) := {a: v}

_nest([a, b], v) := {a: {b: v}}

_nest([a, b, c], v) := {a: {b: {c: v}}}

_nest([a, b, c, d, e], v) := {a: {b: {c: {d: {e: v}}}}}

test_every_workload_kind if {
	workloads := _every_kind({"nodeSelector": {"pool": "-a"}})
	count(workloads) == 9
	every pair in workloads {
		[w, path] := pair
		rule.report == {_f(array.concat(path, ["nodeSelector", "pool"]), sprintf("nodeSelector value \"-a\" of \"pool\" is not a valid label value: %s", [_value_problem]))} with input as w
	}
	every pair in _every_kind(_with_required([{"matchExpressions": [{"key": "pool", "operator": "in", "values": ["a"]}]}])) {
		[w, path] := pair
		rule.report == {_f(
			array.concat(path, ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchExpressions", 0, "operator"]),
			sprintf("node affinity operator \"in\" is not a valid selector operator: use %s (did you mean \"In\"?)", [_operator_list]),
		)} with input as w
	}
}

# Constraints in the plain form almost every manifest uses are valid.
test_plain_node_constraints_are_valid if {
	every spec in _plain_specs {
		rule.report == set() with input as _deployment(spec)
	}
}

_plain_specs := [
	{"nodeSelector": {"kubernetes.io/os": "linux"}},
	{"nodeSelector": {"node-role.kubernetes.io/worker": "", "example.com/pool": "gpu_a-1.b"}},
	_with_required([{"matchExpressions": [_in("pool", ["a", "b"]), {"key": "spot", "operator": "DoesNotExist"}]}]),
	_with_required([{"matchExpressions": [{"key": "pool", "operator": "NotIn", "values": ["a"]}]}, {"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}]),
	_with_preferred([{"weight": 100, "preference": {"matchExpressions": [_in("zone", ["a"])]}}, {"weight": 1, "preference": {"matchExpressions": [{"key": "spot", "operator": "Exists"}]}}]),
]

# --- custom resources: every pod template is checked ----------------------------------

# A RayCluster worker group with an operator in the wrong case, and its head
# with a placeholder left in its nodeSelector.
test_raycluster_worker_group if {
	ray := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": {"containers": [{"name": "head", "image": "ray:2.9"}], "nodeSelector": {"pool": "${POOL}"}}}},
			"workerGroupSpecs": [
				{"groupName": "cpu", "template": {"spec": {"containers": [{"name": "w", "image": "ray:2.9"}]}}},
				{"groupName": "gpu", "template": {"spec": object.union({"containers": [{"name": "w", "image": "ray:2.9"}]}, _with_required([{"matchExpressions": [{"key": "gpu", "operator": "in", "values": ["a100"]}]}]))}},
			],
		},
	}
	r := rule.report with input as ray
	r == {
		_f(["spec", "headGroupSpec", "template", "spec", "nodeSelector", "pool"], sprintf("nodeSelector value \"${POOL}\" of \"pool\" is not a valid label value: %s%s", [_value_problem, _placeholder])),
		_f(
			["spec", "workerGroupSpecs", 1, "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchExpressions", 0, "operator"],
			sprintf("node affinity operator \"in\" is not a valid selector operator: use %s (did you mean \"In\"?)", [_operator_list]),
		),
	}
}

# A LeaderWorkerSet whose worker template has a preference without a weight.
test_leaderworkerset_worker_template if {
	lws := {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "vllm"},
		"spec": {"leaderWorkerTemplate": {
			"leaderTemplate": {"spec": {"containers": [{"name": "l", "image": "vllm:0.6"}]}},
			"workerTemplate": {"spec": object.union({"containers": [{"name": "w", "image": "vllm:0.6"}]}, _with_preferred([{"preference": {"matchExpressions": [_in("zone", ["a"])]}}]))},
		}},
	}
	r := rule.report with input as lws
	r == {_f(
		["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", 0, "weight"],
		"preferred scheduling term needs a weight from 1 to 100: without one the weight is 0, which the API server rejects",
	)}
}
