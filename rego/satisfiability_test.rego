# Whether some node could meet a pod's node constraints, decided symbolically.
package dslint.lib.satisfiability_test

import data.dslint.lib.satisfiability as sat

_c(op, vs) := {"op": op, "values": vs, "origin": {"in": "matchExpressions", "index": 0}}

_in(vs) := _c("In", vs)

_notin(vs) := _c("NotIn", vs)

_exists := _c("Exists", [])

_absent := _c("DoesNotExist", [])

_gt(v) := _c("Gt", [v])

_lt(v) := _c("Lt", [v])

_req(key, op, vs) := {"key": key, "operator": op, "values": vs}

_term(reqs) := {"matchExpressions": reqs}

_spec(selector, terms) := {
	"nodeSelector": selector,
	"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}},
}

# --- one label: In, NotIn, Exists, DoesNotExist ---------------------------------------

test_no_constraint_is_satisfiable if {
	sat.satisfiable_constraints([])
}

test_single_constraints_are_satisfiable if {
	sat.satisfiable_constraints([_in(["a"])])
	sat.satisfiable_constraints([_notin(["a"])])
	sat.satisfiable_constraints([_exists])
	sat.satisfiable_constraints([_absent])
}

test_in_with_notin_of_the_same_value if {
	not sat.satisfiable_constraints([_in(["a"]), _notin(["a"])])
}

test_in_with_notin_of_part_of_the_values if {
	sat.satisfiable_constraints([_in(["a", "b"]), _notin(["a"])])
	not sat.satisfiable_constraints([_in(["a", "b"]), _notin(["a"]), _notin(["b"])])
	not sat.satisfiable_constraints([_in(["a", "b"]), _notin(["b", "a", "c"])])
}

test_disjoint_in_sets if {
	not sat.satisfiable_constraints([_in(["a"]), _in(["b"])])
	not sat.satisfiable_constraints([_in(["a", "b"]), _in(["c", "d"])])
}

test_overlapping_in_sets if {
	sat.satisfiable_constraints([_in(["a", "b"]), _in(["b", "c"])])
	not sat.satisfiable_constraints([_in(["a", "b"]), _in(["b", "c"]), _notin(["b"])])
}

test_exists_with_does_not_exist if {
	not sat.satisfiable_constraints([_exists, _absent])
}

test_in_with_does_not_exist if {
	not sat.satisfiable_constraints([_in(["a"]), _absent])
}

# A missing label meets NotIn and DoesNotExist together.
test_notin_with_does_not_exist if {
	sat.satisfiable_constraints([_notin(["a"]), _absent])
}

test_exists_with_notin if {
	sat.satisfiable_constraints([_exists, _notin(["a", "b"])])
}

# Values compare exactly and case-sensitively.
test_values_are_case_sensitive if {
	not sat.satisfiable_constraints([_in(["GPU"]), _in(["gpu"])])
	sat.satisfiable_constraints([_in(["GPU"]), _notin(["gpu"])])
}

# The empty label value is a value like any other.
test_empty_value if {
	sat.satisfiable_constraints([_in([""]), _exists])
	not sat.satisfiable_constraints([_in([""]), _notin([""])])
}

# --- one label: Gt and Lt ------------------------------------------------------------------

test_gt_and_lt_with_no_integer_between if {
	not sat.satisfiable_constraints([_gt("5"), _lt("6")])
	not sat.satisfiable_constraints([_gt("5"), _lt("5")])
	not sat.satisfiable_constraints([_gt("9"), _lt("3")])
}

test_gt_and_lt_with_an_integer_between if {
	sat.satisfiable_constraints([_gt("5"), _lt("7")])
	sat.satisfiable_constraints([_gt("0"), _lt("2")])
}

# Label values cannot be negative, and Lt is strict.
test_lt_zero_is_unsatisfiable if {
	not sat.satisfiable_constraints([_lt("0")])
	sat.satisfiable_constraints([_lt("1")])
}

test_gt_the_largest_int64_is_unsatisfiable if {
	not sat.satisfiable_constraints([_gt("9223372036854775807")])
	sat.satisfiable_constraints([_gt("9223372036854775806")])
}

