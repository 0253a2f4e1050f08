# Every row of ValidateTolerations (reference §4.1), wrong types, and the
# pod spec path of every workload kind and of custom resources' pods.
package dslint.rules["invalid-toleration_test"]

import data.dslint.rules["invalid-toleration"] as rule

_pod(tols) := {
	"apiVersion": "v1",
	"kind": "Pod",
	"metadata": {"name": "trainer"},
	"spec": {"containers": [{"name": "main", "image": "trainer:1.0"}], "tolerations": tols},
}

_template(tols) := {
	"metadata": {"labels": {"app": "x"}},
	"spec": {"containers": [{"name": "main", "image": "x:1"}], "tolerations": tols},
}

_gate_on := {"featureGates": {"TaintTolerationComparisonOperators": true}}

_gate_off := {"featureGates": {"TaintTolerationComparisonOperators": false}}

# _findings(tol) is the report for a Pod with that one toleration.
_findings(tol) := r if {
	r := rule.report with input as _pod([tol])
}

# _findings_gate_on(tol) is _findings(tol) with the comparison operators
# gate on.
_findings_gate_on(tol) := r if {
	r := _findings(tol) with data.dslint.config as _gate_on
}

# _p(field) is the path of a field of the Pod's first toleration.
_p(field) := ["spec", "tolerations", 0, field]

# _replace(field, value), _remove(field) and _quote(field) are the edits of
# a fix to a field of the Pod's first toleration.
_replace(field, value) := {"op": "replace", "path": _p(field), "value": value}

_remove(field) := {"op": "remove", "path": _p(field)}

_quote(field) := {"op": "quote", "path": _p(field)}

# _unfixed(t) is true when the Pod with that one toleration has findings and
# none of them carries a fix.
_unfixed(t) if {
	fs := _findings(t)
	count(fs) > 0
	every f in fs {
		not f.fix
	}
}

_key_message := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

_value_message := "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

# --- operator ------------------------------------------------------------------

test_unknown_operator if {
	_findings({"key": "dedicated", "operator": "Foo", "value": "gpu"}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"Foo\" is not supported: use \"Equal\" or \"Exists\"",
	}}
}

# An operator in the wrong case has one right spelling: the fix writes it.
test_lowercase_exists_with_hint if {
	_findings({"key": "nvidia.com/gpu", "operator": "exists", "effect": "NoSchedule"}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"exists\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)",
		"fix": [_replace("operator", "Exists")],
	}}
}

test_uppercase_equal_with_hint if {
	_findings({"key": "dedicated", "operator": "EQUAL", "value": "gpu"}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"EQUAL\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Equal\"?)",
		"fix": [_replace("operator", "Equal")],
	}}
}

# Exists rejects a value, which the unknown operator hid (upstream checks the
# value only for an operator it knows): writing Exists without removing the
# value would leave the toleration rejected.
test_lowercase_exists_with_a_value_loses_the_value if {
	_findings({"key": "nvidia.com/gpu", "operator": "exists", "value": "true"}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"exists\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)",
		"fix": [_replace("operator", "Exists"), _remove("value")],
	}}
	_findings({"key": "nvidia.com/gpu", "operator": "EXISTS", "value": ""}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"EXISTS\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)",
		"fix": [_replace("operator", "Exists")],
	}}
}

# An operator that is no supported one in any case has no one right
# replacement.
test_unknown_operators_carry_no_fix if {
	every op in ["Foo", "In", "equals", "lt", "Gt"] {
		_unfixed({"key": "dedicated", "operator": op, "value": "gpu"})
	}
}

# Upstream reports both: the empty key needs Exists, and "exists" is unknown.
test_lowercase_exists_without_key_is_two_findings if {
	_findings({"operator": "exists"}) == {
		{
			"path": _p("operator"),
			"message": "toleration operator \"exists\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)",
			"fix": [_replace("operator", "Exists")],
		},
		{
			"path": _p("operator"),
			"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not \"exists\"",
			"fix": [_replace("operator", "Exists")],
		},
	}
}

