# Every row of ValidateTolerations (reference §4.1), wrong types, and the
# pod spec path of every workload kind.
package dslint.rules["invalid-toleration"]

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
	r := report with input as _pod([tol])
}

_findings_gate_on(tol) := r if {
	r := report with input as _pod([tol]) with data.dslint.config as _gate_on
}

_paths(r) := {f.path | some f in r}

_p(field) := ["spec", "tolerations", 0, field]

# _one(r, path) is the message of r's only finding, which must be at path.
_one(r, path) := f.message if {
	count(r) == 1
	some f in r
	f.path == path
	not "severity" in object.keys(f)
}

# --- operator ------------------------------------------------------------------

test_unknown_operator if {
	msg := _one(_findings({"key": "dedicated", "operator": "Foo", "value": "gpu"}), _p("operator"))
	contains(msg, "toleration operator \"Foo\" is not supported")
	contains(msg, "use \"Equal\" or \"Exists\"")
	not contains(msg, "did you mean")
}

test_lowercase_exists_with_hint if {
	msg := _one(_findings({"key": "nvidia.com/gpu", "operator": "exists", "effect": "NoSchedule"}), _p("operator"))
	contains(msg, "\"exists\"")
	contains(msg, "(did you mean \"Exists\"?)")
}

test_uppercase_equal_with_hint if {
	msg := _one(_findings({"key": "dedicated", "operator": "EQUAL", "value": "gpu"}), _p("operator"))
	contains(msg, "\"EQUAL\"")
	contains(msg, "(did you mean \"Equal\"?)")
}

# Upstream reports both: the empty key needs Exists, and "exists" is unknown.
test_lowercase_exists_without_key_is_two_findings if {
	r := _findings({"operator": "exists"})
	count(r) == 2
	_paths(r) == {_p("operator")}
	some f1 in r
	contains(f1.message, "did you mean \"Exists\"?")
	some f2 in r
	contains(f2.message, "empty key must use operator \"Exists\"")
	contains(f2.message, "not \"exists\"")
}

test_unknown_operator_lists_lt_gt_with_gate_on if {
	msg := _one(_findings_gate_on({"key": "a", "operator": "Ge", "value": "5"}), _p("operator"))
	contains(msg, "use \"Equal\", \"Exists\", \"Lt\" or \"Gt\"")
}

# An unknown operator skips the value checks, as upstream's switch does.
test_unknown_operator_does_not_check_the_value if {
	msg := _one(_findings({"key": "a", "operator": "In", "value": "has space"}), _p("operator"))
	contains(msg, "\"In\"")
}

# --- empty key -------------------------------------------------------------------

test_empty_key_with_equal if {
	msg := _one(_findings({"operator": "Equal", "value": "gpu", "effect": "NoSchedule"}), _p("operator"))
	contains(msg, "empty key must use operator \"Exists\"")
	contains(msg, "not \"Equal\"")
}

test_explicit_empty_key_with_equal if {
	msg := _one(_findings({"key": "", "operator": "Equal", "effect": "NoSchedule"}), _p("operator"))
	contains(msg, "not \"Equal\"")
}

# No operator means Equal; the path names the absent operator (located at the
# toleration itself).
test_empty_key_without_operator if {
	msg := _one(_findings({"effect": "NoSchedule"}), _p("operator"))
	contains(msg, "not no operator (Equal)")
}

test_all_empty_toleration_is_invalid if {
	msg := _one(_findings({}), _p("operator"))
	contains(msg, "empty key must use operator \"Exists\"")
}

test_empty_key_with_exists_is_valid if {
	count(_findings({"operator": "Exists"})) == 0
	count(_findings({"key": "", "operator": "Exists"})) == 0
	count(_findings({"operator": "Exists", "effect": "NoExecute"})) == 0
	count(_findings({"operator": "Exists", "effect": "NoSchedule"})) == 0
}

# --- Exists with a value -----------------------------------------------------

test_exists_with_value if {
	msg := _one(_findings({"key": "nvidia.com/gpu", "operator": "Exists", "value": "true", "effect": "NoSchedule"}), _p("value"))
	contains(msg, "toleration value \"true\" must be empty when operator is \"Exists\"")
}