test_bounds_with_leading_zeros if {
	not sat.satisfiable_constraints([_gt("05"), _lt("006")])
	sat.satisfiable_constraints([_gt("05"), _lt("007")])
}

test_gt_with_does_not_exist if {
	not sat.satisfiable_constraints([_gt("1"), _absent])
}

test_gt_with_exists if {
	sat.satisfiable_constraints([_gt("1"), _exists])
}

test_in_with_gt if {
	sat.satisfiable_constraints([_in(["7"]), _gt("5")])
	not sat.satisfiable_constraints([_in(["5"]), _gt("5")])
	not sat.satisfiable_constraints([_in(["a100"]), _gt("5")])
	sat.satisfiable_constraints([_in(["a100", "8"]), _gt("5"), _lt("9")])
}

# ParseInt reads leading zeros: the label "007" is 7.
test_in_with_leading_zeros_and_gt if {
	sat.satisfiable_constraints([_in(["007"]), _gt("6")])
	not sat.satisfiable_constraints([_in(["007"]), _gt("7")])
}

# NotIn lists strings: excluding "6" still leaves the label "06".
test_notin_does_not_exclude_other_forms_of_an_integer if {
	sat.satisfiable_constraints([_gt("5"), _lt("7"), _notin(["6"])])
	sat.satisfiable_constraints([_gt("5"), _lt("8"), _notin(["6", "7"])])
}

# 63 zeros: the label forms of an integer are a prefix of these and it.
_zeros := "000000000000000000000000000000000000000000000000000000000000000"

test_notin_listing_every_form_of_the_only_integer if {
	forms := [f | some pad in numbers.range(0, 62); f := concat("", [substring(_zeros, 0, pad), "6"])]
	count(forms) == 63
	not sat.satisfiable_constraints([_gt("5"), _lt("7"), _notin(forms)])
	sat.satisfiable_constraints([_gt("5"), _lt("7"), _notin(array.slice(forms, 0, 62))])
}

# --- parsing ----------------------------------------------------------------------------

test_valid_requirements if {
	sat.requirement_valid(_req("pool", "In", ["a", "b"]))
	sat.requirement_valid(_req("example.com/pool", "NotIn", ["a"]))
	sat.requirement_valid({"key": "pool", "operator": "Exists"})
	sat.requirement_valid({"key": "pool", "operator": "DoesNotExist", "values": null})
	sat.requirement_valid({"key": "pool", "operator": "DoesNotExist", "values": []})
	sat.requirement_valid(_req("cores", "Gt", ["8"]))
	sat.requirement_valid(_req("cores", "Lt", ["08"]))
}

test_invalid_requirements if {
	not sat.requirement_valid(_req("pool", "In", []))
	not sat.requirement_valid({"key": "pool", "operator": "NotIn"})
	not sat.requirement_valid(_req("pool", "Exists", ["a"]))
	not sat.requirement_valid(_req("pool", "DoesNotExist", ["a"]))
	not sat.requirement_valid(_req("cores", "Gt", ["abc"]))
	not sat.requirement_valid(_req("cores", "Gt", ["1", "2"]))
	not sat.requirement_valid(_req("cores", "Lt", []))
	not sat.requirement_valid(_req("cores", "Lt", ["-1"]))
	not sat.requirement_valid(_req("pool", "in", ["a"]))
	not sat.requirement_valid(_req("pool", "Equals", ["a"]))
	not sat.requirement_valid({"key": "pool", "values": ["a"]})
	not sat.requirement_valid(_req("-pool", "In", ["a"]))
	not sat.requirement_valid(_req("pool", "In", ["has space"]))
	not sat.requirement_valid(_req("pool", "In", [true]))
	not sat.requirement_valid({"key": "pool", "operator": "In", "values": "a"})
	not sat.requirement_valid("pool In a")
}

test_field_requirements if {
	sat.field_requirement_valid(_req("metadata.name", "In", ["node-1"]))
	sat.field_requirement_valid(_req("metadata.name", "NotIn", ["node-1.example.com"]))
	not sat.field_requirement_valid(_req("metadata.name", "In", ["node-1", "node-2"]))
	not sat.field_requirement_valid(_req("metadata.name", "Exists", []))
	not sat.field_requirement_valid(_req("metadata.labels", "In", ["a"]))
	not sat.field_requirement_valid(_req("metadata.name", "In", ["Node_1"]))
}