test_unknown_operator_lists_lt_gt_with_gate_on if {
	_findings_gate_on({"key": "a", "operator": "Ge", "value": "5"}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"Ge\" is not supported: use \"Equal\", \"Exists\", \"Lt\" or \"Gt\"",
	}}
}

# An unknown operator skips the value checks, as upstream's switch does.
test_unknown_operator_does_not_check_the_value if {
	_findings({"key": "a", "operator": "In", "value": "has space"}) == {{
		"path": _p("operator"),
		"message": "toleration operator \"In\" is not supported: use \"Equal\" or \"Exists\"",
	}}
}

# --- empty key -------------------------------------------------------------------

test_empty_key_with_equal if {
	_findings({"operator": "Equal", "value": "gpu", "effect": "NoSchedule"}) == {{
		"path": _p("operator"),
		"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not \"Equal\"",
	}}
}

test_explicit_empty_key_with_equal if {
	_findings({"key": "", "operator": "Equal", "effect": "NoSchedule"}) == {{
		"path": _p("operator"),
		"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not \"Equal\"",
	}}
}

# No operator means Equal; the path names the absent operator (located at the
# toleration itself).
test_empty_key_without_operator if {
	_findings({"effect": "NoSchedule"}) == {{
		"path": _p("operator"),
		"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not no operator (Equal)",
	}}
}

test_all_empty_toleration_is_invalid if {
	_findings({}) == {{
		"path": _p("operator"),
		"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not no operator (Equal)",
	}}
}

# Equal or no operator with an empty key has two repairs (a key, or Exists to
# tolerate every taint) and no fix; only "exists" in the wrong case has one.
test_empty_key_fix_only_for_the_case_of_exists if {
	_unfixed({"operator": "Equal", "value": "gpu"})
	_unfixed({"effect": "NoSchedule"})
	_findings({"operator": "EXISTS", "value": "gpu"}) == {
		{
			"path": _p("operator"),
			"message": "toleration operator \"EXISTS\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)",
			"fix": [_replace("operator", "Exists"), _remove("value")],
		},
		{
			"path": _p("operator"),
			"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not \"EXISTS\"",
			"fix": [_replace("operator", "Exists"), _remove("value")],
		},
	}
}

# "EQUAL" is Equal in the wrong case, which the fix writes; the empty key
# stays a problem with two repairs and no fix.
test_empty_key_with_uppercase_equal if {
	_findings({"operator": "EQUAL"}) == {
		{
			"path": _p("operator"),
			"message": "toleration operator \"EQUAL\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Equal\"?)",
			"fix": [_replace("operator", "Equal")],
		},
		{
			"path": _p("operator"),
			"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not \"EQUAL\"",
		},
	}
}

test_empty_key_with_exists_is_valid if {
	_findings({"operator": "Exists"}) == set()
	_findings({"key": "", "operator": "Exists"}) == set()
	_findings({"operator": "Exists", "effect": "NoExecute"}) == set()
	_findings({"operator": "Exists", "effect": "NoSchedule"}) == set()
}

# --- Exists with a value -----------------------------------------------------

test_exists_with_value if {
	_findings({"key": "nvidia.com/gpu", "operator": "Exists", "value": "true", "effect": "NoSchedule"}) == {{
		"path": _p("value"),
		"message": "toleration value \"true\" must be empty when operator is \"Exists\" (Exists matches any value); remove the value or use operator \"Equal\"",
		"fix": [_remove("value")],
	}}
}

test_wildcard_exists_with_value if {
	_findings({"operator": "Exists", "value": "gpu"}) == {{
		"path": _p("value"),
		"message": "toleration value \"gpu\" must be empty when operator is \"Exists\" (Exists matches any value); remove the value or use operator \"Equal\"",
		"fix": [_remove("value")],
	}}
}

test_exists_with_empty_value_is_valid if {
	_findings({"key": "a", "operator": "Exists", "value": ""}) == set()
}

# --- tolerationSeconds ----------------------------------------------------------

test_toleration_seconds_with_noschedule_points_at_effect if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 300}) == {{
		"path": _p("effect"),
		"message": "tolerationSeconds needs effect \"NoExecute\", not \"NoSchedule\": only NoExecute taints evict pods",
	}}
}