test_wildcard_exists_with_value if {
	msg := _one(_findings({"operator": "Exists", "value": "gpu"}), _p("value"))
	contains(msg, "\"gpu\"")
}

test_exists_with_empty_value_is_valid if {
	count(_findings({"key": "a", "operator": "Exists", "value": ""})) == 0
}

# --- tolerationSeconds ----------------------------------------------------------

test_toleration_seconds_with_noschedule_points_at_effect if {
	msg := _one(_findings({"key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 300}), _p("effect"))
	contains(msg, "tolerationSeconds needs effect \"NoExecute\", not \"NoSchedule\"")
}

test_toleration_seconds_with_prefernoschedule if {
	msg := _one(_findings({"key": "dedicated", "operator": "Exists", "effect": "PreferNoSchedule", "tolerationSeconds": 60}), _p("effect"))
	contains(msg, "not \"PreferNoSchedule\"")
}

test_toleration_seconds_without_effect_points_at_toleration_seconds if {
	msg := _one(_findings({"key": "dedicated", "operator": "Exists", "tolerationSeconds": 300}), _p("tolerationSeconds"))
	contains(msg, "not no effect (all effects)")
}

test_toleration_seconds_with_noexecute_is_valid if {
	count(_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300})) == 0
	count(_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0})) == 0
	count(_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": -10})) == 0
}

# tolerationSeconds: null decodes to a nil pointer: not set.
test_null_toleration_seconds_is_not_set if {
	count(_findings({"key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": null})) == 0
}

# --- key ------------------------------------------------------------------------

test_invalid_key if {
	msg := _one(_findings({"key": "-bad", "operator": "Exists"}), _p("key"))
	contains(msg, "toleration key \"-bad\" is not a valid label key")
	contains(msg, "name part must consist of alphanumeric characters")
}

test_key_with_two_slashes if {
	msg := _one(_findings({"key": "example.com/gpu/a100", "operator": "Exists"}), _p("key"))
	contains(msg, "more than one \"/\"")
}

test_key_with_uppercase_prefix if {
	msg := _one(_findings({"key": "Example.com/gpu", "operator": "Exists"}), _p("key"))
	contains(msg, "prefix part must be a lowercase DNS subdomain")
}

test_key_with_empty_name if {
	msg := _one(_findings({"key": "example.com/", "operator": "Exists"}), _p("key"))
	contains(msg, "name part must be non-empty")
}

# --- value for Equal --------------------------------------------------------------

test_invalid_value_for_equal if {
	msg := _one(_findings({"key": "dedicated", "operator": "Equal", "value": "has space", "effect": "NoSchedule"}), _p("value"))
	contains(msg, "toleration value \"has space\" is not a valid label value")
}

test_invalid_value_without_operator if {
	msg := _one(_findings({"key": "dedicated", "value": "gpu,cpu"}), _p("value"))
	contains(msg, "\"gpu,cpu\"")
}

test_too_long_value_for_equal if {
	long := concat("", [x | some _ in numbers.range(1, 64); x := "v"])
	msg := _one(_findings({"key": "dedicated", "operator": "Equal", "value": long}), _p("value"))
	contains(msg, "must be no more than 63 characters")
}

# --- effect -------------------------------------------------------------------------

test_unknown_effect if {
	msg := _one(_findings({"key": "dedicated", "operator": "Exists", "effect": "Bogus"}), _p("effect"))
	contains(msg, "toleration effect \"Bogus\" is not supported")
	contains(msg, "use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\"")
	not contains(msg, "did you mean")
}

test_effect_in_wrong_case if {
	msg := _one(_findings({"key": "dedicated", "operator": "Exists", "effect": "noschedule"}), _p("effect"))
	contains(msg, "\"noschedule\"")
	contains(msg, "(did you mean \"NoSchedule\"?)")
}

test_effect_in_upper_case if {
	msg := _one(_findings({"key": "dedicated", "operator": "Exists", "effect": "NOEXECUTE"}), _p("effect"))
	contains(msg, "(did you mean \"NoExecute\"?)")
}