test_empty_terms if {
	sat.term_empty(null)
	sat.term_empty({})
	sat.term_empty({"matchExpressions": [], "matchFields": null})
	not sat.term_empty(_term([_req("pool", "In", ["a"])]))
	not sat.term_empty({"matchFields": [_req("metadata.name", "In", ["n"])]})
	not sat.term_valid({})
	not sat.term_valid(null)
}

test_term_with_one_invalid_requirement_is_invalid if {
	sat.term_valid(_term([_req("pool", "In", ["a"])]))
	not sat.term_valid(_term([_req("pool", "In", ["a"]), _req("cores", "Gt", ["many"])]))
	not sat.term_valid({"matchExpressions": [_req("pool", "In", ["a"])], "matchFields": [_req("metadata.name", "In", [])]})
	not sat.term_valid({"matchExpressions": {"key": "pool"}})
}

# --- pod specs ------------------------------------------------------------------------------

test_no_constraints_are_satisfiable if {
	sat.satisfiable({})
	sat.satisfiable({"nodeSelector": {"pool": "gpu"}})
}

test_node_selector_contradicting_every_term if {
	spec := _spec({"pool": "gpu"}, [
		_term([_req("pool", "In", ["cpu"])]),
		_term([{"key": "pool", "operator": "DoesNotExist"}]),
	])
	not sat.satisfiable(spec)
	not sat.term_satisfiable(spec, spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0])
}

test_node_selector_agreeing_with_one_term if {
	sat.satisfiable(_spec({"pool": "gpu"}, [
		_term([_req("pool", "In", ["cpu"])]),
		_term([_req("pool", "In", ["cpu", "gpu"])]),
	]))
}

test_every_term_contradicting_itself if {
	not sat.satisfiable(_spec({}, [
		_term([_req("pool", "In", ["a"]), _req("pool", "NotIn", ["a"])]),
		_term([{"key": "gpu", "operator": "Exists"}, {"key": "gpu", "operator": "DoesNotExist"}]),
	]))
}

test_terms_on_different_keys_do_not_conflict if {
	sat.satisfiable(_spec({"pool": "gpu"}, [_term([_req("zone", "NotIn", ["a"]), _req("cores", "Gt", ["4"])])]))
}

test_invalid_and_empty_terms_match_nothing if {
	not sat.satisfiable(_spec({}, [{}, _term([_req("cores", "Gt", ["abc"])])]))
	sat.satisfiable(_spec({}, [{}, _term([_req("pool", "In", ["a"])])]))
}

test_empty_term_list_matches_nothing if {
	not sat.satisfiable(_spec({}, []))
}

test_invalid_node_selector_entries_are_left_out if {
	sat.satisfiable(_spec({"pool": "has space", "-bad": "x"}, [_term([_req("pool", "In", ["a"])])]))
}

test_node_name_excluded_by_match_fields if {
	not sat.satisfiable(object.union(_spec({}, [{"matchFields": [_req("metadata.name", "In", ["node-2"])]}]), {"nodeName": "node-1"}))
	not sat.satisfiable(object.union(_spec({}, [{"matchFields": [_req("metadata.name", "NotIn", ["node-1"])]}]), {"nodeName": "node-1"}))
	sat.satisfiable(object.union(_spec({}, [{"matchFields": [_req("metadata.name", "In", ["node-1"])]}]), {"nodeName": "node-1"}))
	sat.satisfiable(object.union(_spec({}, [{"matchFields": [_req("metadata.name", "NotIn", ["node-2"])]}]), {"nodeName": "node-1"}))
}

test_match_fields_conflicting_with_each_other if {
	not sat.satisfiable(_spec({}, [{"matchFields": [_req("metadata.name", "In", ["a"]), _req("metadata.name", "In", ["b"])]}]))
	sat.satisfiable(_spec({}, [{"matchFields": [_req("metadata.name", "NotIn", ["a"]), _req("metadata.name", "NotIn", ["b"])]}]))
}