test_toleration_seconds_with_prefernoschedule if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "PreferNoSchedule", "tolerationSeconds": 60}) == {{
		"path": _p("effect"),
		"message": "tolerationSeconds needs effect \"NoExecute\", not \"PreferNoSchedule\": only NoExecute taints evict pods",
	}}
}

test_toleration_seconds_without_effect_points_at_toleration_seconds if {
	_findings({"key": "dedicated", "operator": "Exists", "tolerationSeconds": 300}) == {{
		"path": _p("tolerationSeconds"),
		"message": "tolerationSeconds needs effect \"NoExecute\", not no effect (all effects): only NoExecute taints evict pods",
	}}
}

test_toleration_seconds_with_noexecute_is_valid if {
	_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}) == set()
	_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0}) == set()
	_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": -10}) == set()
}

# tolerationSeconds: null decodes to a nil pointer: not set.
test_null_toleration_seconds_is_not_set if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": null}) == set()
}

# --- key ------------------------------------------------------------------------

test_invalid_key if {
	_findings({"key": "-bad", "operator": "Exists"}) == {{
		"path": _p("key"),
		"message": concat("", ["toleration key \"-bad\" is not a valid label key: ", _key_message]),
	}}
}

test_key_with_two_slashes if {
	_findings({"key": "example.com/gpu/a100", "operator": "Exists"}) == {{
		"path": _p("key"),
		"message": "toleration key \"example.com/gpu/a100\" is not a valid label key: must not contain more than one \"/\"",
	}}
}

test_key_with_uppercase_prefix if {
	_findings({"key": "Example.com/gpu", "operator": "Exists"}) == {{
		"path": _p("key"),
		"message": "toleration key \"Example.com/gpu\" is not a valid label key: prefix part must be a lowercase DNS subdomain: lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character",
	}}
}

test_key_with_empty_name if {
	_findings({"key": "example.com/", "operator": "Exists"}) == {{
		"path": _p("key"),
		"message": "toleration key \"example.com/\" is not a valid label key: name part must be non-empty",
	}}
}

# --- value for Equal --------------------------------------------------------------

test_invalid_value_for_equal if {
	_findings({"key": "dedicated", "operator": "Equal", "value": "has space", "effect": "NoSchedule"}) == {{
		"path": _p("value"),
		"message": concat("", ["toleration value \"has space\" is not a valid label value: ", _value_message]),
	}}
}

test_invalid_value_without_operator if {
	_findings({"key": "dedicated", "value": "gpu,cpu"}) == {{
		"path": _p("value"),
		"message": concat("", ["toleration value \"gpu,cpu\" is not a valid label value: ", _value_message]),
	}}
}

test_too_long_value_for_equal if {
	long := _repeat("v", 64)
	_findings({"key": "dedicated", "operator": "Equal", "value": long}) == {{
		"path": _p("value"),
		"message": sprintf("toleration value %q is not a valid label value: must be no more than 63 characters", [long]),
	}}
}

# --- effect -------------------------------------------------------------------------

test_unknown_effect if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "Bogus"}) == {{
		"path": _p("effect"),
		"message": "toleration effect \"Bogus\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\"",
	}}
}

test_effect_in_wrong_case if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "noschedule"}) == {{
		"path": _p("effect"),
		"message": "toleration effect \"noschedule\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\" (did you mean \"NoSchedule\"?)",
		"fix": [_replace("effect", "NoSchedule")],
	}}
}

test_effect_in_upper_case if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "NOEXECUTE"}) == {{
		"path": _p("effect"),
		"message": "toleration effect \"NOEXECUTE\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\" (did you mean \"NoExecute\"?)",
		"fix": [_replace("effect", "NoExecute")],
	}}
}