# --- Lt / Gt ------------------------------------------------------------------------

test_gt_with_gate_off if {
	msg := _one(_findings({"key": "sla", "operator": "Gt", "value": "5", "effect": "NoSchedule"}), _p("operator"))
	contains(msg, "toleration operator \"Gt\" needs the TaintTolerationComparisonOperators feature gate")
}

test_lt_with_gate_explicitly_off if {
	r := report with input as _pod([{"key": "sla", "operator": "Lt", "value": "5"}]) with data.dslint.config as _gate_off
	msg := _one(r, _p("operator"))
	contains(msg, "\"Lt\"")
}

# With the gate off upstream rejects the operator only; the value is not parsed.
test_gt_with_gate_off_does_not_check_the_value if {
	msg := _one(_findings({"key": "sla", "operator": "Gt", "value": "007"}), _p("operator"))
	contains(msg, "feature gate")
}

test_gt_with_gate_on_and_canonical_value_is_valid if {
	count(_findings_gate_on({"key": "sla", "operator": "Gt", "value": "5", "effect": "NoSchedule"})) == 0
	count(_findings_gate_on({"key": "sla", "operator": "Lt", "value": "0"})) == 0
	count(_findings_gate_on({"key": "sla", "operator": "Lt", "value": "9223372036854775807"})) == 0
}

test_gt_with_gate_on_and_leading_zeros if {
	msg := _one(_findings_gate_on({"key": "sla", "operator": "Gt", "value": "007"}), _p("value"))
	contains(msg, "toleration value \"007\" must be a decimal integer in canonical form")
	contains(msg, "for operator \"Gt\"")
}

test_lt_with_gate_on_and_plus_sign if {
	msg := _one(_findings_gate_on({"key": "sla", "operator": "Lt", "value": "+5"}), _p("value"))
	contains(msg, "\"+5\"")
	contains(msg, "for operator \"Lt\"")
}

test_gt_with_gate_on_and_value_beyond_int64 if {
	msg := _one(_findings_gate_on({"key": "sla", "operator": "Gt", "value": "99999999999999999999"}), _p("value"))
	contains(msg, "\"99999999999999999999\"")
}

test_gt_with_gate_on_and_no_value if {
	msg := _one(_findings_gate_on({"key": "sla", "operator": "Gt"}), _p("value"))
	contains(msg, "toleration value \"\"")
}

test_gt_with_gate_on_and_empty_key if {
	msg := _one(_findings_gate_on({"operator": "Gt", "value": "5"}), _p("operator"))
	contains(msg, "empty key must use operator \"Exists\"")
}

# --- wrong types -----------------------------------------------------------------

# value: true is a YAML boolean; only the type is reported, not also an
# invalid label value.
test_boolean_value if {
	msg := _one(_findings({"key": "nvidia.com/gpu", "operator": "Equal", "value": true, "effect": "NoSchedule"}), _p("value"))
	contains(msg, "toleration value ⟦written:true⟧ is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")")
}

test_numeric_key if {
	msg := _one(_findings({"key": 5, "operator": "Exists"}), _p("key"))
	contains(msg, "toleration key ⟦written:5⟧ is not a string (YAML reads it as the number 5)")
}