# --- explaining -----------------------------------------------------------------------------

test_first_failure_is_the_completing_constraint if {
	sat.first_failure([_in(["a", "b"]), _exists, _notin(["a"]), _notin(["b"]), _notin(["c"])]) == 3
	sat.first_failure([_lt("0")]) == 0
}

test_conflict_of_a_term_with_the_node_selector if {
	spec := _spec({"pool": "gpu", "zone": "a"}, [])
	term := _term([_req("zone", "In", ["a"]), _req("pool", "In", ["cpu"])])
	sat.conflicts(spec, term) == {{
		"key": "pool",
		"at": {"in": "matchExpressions", "index": 1},
		"constraints": [
			{"op": "In", "values": ["gpu"], "origin": {"in": "nodeSelector"}},
			{"op": "In", "values": ["cpu"], "origin": {"in": "matchExpressions", "index": 1}},
		],
	}}
}

test_first_conflict_picks_the_earliest_requirement if {
	term := _term([
		_req("b", "In", ["x"]),
		_req("a", "In", ["x"]),
		_req("a", "NotIn", ["x"]),
		_req("b", "NotIn", ["x"]),
	])
	count(sat.conflicts({}, term)) == 2
	sat.first_conflict({}, term).key == "a"
	sat.first_conflict({}, term).at == {"in": "matchExpressions", "index": 2}
}

test_match_expressions_come_before_match_fields if {
	spec := {"nodeName": "node-1"}
	term := {
		"matchFields": [_req("metadata.name", "In", ["node-2"])],
		"matchExpressions": [_req("a", "In", ["x"]), _req("a", "In", ["y"])],
	}
	count(sat.conflicts(spec, term)) == 2
	sat.first_conflict(spec, term).at == {"in": "matchExpressions", "index": 1}
}

test_node_name_conflict if {
	c := sat.first_conflict({"nodeName": "node-1"}, {"matchFields": [_req("metadata.name", "NotIn", ["node-1"])]})
	c.key == "metadata.name"
	c.at == {"in": "matchFields", "index": 0}
	sat.describe(c.key, c.constraints[0]) == "nodeName \"node-1\""
	sat.describe(c.key, c.constraints[1]) == "metadata.name NotIn [\"node-1\"]"
}

test_no_conflicts_for_invalid_or_satisfiable_terms if {
	sat.conflicts({}, _term([_req("a", "In", [])])) == set()
	sat.conflicts({}, _term([_req("a", "In", ["x"])])) == set()
	sat.conflicts({}, {}) == set()
}

test_describe if {
	sat.describe("pool", {"op": "In", "values": ["gpu"], "origin": {"in": "nodeSelector"}}) == "nodeSelector pool=\"gpu\""
	sat.describe("pool", _in(["a", "b"])) == "pool In [\"a\", \"b\"]"
	sat.describe("pool", _absent) == "pool DoesNotExist"
	sat.describe("cores", _gt("8")) == "cores Gt \"8\""
}

# --- selected labels --------------------------------------------------------------------------

test_never_selects_with_node_selector if {
	sat.never_selects({"nodeSelector": {"dedicated": "ingress"}}, "dedicated", "gpu")
	not sat.never_selects({"nodeSelector": {"dedicated": "gpu"}}, "dedicated", "gpu")
	not sat.never_selects({"nodeSelector": {"other": "x"}}, "dedicated", "gpu")
	not sat.never_selects({}, "dedicated", "gpu")
}

test_never_selects_needs_every_satisfiable_term if {
	sat.never_selects(
		_spec({}, [
			_term([_req("dedicated", "In", ["ingress"])]),
			_term([{"key": "dedicated", "operator": "DoesNotExist"}]),
			_term([_req("dedicated", "In", ["gpu"]), _req("dedicated", "NotIn", ["gpu"])]),
		]),
		"dedicated", "gpu",
	)
	not sat.never_selects(
		_spec({}, [
			_term([_req("dedicated", "In", ["ingress"])]),
			_term([_req("zone", "In", ["a"])]),
		]),
		"dedicated", "gpu",
	)
}