# tolerationSeconds with "noexecute" is two findings at the effect, and
# the same spelling repairs both.
test_toleration_seconds_with_lowercase_noexecute if {
	_findings({"key": "dedicated", "operator": "Exists", "effect": "noexecute", "tolerationSeconds": 60}) == {
		{
			"path": _p("effect"),
			"message": "toleration effect \"noexecute\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\" (did you mean \"NoExecute\"?)",
			"fix": [_replace("effect", "NoExecute")],
		},
		{
			"path": _p("effect"),
			"message": "tolerationSeconds needs effect \"NoExecute\", not \"noexecute\": only NoExecute taints evict pods",
			"fix": [_replace("effect", "NoExecute")],
		},
	}
}

# An effect that is no supported one in any case, and tolerationSeconds with
# another effect or none (drop the seconds, or change the effect?), have no
# one right repair.
test_effect_and_seconds_problems_without_one_repair_carry_no_fix if {
	_unfixed({"key": "dedicated", "operator": "Exists", "effect": "Bogus"})
	_unfixed({"key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 300})
	_unfixed({"key": "dedicated", "operator": "Exists", "tolerationSeconds": 300})
	_findings({"key": "dedicated", "operator": "Exists", "effect": "noschedule", "tolerationSeconds": 300}) == {
		{
			"path": _p("effect"),
			"message": "toleration effect \"noschedule\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\" (did you mean \"NoSchedule\"?)",
			"fix": [_replace("effect", "NoSchedule")],
		},
		{
			"path": _p("effect"),
			"message": "tolerationSeconds needs effect \"NoExecute\", not \"noschedule\": only NoExecute taints evict pods",
		},
	}
}

# --- Lt / Gt ------------------------------------------------------------------------

_gate_message(op) := sprintf("toleration operator %q needs the TaintTolerationComparisonOperators feature gate (alpha, off by default): the API server rejects it and it matches no taint", [op])

test_gt_with_gate_off if {
	_findings({"key": "sla", "operator": "Gt", "value": "5", "effect": "NoSchedule"}) == {{
		"path": _p("operator"),
		"message": _gate_message("Gt"),
	}}
}

test_lt_with_gate_explicitly_off if {
	r := rule.report with input as _pod([{"key": "sla", "operator": "Lt", "value": "5"}]) with data.dslint.config as _gate_off
	r == {{"path": _p("operator"), "message": _gate_message("Lt")}}
}

# With the gate off upstream rejects the operator only; the value is not parsed.
test_gt_with_gate_off_does_not_check_the_value if {
	_findings({"key": "sla", "operator": "Gt", "value": "007"}) == {{
		"path": _p("operator"),
		"message": _gate_message("Gt"),
	}}
}

test_gt_with_gate_on_and_canonical_value_is_valid if {
	_findings_gate_on({"key": "sla", "operator": "Gt", "value": "5", "effect": "NoSchedule"}) == set()
	_findings_gate_on({"key": "sla", "operator": "Lt", "value": "0"}) == set()
	_findings_gate_on({"key": "sla", "operator": "Lt", "value": "9223372036854775807"}) == set()
}

_canonical_message(value, op) := sprintf("toleration value %q must be a decimal integer in canonical form (no leading zeros or \"+\", within int64) for operator %q", [value, op])

test_gt_with_gate_on_and_leading_zeros if {
	_findings_gate_on({"key": "sla", "operator": "Gt", "value": "007"}) == {{
		"path": _p("value"),
		"message": _canonical_message("007", "Gt"),
	}}
}

test_lt_with_gate_on_and_plus_sign if {
	_findings_gate_on({"key": "sla", "operator": "Lt", "value": "+5"}) == {{
		"path": _p("value"),
		"message": _canonical_message("+5", "Lt"),
	}}
}

test_gt_with_gate_on_and_value_beyond_int64 if {
	_findings_gate_on({"key": "sla", "operator": "Gt", "value": "99999999999999999999"}) == {{
		"path": _p("value"),
		"message": _canonical_message("99999999999999999999", "Gt"),
	}}
}

test_gt_with_gate_on_and_no_value if {
	_findings_gate_on({"key": "sla", "operator": "Gt"}) == {{
		"path": _p("value"),
		"message": _canonical_message("", "Gt"),
	}}
}

test_gt_with_gate_on_and_empty_key if {
	_findings_gate_on({"operator": "Gt", "value": "5"}) == {{
		"path": _p("operator"),
		"message": "toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not \"Gt\"",
	}}
}

# --- wrong types -----------------------------------------------------------------

# value: true is a YAML boolean; only the type is reported, not also an
# invalid label value.
test_boolean_value if {
	_findings({"key": "nvidia.com/gpu", "operator": "Equal", "value": true, "effect": "NoSchedule"}) == {{
		"path": _p("value"),
		"message": "toleration value ⟦written:true⟧ is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")",
		"fix": [_quote("value")],
	}}
}

test_numeric_value if {
	_findings({"key": "gpu-count", "value": 8}) == {{
		"path": _p("value"),
		"message": "toleration value ⟦written:8⟧ is not a string (YAML reads it as the number 8); quote it (\"⟦written:8⟧\")",
		"fix": [_quote("value")],
	}}
}

test_numeric_key if {
	_findings({"key": 5, "operator": "Exists"}) == {{
		"path": _p("key"),
		"message": "toleration key ⟦written:5⟧ is not a string (YAML reads it as the number 5); quote it (\"⟦written:5⟧\")",
		"fix": [_quote("key")],
	}}
}

# Exists rejects any value: quoting value: yes would leave the toleration
# rejected, so the fix removes the value.
test_boolean_value_of_exists_is_removed if {
	_findings({"key": "nvidia.com/gpu", "operator": "Exists", "value": true, "effect": "NoSchedule"}) == {{
		"path": _p("value"),
		"message": "toleration value ⟦written:true⟧ is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")",
		"fix": [_remove("value")],
	}}
}