test_string_toleration_seconds if {
	msg := _one(_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": "300"}), _p("tolerationSeconds"))
	contains(msg, "tolerationSeconds \"300\" must be an integer number of seconds")
}

test_fractional_toleration_seconds if {
	msg := _one(_findings({"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 1.5}), _p("tolerationSeconds"))
	contains(msg, "tolerationSeconds 1.5 must be an integer")
}

# A toleration written as a plain string or a list (a YAML slip) is one
# finding, and evaluating it must not raise a builtin error (this test runner
# raises them).
test_non_object_toleration if {
	msg := _one(_findings("node.kubernetes.io/not-ready"), ["spec", "tolerations", 0])
	contains(msg, "toleration must be a mapping with key, operator, value and effect, not \"node.kubernetes.io/not-ready\"")
	msg2 := _one(_findings(["a"]), ["spec", "tolerations", 0])
	contains(msg2, "not [\"a\"]")
}

# A YAML null (`value:` with nothing after it, `~`) decodes into an empty Go
# string on the API server (encoding/json leaves a non-pointer field alone for
# null), so the toleration is the same as one without the field.
test_null_fields_mean_absent if {
	count(_findings({"key": "pool", "operator": "Exists", "value": null, "effect": "NoSchedule"})) == 0
	count(_findings({"key": "pool", "operator": null, "value": "x", "effect": null})) == 0
}

# --- valid tolerations --------------------------------------------------------------

test_valid_tolerations_produce_nothing if {
	r := report with input as _pod([
		{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
		{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
		{"key": "dedicated", "value": "gpu"},
		{"key": "spot", "value": "", "effect": "PreferNoSchedule"},
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "example.com/GPU_type.v-1", "operator": "Exists"},
		{"operator": "Exists"},
	])
	count(r) == 0
}

test_no_tolerations_produce_nothing if {
	count(report) == 0 with input as {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": []}}
	count(report) == 0 with input as {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}
}

# Each toleration is reported at its own index.
test_findings_carry_the_toleration_index if {
	r := report with input as _pod([
		{"key": "ok", "operator": "Exists"},
		{"key": "bad", "operator": "exists"},
		{"key": "ok2", "operator": "Exists"},
		{"key": "bad2", "operator": "Exists", "effect": "Bogus"},
	])
	_paths(r) == {["spec", "tolerations", 1, "operator"], ["spec", "tolerations", 3, "effect"]}
	count(r) == 2
}

# A toleration with several problems gets one finding per problem.
test_several_problems_in_one_toleration if {
	r := _findings({"key": "-bad", "operator": "Exists", "value": "v", "effect": "Bogus", "tolerationSeconds": 5})
	_paths(r) == {_p("key"), _p("value"), _p("effect")}
	count(r) == 4 # the effect path holds both the unknown effect and tolerationSeconds
}

# --- workload kinds -----------------------------------------------------------------

_bad := [{"key": "gpu", "operator": "exists"}]

_op_path(prefix) := array.concat(prefix, ["tolerations", 0, "operator"])

test_pod_path if {
	r := report with input as _pod(_bad)
	_one(r, _op_path(["spec"]))
}

test_deployment_path if {
	r := report with input as {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": _template(_bad)}}
	_one(r, _op_path(["spec", "template", "spec"]))
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
		r := report with input as object.union(obj, {"metadata": {"name": "x"}, "spec": {"template": _template(_bad)}})
		_one(r, _op_path(["spec", "template", "spec"]))
	}
}

test_extensions_v1beta1_daemonset_path if {
	r := report with input as {"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "ds"}, "spec": {"template": _template(_bad)}}
	_one(r, _op_path(["spec", "template", "spec"]))
}

test_cronjob_path if {
	r := report with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "nightly"},
		"spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": _template(_bad)}}},
	}
	_one(r, _op_path(["spec", "jobTemplate", "spec", "template", "spec"]))
}

test_podtemplate_path if {
	r := report with input as {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "pt"}, "template": _template(_bad)}
	_one(r, _op_path(["template", "spec"]))
}

test_custom_resource_named_deployment_is_not_checked if {
	count(report) == 0 with input as {"apiVersion": "example.com/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": _template(_bad)}}
}

test_kinds_in_the_wrong_group_are_not_checked if {
	count(report) == 0 with input as {"apiVersion": "apps/v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"tolerations": _bad}}
	count(report) == 0 with input as {"apiVersion": "v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": _template(_bad)}}
	count(report) == 0 with input as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"tolerations": "x"}}
}

# --- the fast path for plainly valid lists ------------------------------------------

_repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# The common tolerations are vouched for by one check of the whole list.
test_plain_lists_take_the_fast_path if {
	not _any_suspect with input as _pod([])
	not _any_suspect with input as _pod([
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
		{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
		{"key": "dedicated", "value": "gpu"},
		{"key": "spot", "value": "", "effect": "PreferNoSchedule"},
		{"key": "example.com/GPU_type.v-1", "operator": "Exists"},
		{"key": "pool", "operator": "Exists", "tolerationSeconds": null},
		{"operator": "Exists"},
		{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": -5},
	])
}

# What the fast path cannot vouch for goes through the detailed checks, which
# find nothing wrong with these.
test_valid_tolerations_beyond_the_fast_path if {
	tols := [
		{"key": "a.b.c.d.e/x", "operator": "Exists"},
		{"key": concat("/", [_repeat("p", 64), "x"]), "operator": "Exists"},
		{"key": concat("/", [concat(".", [_repeat("p", 63), _repeat("q", 63), _repeat("r", 63), _repeat("s", 61)]), "x"]), "operator": "Exists"},
		{"key": _repeat("k", 63), "operator": "Exists"},
		{"key": "dedicated", "value": _repeat("v", 63)},
		{"key": "pool", "operator": "Exists", "unknownField": true},
		{"key": "pool", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300.0},
	]
	some t in tols
	_any_suspect with input as _pod([t])
	count(_findings(t)) == 0
}

# One bad toleration among plain ones is found, at its index.
test_fast_path_does_not_hide_a_bad_toleration if {
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
	every b in bad {
		r := report with input as _pod([plain, b[0], plain])
		["spec", "tolerations", 1, b[1]] in _paths(r)
		every f in r {
			f.path[2] == 1
		}
	}
}

# The fast path vouches only for plainly valid tolerations: for each of these
# near misses, either it leaves the toleration to the detailed checks or
# the toleration is valid (tol.valid).
test_fast_path_is_never_looser_than_valid if {
	near := [
		{"key": "a", "operator": "Exists", "value": null},
		{"key": "a", "operator": "Equal", "value": null},
		{"key": "a", "operator": null},
		{"key": null, "operator": "Exists"},
		{"key": "a", "operator": "Exists", "effect": null},
		{"key": "a", "operator": "Exists", "effect": ""},
		{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0},
		{"key": "a", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": "300"},
		{"key": "a", "operator": "Exists", "effect": "PreferNoSchedule", "tolerationSeconds": null},
		{"key": "a", "operator": "Exists", "tolerationSeconds": 300},
		{"key": "", "operator": "Exists", "value": ""},
		{"key": "", "value": ""},
		{"key": "a", "operator": "", "value": "x.y_z-1"},
		{"key": "a", "operator": "Equal", "value": "-x"},
		{"key": "a", "operator": "Equal", "value": "x_"},
		{"key": "a", "operator": "Equal", "value": "a b"},
		{"key": "A/b", "operator": "Exists"},
		{"key": "a_b/c", "operator": "Exists"},
		{"key": "a-/c", "operator": "Exists"},
		{"key": "a.-b/c", "operator": "Exists"},
		{"key": "a/.c", "operator": "Exists"},
		{"key": "a/c.", "operator": "Exists"},
		{"key": "/c", "operator": "Exists"},
		{"key": "a/", "operator": "Exists"},
		{"key": "a/b/c", "operator": "Exists"},
		{"key": "A.b-C_d", "operator": "Exists"},
		{"key": "1", "operator": "Exists"},
		{"key": "a", "operator": "Exists", "value": "", "extra": 1},
		{"key": "a", "operator": "exists"},
		{"key": "a", "operator": "Gt", "value": "5"},
		{"key": "a", "operator": "Exists", "effect": "noexecute"},
	]
	every t in near {
		_left_to_the_detailed_checks_or_plain(t)
	}
}

_left_to_the_detailed_checks_or_plain(t) if _any_suspect with input as _pod([t])

_left_to_the_detailed_checks_or_plain(t) if data.dslint.lib.tolerations.valid(t)

# tol.valid, which other rules use to skip rejected tolerations, agrees with
# the detailed checks: a toleration is valid exactly when they find nothing.
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
	count(_findings(t)) == 0
}

_valid_iff_no_finding(t) if {
	not data.dslint.lib.tolerations.valid(t)
	count(_findings(t)) > 0
}