# What never_selects clears without the exact check (a nodeSelector entry
# or a plainly satisfiable term that requires the value) the exact check
# clears too: some alternative admits the value.
test_selected_values_agree_with_the_exact_check if {
	sat.never_selects(_spec({"dedicated": "x"}, [_term([_req("zone", "In", ["a"])])]), "dedicated", "gpu")
	every c in [
		[{"nodeSelector": {"dedicated": "gpu"}}, "dedicated", "gpu"],
		[_spec({}, [_term([_req("dedicated", "In", ["ingress", "gpu"])])]), "dedicated", "gpu"],
		[_spec({"zone": "a"}, [_term([_req("dedicated", "In", ["gpu"]), {"key": "x", "operator": "Exists"}]), _term([_req("dedicated", "In", ["ingress"])])]), "dedicated", "gpu"],
	] {
		[spec, key, value] := c
		not sat.never_selects(spec, key, value)
		some alt in sat.alternatives(spec)
		sat.satisfiable_constraints(array.concat(object.get(alt, key, []), [{"op": "In", "values": [value]}]))
	}
}

# A pod no node can run is conflicting-node-constraints' business.
test_never_selects_is_false_when_nothing_is_selectable if {
	not sat.never_selects(_spec({}, [_term([_req("dedicated", "In", ["a"]), _req("dedicated", "In", ["b"])])]), "dedicated", "gpu")
}

test_alternatives if {
	sat.alternatives({"nodeSelector": {"a": "x"}}) == [{"a": [{"op": "In", "values": ["x"], "origin": {"in": "nodeSelector"}}]}]
	count(sat.alternatives(_spec({}, [{}, _term([_req("a", "In", ["x"])])]))) == 1
}

# --- the common case, cheaply ----------------------------------------------------------

_long(n) := concat("", [x | some _ in numbers.range(1, n); x := "a"])

_pref(weight, reqs) := {"weight": weight, "preference": _term(reqs)}

_affinity(preferred, terms) := {"affinity": {"nodeAffinity": {
	"preferredDuringSchedulingIgnoredDuringExecution": preferred,
	"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms},
}}}

# Pod specs in the plain form, one for each way of writing it.
_plain_specs := [
	{},
	{"nodeSelector": null, "affinity": {"nodeAffinity": null}},
	{"nodeSelector": {}},
	{"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": []}}},
	{"affinity": {"nodeAffinity": {}}},
	{"nodeSelector": {"kubernetes.io/os": "linux"}},
	{"nodeSelector": {"kubernetes.io/os": "linux", "node-pool": "gpu", "a.b-c.d/X_y.z-9": "", "nvidia.com/gpu.present": "true"}},
	{"nodeSelector": {"pool": _long(63), concat("/", [_long(63), _long(63)]): "x"}},
	_affinity(
		[_pref(1, [_req("topology.kubernetes.io/zone", "In", ["eu-west-1a", "eu-west-1b"])]), _pref(100, [_req("pool", "NotIn", ["batch"])])],
		[_term([_req("kubernetes.io/arch", "In", ["amd64", "arm64"]), {"key": "gpu", "operator": "Exists"}]), _term([{"key": "gpu", "operator": "DoesNotExist"}])],
	),
	object.union({"nodeSelector": {"kubernetes.io/os": "linux"}}, _affinity([_pref(55, [_req("pool", "In", [""])])], [_term([_req("pool", "In", ["a"])])])),
	{"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [_pref(10, [_req("a", "In", ["b"])]), _pref(19, [_req("a", "In", ["c"])])]}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [_term([_req("a", "In", ["b"]), _req("a", "NotIn", ["b"])])]}}}},
]