# A key and a value of one toleration are fixed each at its own path.
test_key_and_value_misread_in_one_toleration if {
	_findings({"key": true, "value": 1e3}) == {
		{
			"path": _p("key"),
			"message": "toleration key ⟦written:true⟧ is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")",
			"fix": [_quote("key")],
		},
		{
			"path": _p("value"),
			"message": "toleration value ⟦written:1000⟧ is not a string (YAML reads it as the number 1000); quote it (\"⟦written:1000⟧\")",
			"fix": [_quote("value")],
		},
	}
}

# No operator or effect is a boolean or a number once quoted (yes is no
# operator), and a mapping, a list or a tolerationSeconds that is a string
# has no text to quote into the right type: no fix.
test_wrong_types_without_one_repair_carry_no_fix if {
	_unfixed({"key": "gpu", "operator": true})
	_unfixed({"key": "gpu", "operator": "Exists", "effect": 1})
	_unfixed({"key": "gpu", "value": {"a": "b"}})
	_unfixed({"key": ["gpu"], "operator": "Exists"})
	_unfixed({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": "300"})
	_unfixed("node.kubernetes.io/not-ready")
}

test_string_toleration_seconds if {
	_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": "300"}) == {{
		"path": _p("tolerationSeconds"),
		"message": "tolerationSeconds \"300\" must be an integer number of seconds",
	}}
}

test_fractional_toleration_seconds if {
	_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 1.5}) == {{
		"path": _p("tolerationSeconds"),
		"message": "tolerationSeconds 1.5 must be an integer number of seconds",
	}}
}

# A toleration written as a plain string or a list (a YAML slip) is one
# finding, and evaluating it must not raise a builtin error (this test runner
# raises them).
test_non_object_toleration if {
	_findings("node.kubernetes.io/not-ready") == {{
		"path": ["spec", "tolerations", 0],
		"message": "toleration must be a mapping with key, operator, value and effect, not \"node.kubernetes.io/not-ready\"",
	}}
	_findings(["a"]) == {{
		"path": ["spec", "tolerations", 0],
		"message": "toleration must be a mapping with key, operator, value and effect, not [\"a\"]",
	}}
}

# A YAML null (`value:` with nothing after it, `~`) decodes into an empty Go
# string on the API server (encoding/json leaves a non-pointer field alone for
# null), so the toleration is the same as one without the field.
test_null_fields_mean_absent if {
	_findings({"key": "pool", "operator": "Exists", "value": null, "effect": "NoSchedule"}) == set()
	_findings({"key": "pool", "operator": null, "value": "x", "effect": null}) == set()
}