# Pod specs that are not in the plain form, valid or not.
_not_plain_specs := [
	{"nodeSelector": "null"},
	{"nodeSelector": [{"pool": "a"}]},
	{"nodeSelector": {"pool": true}},
	{"nodeSelector": {"pool": 1}},
	{"nodeSelector": {"pool": null}},
	{"nodeSelector": {"pool": "gpu nodes"}},
	{"nodeSelector": {"pool": "-a"}},
	{"nodeSelector": {"pool": _long(64)}},
	{"nodeSelector": {_long(64): "a"}},
	{"nodeSelector": {concat("/", [_long(64), "a"]): "a"}},
	{"nodeSelector": {"a/b/c": "a"}},
	{"nodeSelector": {"Pool": "a"}}, # valid, but not plain
	{"nodeSelector": {"x.-y": "a"}}, # valid, but not plain
	{"nodeSelector": {"A.b/c": "a"}},
	{"nodeSelector": {"": "a"}},
	{"affinity": {"nodeAffinity": "x"}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{}]}}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [_term([])]}}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [_term([_req("a", "In", ["b"])])]}}},
	{"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [_req("a", "In", ["b"])]}}}},
	{"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": []}}},
	{"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": {}}}},
	{"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [_term([_req("a", "In", ["b"])])]}}},
	{"affinity": {"nodeAffinity": {"foo": [], "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [_term([_req("a", "In", ["b"])])]}}}},
	_affinity([_pref(0, [_req("a", "In", ["b"])])], [_term([_req("a", "In", ["b"])])]),
	_affinity([_pref(101, [_req("a", "In", ["b"])])], [_term([_req("a", "In", ["b"])])]),
	_affinity([_pref(1000, [_req("a", "In", ["b"])])], [_term([_req("a", "In", ["b"])])]),
	_affinity([_pref(1.5, [_req("a", "In", ["b"])])], [_term([_req("a", "In", ["b"])])]),
	_affinity([_pref("50", [_req("a", "In", ["b"])])], [_term([_req("a", "In", ["b"])])]),
	_affinity([{"preference": _term([_req("a", "In", ["b"])])}], [_term([_req("a", "In", ["b"])])]),
	_affinity([{"weight": 1}], [_term([_req("a", "In", ["b"])])]),
	_affinity([{"weight": 1, "preference": {}}], [_term([_req("a", "In", ["b"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "in", ["b"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "In", [])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([{"key": "a", "operator": "In"}])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "Exists", ["b"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "Exists", [])])]), # valid, but not plain
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "Gt", ["1"])])]), # valid, but not plain
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "In", [true])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "In", "b")])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "In", ["b c"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a", "In", [_long(64)])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("", "In", ["b"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([_req("a_", "In", ["b"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [_term([{"key": "a", "operator": "In", "values": ["b"], "x": 1}])]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [{"matchExpressions": [_req("a", "In", ["b"])], "matchFields": []}]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [{"matchFields": [_req("metadata.name", "In", ["n"])]}]),
	_affinity([_pref(1, [_req("a", "In", ["b"])])], [{"matchExpressions": [_req("a", "In", ["b"])], "key": "a"}]),
	_affinity([_pref(1, [_req("a", "In", ["b \"x\""])])], [_term([_req("a", "In", ["b"])])]),
	_affinity([_pref(1, [_req("a", "In", ["b\", \"c"])])], [_term([_req("a", "In", ["b"])])]),
]

test_plain_node_constraints if {
	every spec in _plain_specs {
		sat.plain_node_constraints(spec)
	}
	every spec in _not_plain_specs {
		not sat.plain_node_constraints(spec)
	}
}

test_plain_node_constraints_are_valid if {
	every spec in _plain_specs {
		every term in data.dslint.lib.nodes.required_terms(spec) {
			sat.term_valid(term)
		}
	}
}

test_plainly_satisfiable_terms if {
	spec := _spec(null, [
		_term([_req("a", "In", ["x"]), _req("b", "NotIn", ["x"])]),
		_term([_req("a", "In", ["x"]), _req("a", "NotIn", ["y"])]),
		_term([_req("pool", "In", ["x"])]),
		_term([{"key": "c", "operator": "Exists"}, {"key": "d", "operator": "DoesNotExist"}]),
	])
	sat.plainly_satisfiable_terms(spec) == {0, 2, 3}
	sat.plainly_satisfiable_terms(object.union(spec, {"nodeSelector": {"pool": "x"}})) == {0, 3}
	sat.plainly_satisfiable_terms(object.union(spec, {"nodeSelector": {"Pool": "x"}})) == set()
	every i in sat.plainly_satisfiable_terms(spec) {
		sat.term_satisfiable(spec, spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[i])
	}
}