# --- valid tolerations --------------------------------------------------------------

test_valid_tolerations_produce_nothing if {
	r := rule.report with input as _pod([
		{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
		{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
		{"key": "dedicated", "value": "gpu"},
		{"key": "spot", "value": "", "effect": "PreferNoSchedule"},
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "example.com/GPU_type.v-1", "operator": "Exists"},
		{"operator": "Exists"},
	])
	r == set()
}

test_no_tolerations_produce_nothing if {
	rule.report == set() with input as {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": []}}
	rule.report == set() with input as {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}
}

# Each toleration is reported at its own index.
test_findings_carry_the_toleration_index if {
	r := rule.report with input as _pod([
		{"key": "ok", "operator": "Exists"},
		{"key": "bad", "operator": "exists"},
		{"key": "ok2", "operator": "Exists"},
		{"key": "bad2", "operator": "Exists", "effect": "Bogus"},
	])
	r == {
		{
			"path": ["spec", "tolerations", 1, "operator"],
			"message": "toleration operator \"exists\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)",
			"fix": [{"op": "replace", "path": ["spec", "tolerations", 1, "operator"], "value": "Exists"}],
		},
		{
			"path": ["spec", "tolerations", 3, "effect"],
			"message": "toleration effect \"Bogus\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\"",
		},
	}
}

# A toleration with several problems gets one finding per problem.
test_several_problems_in_one_toleration if {
	_findings({"key": "-bad", "operator": "Exists", "value": "v", "effect": "Bogus", "tolerationSeconds": 5}) == {
		{
			"path": _p("key"),
			"message": concat("", ["toleration key \"-bad\" is not a valid label key: ", _key_message]),
		},
		{
			"path": _p("value"),
			"message": "toleration value \"v\" must be empty when operator is \"Exists\" (Exists matches any value); remove the value or use operator \"Equal\"",
			"fix": [_remove("value")],
		},
		{
			"path": _p("effect"),
			"message": "toleration effect \"Bogus\" is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\"",
		},
		{
			"path": _p("effect"),
			"message": "tolerationSeconds needs effect \"NoExecute\", not \"Bogus\": only NoExecute taints evict pods",
		},
	}
}

# --- workload kinds -----------------------------------------------------------------

_bad := [{"key": "gpu", "operator": "exists"}]

_bad_message := "toleration operator \"exists\" is not supported: use \"Equal\" or \"Exists\" (did you mean \"Exists\"?)"

# _bad_at(prefix) is the finding of _bad in the pod spec at prefix, with
# its fix at the same path.
_bad_at(prefix) := {{
	"path": array.concat(prefix, ["tolerations", 0, "operator"]),
	"message": _bad_message,
	"fix": [{"op": "replace", "path": array.concat(prefix, ["tolerations", 0, "operator"]), "value": "Exists"}],
}}

test_pod_path if {
	rule.report == _bad_at(["spec"]) with input as _pod(_bad)
}

test_deployment_path if {
	rule.report == _bad_at(["spec", "template", "spec"]) with input as {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": _template(_bad)}}
}

test_statefulset_replicaset_job_replicationcontroller_paths if {
	every obj in [
		{"apiVersion": "apps/v1", "kind": "StatefulSet"},
		{"apiVersion": "apps/v1", "kind": "ReplicaSet"},
		{"apiVersion": "batch/v1", "kind": "Job"},
		{"apiVersion": "v1", "kind": "ReplicationController"},
		{"apiVersion": "apps/v1", "kind": "DaemonSet"},
		{"apiVersion": "apps/v1beta2", "kind": "DaemonSet"},
		{"apiVersion": "extensions/v1beta1", "kind": "Deployment"},
	] {
		r := rule.report with input as object.union(obj, {"metadata": {"name": "x"}, "spec": {"template": _template(_bad)}})
		r == _bad_at(["spec", "template", "spec"])
	}
}

test_extensions_v1beta1_daemonset_path if {
	r := rule.report with input as {"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "ds"}, "spec": {"template": _template(_bad)}}
	r == _bad_at(["spec", "template", "spec"])
}

test_cronjob_path if {
	r := rule.report with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "nightly"},
		"spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": _template(_bad)}}},
	}
	r == _bad_at(["spec", "jobTemplate", "spec", "template", "spec"])
}

test_podtemplate_path if {
	r := rule.report with input as {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "pt"}, "template": _template(_bad)}
	r == _bad_at(["template", "spec"])
}

test_custom_resource_named_deployment_is_not_checked if {
	rule.report == set() with input as {"apiVersion": "example.com/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": _template(_bad)}}
}

test_kinds_in_the_wrong_group_are_not_checked if {
	rule.report == set() with input as {"apiVersion": "apps/v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"tolerations": _bad}}
	rule.report == set() with input as {"apiVersion": "v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": _template(_bad)}}
	rule.report == set() with input as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"tolerations": "x"}}
}

# --- custom resources -----------------------------------------------------------------

# Every pod template of a custom resource is checked, and each finding points
# into the template it is in: here the second worker group of a RayCluster,
# whose head and first worker group are fine.
test_raycluster_worker_group if {
	r := rule.report with input as {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": _template([{"key": "head", "operator": "Exists"}])},
			"workerGroupSpecs": [
				{"replicas": 2, "template": _template([])},
				{"replicas": 4, "template": _template([{"key": "ok", "operator": "Exists"}, _bad[0]])},
			],
		},
	}
	r == {{
		"path": ["spec", "workerGroupSpecs", 1, "template", "spec", "tolerations", 1, "operator"],
		"message": _bad_message,
		"fix": [{"op": "replace", "path": ["spec", "workerGroupSpecs", 1, "template", "spec", "tolerations", 1, "operator"], "value": "Exists"}],
	}}
}

test_pytorchjob_replica_specs if {
	r := rule.report with input as {
		"apiVersion": "kubeflow.org/v1",
		"kind": "PyTorchJob",
		"metadata": {"name": "train"},
		"spec": {"pytorchReplicaSpecs": {
			"Master": {"replicas": 1, "template": _template(_bad)},
			"Worker": {"replicas": 8, "template": _template(_bad)},
		}},
	}
	r == _bad_at(["spec", "pytorchReplicaSpecs", "Master", "template", "spec"]) | _bad_at(["spec", "pytorchReplicaSpecs", "Worker", "template", "spec"])
}

# A JobSet's pods are two templates deep: a Job template per replicated job.
test_jobset_replicated_job if {
	r := rule.report with input as {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "js"},
		"spec": {"replicatedJobs": [
			{"name": "driver", "replicas": 1, "template": {"spec": {"template": _template([])}}},
			{"name": "workers", "replicas": 2, "template": {"spec": {"template": _template(_bad)}}},
		]},
	}
	r == _bad_at(["spec", "replicatedJobs", 1, "template", "spec", "template", "spec"])
}

test_leaderworkerset_leader_and_worker if {
	r := rule.report with input as {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "vllm"},
		"spec": {"replicas": 2, "leaderWorkerTemplate": {
			"leaderTemplate": _template([{"key": "gpu", "operator": "Exists", "value": "a100"}]),
			"workerTemplate": _template(_bad),
		}},
	}
	r == {
		{
			"path": ["spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "tolerations", 0, "value"],
			"message": "toleration value \"a100\" must be empty when operator is \"Exists\" (Exists matches any value); remove the value or use operator \"Equal\"",
			"fix": [{"op": "remove", "path": ["spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "tolerations", 0, "value"]}],
		},
		{
			"path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "tolerations", 0, "operator"],
			"message": _bad_message,
			"fix": [{"op": "replace", "path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "tolerations", 0, "operator"], "value": "Exists"}],
		},
	}
}

# --- what the library vouches for ------------------------------------------------------

_repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# Valid tolerations that the library's one-pattern check
# (k8s.tolerations_plainly_valid) does not vouch for go through tol.valid one
# by one, which finds nothing wrong with these.
test_valid_tolerations_beyond_the_plain_pattern if {
	tols := [
		{"key": "a.b.c.d.e/x", "operator": "Exists"},
		{"key": concat("/", [_repeat("p", 64), "x"]), "operator": "Exists"},
		{"key": concat("/", [concat(".", [_repeat("p", 63), _repeat("q", 63), _repeat("r", 63), _repeat("s", 61)]), "x"]), "operator": "Exists"},
		{"key": _repeat("k", 63), "operator": "Exists"},
		{"key": "dedicated", "value": _repeat("v", 63)},
		{"key": "pool", "operator": "Exists", "unknownField": true},
		{"key": "pool", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300.0},
	]
	every t in tols {
		_findings(t) == set()
	}
}

# One bad toleration among plainly valid ones is found, at its index, exactly
# as when it is alone.
test_plain_tolerations_do_not_hide_a_bad_one if {
	plain := {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
	bad := [
		[{"key": "dedicated", "operator": "Exists", "value": "gpu"}, "value"],
		[{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 300}, "effect"],
		[{"key": "dedicated", "operator": "Exists", "tolerationSeconds": 300}, "tolerationSeconds"],
		[{"key": "dedicated", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 1.5}, "tolerationSeconds"],
		[{"key": "", "operator": "Equal"}, "operator"],
		[{"value": "gpu"}, "operator"],
		[{"key": _repeat("k", 64), "operator": "Exists"}, "key"],
		[{"key": concat("/", [concat(".", [_repeat("p", 63), _repeat("q", 63), _repeat("r", 63), _repeat("s", 62)]), "x"]), "operator": "Exists"}, "key"],
		[{"key": "dedicated", "value": _repeat("v", 64)}, "value"],
		[{"key": "a..b/x", "operator": "Exists"}, "key"],
		[{"key": "dedicated", "operator": "Exists", "effect": "noSchedule"}, "effect"],
		[{"key": "dedicated", "operator": "Exists", "effect": null, "tolerationSeconds": 300}, "tolerationSeconds"],
	]
	every case in bad {
		[t, field] := case
		alone := _findings(t)
		some f in alone
		f.path == _p(field)
		among := rule.report with input as _pod([plain, t, plain])
		among == {_at_index(g, 1) | some g in alone}
	}
}

# _at_index(f) is finding f of a Pod's first toleration moved to index i,
# the edits of its fix with it.
_at_index(f, i) := json.patch(f, array.concat(
	[{"op": "replace", "path": "/path/2", "value": i}],
	[{"op": "replace", "path": sprintf("/fix/%d/path/2", [k]), "value": i} | some k, _ in object.get(f, "fix", [])],
))

# tol.valid, which the library uses to leave rejected tolerations out of a
# pod's valid_tolerations, agrees with the detailed checks: a toleration is
# valid exactly when they find nothing.
test_valid_agrees_with_the_checks if {
	tols := [
		{"key": "a", "operator": "Exists", "value": null},
		{"key": "a", "operator": null},
		{"key": null, "operator": "Exists"},
		{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0},
		{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": "300"},
		{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 1.5},
		{"key": "a", "operator": "Exists", "tolerationSeconds": 300},
		{"key": "", "operator": "Exists", "value": ""},
		{"key": "", "value": ""},
		{"key": "a", "operator": "Equal", "value": "-x"},
		{"key": "A/b", "operator": "Exists"},
		{"key": "a/b/c", "operator": "Exists"},
		{"key": "a", "operator": "exists"},
		{"key": "a", "operator": "Gt", "value": "5"},
		{"key": "a", "operator": "Exists", "effect": "noexecute"},
		{"key": "gpu", "operator": "Exists", "value": "yes"},
		{"key": "gpu", "operator": "Equal", "value": "yes", "effect": "NoSchedule"},
		{"operator": "Exists"},
		"not a mapping",
	]
	every t in tols {
		_valid_iff_no_finding(t)
	}
}

_valid_iff_no_finding(t) if {
	data.dslint.lib.tolerations.valid(t)
	_findings(t) == set()
}

_valid_iff_no_finding(t) if {
	not data.dslint.lib.tolerations.valid(t)
	count(_findings(t)) > 0
}
