# METADATA
# title: Toleration the API server rejects or that can never match
# description: |
#   A toleration is checked by the API server (ValidateTolerations) when the
#   workload is applied: a bad one fails the deploy, or, in a Deployment's pod
#   template, leaves the rollout stuck. This rule reports each problem the API
#   server would report, at the offending field: an operator other than
#   Equal or Exists (operators are case-sensitive: "exists" is rejected), an
#   empty key without "Exists", a value with "Exists", an effect other than
#   NoSchedule, PreferNoSchedule or NoExecute, tolerationSeconds without
#   effect NoExecute, a key that is not a valid label key, a value that is not
#   a valid label value, a field of the wrong type (value: true instead of
#   "true"), and Lt/Gt while the TaintTolerationComparisonOperators feature
#   gate is off (the default through 1.36) or with a value that is not a
#   canonical integer.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
#     description: Taints and Tolerations
# custom:
#   severity: error
#   fixable: true
#   intent: |
#     Fires on every toleration the API server rejects, or that can never
#     match, at the offending field: the one rule that judges a rejected
#     toleration (the others skip it, so one mistake makes one finding). A
#     value YAML reads as a boolean or number is quoted as written. Lt and Gt
#     follow the TaintTolerationComparisonOperators gate (featureGates). Stays
#     quiet for valid tolerations and for fragments.
#   remediation: |
#     Use operator Equal with a key and a value, or operator Exists with a key
#     and no value (or no key at all to tolerate every taint). Write effects as
#     NoSchedule, PreferNoSchedule or NoExecute, quote values that look like
#     booleans or numbers, and only set tolerationSeconds with effect NoExecute.
#     dslint fix spells an operator or effect written in the wrong case
#     (exists, noschedule) as it should be, removes the value of an Exists
#     toleration, and quotes a key or value that YAML reads as a boolean or
#     number (an Exists toleration's value goes instead); the other problems
#     have more than one repair and are left to you.
#   bad: |
#     apiVersion: v1
#     kind: Pod
#     metadata:
#       name: trainer
#     spec:
#       containers: [{name: main, image: trainer:1.0}]
#       tolerations:
#         - key: nvidia.com/gpu
#           operator: Exists
#           value: "true"
#           effect: NoSchedule
#   good: |
#     apiVersion: v1
#     kind: Pod
#     metadata:
#       name: trainer
#     spec:
#       containers: [{name: main, image: trainer:1.0}]
#       tolerations:
#         - key: nvidia.com/gpu
#           operator: Exists
#           effect: NoSchedule
package dslint.rules["invalid-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.labels
import data.dslint.lib.result
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

_effects := ["NoSchedule", "PreferNoSchedule", "NoExecute"]

_string_fields := ["key", "operator", "value", "effect"]

# A finding for each problem of each toleration the API server rejects
# (_problems, one body per problem). Almost every object has none, and
# then its problems are not looked for: evaluating the twelve bodies for
# every object tripled the rule's cost on make bench's corpus.
report contains finding if {
	count(_rejected) > 0
	some finding in _problems
}

# _rejected maps the path of each toleration the API server rejects to the
# toleration: every toleration of a pod that the library leaves out of its
# valid_tolerations (tol.valid, the one definition of a valid toleration).
_rejected[k8s.pod_path(pod, ["tolerations", i])] := t if {
	some pod in k8s.pods
	some i, t in pod.tolerations
	not pod.valid_tolerations[i] # valid_tolerations maps indexes to mappings
}

_problems contains result.fail(at, msg) if {
	some at, t in _rejected
	not is_object(t)
	msg := sprintf("toleration must be a mapping with key, operator, value and effect, not %s", [_show(t)])
}

# Wrong types fail decoding before any other check runs.
_problems contains _type_fix(result.fail(_field(at, name), msg), at, t, name) if {
	some at, t in _rejected
	is_object(t)
	some name in _string_fields
	not is_string(tol.field(t, name))
	msg := sprintf("toleration %s %s is not a string (YAML reads it as %s); quote it (\"%s\")", [name, result.as_written(t[name]), result.read_as(t[name]), result.as_written(t[name])])
}

_problems contains result.fail(_field(at, "tolerationSeconds"), msg) if {
	some at, t in _rejected
	is_object(t)
	secs := t.tolerationSeconds
	secs != null
	not _is_integer(secs)
	msg := sprintf("tolerationSeconds %s must be an integer number of seconds", [_show(secs)])
}

_problems contains _case_fix(result.fail(_field(at, "operator"), msg), at, t, "operator", ["Equal", "Exists"]) if {
	some at, t in _typed
	op := tol.field(t, "operator")
	not op in {"", "Equal", "Exists", "Lt", "Gt"}
	msg := sprintf("toleration operator %q is not supported: use %s%s", [op, _supported_operators, _did_you_mean(op, ["Equal", "Exists"])])
}

_problems contains result.fail(_field(at, "operator"), msg) if {
	not settings.comparison_operators
	some at, t in _typed
	op := tol.field(t, "operator")
	op in {"Lt", "Gt"}
	msg := sprintf("toleration operator %q needs the TaintTolerationComparisonOperators feature gate (alpha, off by default): the API server rejects it and it matches no taint", [op])
}

_problems contains _case_fix(result.fail(_field(at, "operator"), msg), at, t, "operator", ["Exists"]) if {
	some at, t in _typed
	tol.field(t, "key") == ""
	op := tol.field(t, "operator")
	op != "Exists"
	msg := sprintf("toleration with an empty key must use operator \"Exists\" (to tolerate every taint), not %s", [_show_operator(op)])
}

_problems contains result.fail(_field(at, "key"), msg) if {
	some at, t in _typed
	key := tol.field(t, "key")
	key != ""
	problem := labels.key_problem(key)
	msg := sprintf("toleration key %q is not a valid label key: %s", [key, problem])
}

_problems contains result.with_fix(result.fail(_field(at, "value"), msg), [result.remove(_field(at, "value"))]) if {
	some at, t in _typed
	tol.field(t, "operator") == "Exists"
	value := tol.field(t, "value")
	value != ""
	msg := sprintf("toleration value %q must be empty when operator is \"Exists\" (Exists matches any value); remove the value or use operator \"Equal\"", [value])
}

_problems contains result.fail(_field(at, "value"), msg) if {
	some at, t in _typed
	tol.field(t, "operator") in {"", "Equal"}
	value := tol.field(t, "value")
	problem := labels.value_problem(value)
	msg := sprintf("toleration value %q is not a valid label value: %s", [value, problem])
}

_problems contains result.fail(_field(at, "value"), msg) if {
	settings.comparison_operators
	some at, t in _typed
	op := tol.field(t, "operator")
	op in {"Lt", "Gt"}
	value := tol.field(t, "value")
	not labels.canonical_int(value)
	msg := sprintf("toleration value %q must be a decimal integer in canonical form (no leading zeros or \"+\", within int64) for operator %q", [value, op])
}

_problems contains _case_fix(result.fail(_field(at, "effect"), msg), at, t, "effect", _effects) if {
	some at, t in _typed
	effect := tol.field(t, "effect")
	effect != ""
	not effect in _effects
	msg := sprintf("toleration effect %q is not supported: use \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\"%s", [effect, _did_you_mean(effect, _effects)])
}

_problems contains _case_fix(result.fail(_seconds_path(at, t), msg), at, t, "effect", ["NoExecute"]) if {
	some at, t in _typed
	t.tolerationSeconds != null
	effect := tol.field(t, "effect")
	effect != "NoExecute"
	msg := sprintf("tolerationSeconds needs effect \"NoExecute\", not %s: only NoExecute taints evict pods", [_show_effect(effect)])
}

# _typed are the rejected tolerations whose fields have the right types;
# type errors are reported once above and hide the checks that would only
# repeat them.
_typed[at] := t if {
	some at, t in _rejected
	is_object(t)
	every name in _string_fields {
		is_string(tol.field(t, name))
	}
}

# _field(at, name) is the path of a field of the toleration at path at.
_field(at, name) := array.concat(at, [name])

# tolerationSeconds without NoExecute: upstream reports the effect; point at
# the effect when it is written, at tolerationSeconds when it is left out.
_seconds_path(at, t) := _field(at, "effect") if tol.field(t, "effect") != ""

_seconds_path(at, t) := _field(at, "tolerationSeconds") if tol.field(t, "effect") == ""

_supported_operators := "\"Equal\" or \"Exists\"" if not settings.comparison_operators

_supported_operators := "\"Equal\", \"Exists\", \"Lt\" or \"Gt\"" if settings.comparison_operators

_did_you_mean(s, options) := sprintf(" (did you mean %q?)", [_proper_case(s, options)]) if {
	_proper_case(s, options)
} else := ""

# _proper_case(s, options) is the option that s spells in the wrong case.
_proper_case(s, options) := o if {
	some o in options
	lower(o) == lower(s)
}

# --- fixes ------------------------------------------------------------------------

# _case_fix(f, at, t, name, options) is finding f with its repair when field
# name of the toleration t at path at is one of options in the wrong case
# ("exists", "noschedule"): the option's spelling. A toleration whose
# operator becomes Exists also loses its value, which Exists rejects. Any
# other operator or effect has no one right replacement: f stays as it is.
_case_fix(f, at, t, name, options) := result.with_fix(f, array.concat([result.replace(_field(at, name), o)], _value_removal(at, t, o))) if {
	o := _proper_case(tol.field(t, name), options)
} else := f

_value_removal(at, t, o) := [result.remove(_field(at, "value"))] if {
	o == "Exists"
	tol.field(t, "value") != ""
} else := []

# _type_fix(f, at, t, name) is finding f with its repair when YAML read the
# key or the value as a boolean or a number (value: yes, key: 8): the string
# as written, or, for the value of an Exists toleration, no value at all,
# since Exists rejects any. No operator or effect is a boolean or a number
# once quoted, and a mapping, a list or a null has no text to quote: those
# keep no fix.
_type_fix(f, at, t, "value") := result.with_fix(f, [result.remove(_field(at, "value"))]) if {
	result.quotable(t.value)
	tol.field(t, "operator") == "Exists"
} else := result.with_fix(f, [result.quote(_field(at, "value"))]) if {
	result.quotable(t.value)
} else := f

_type_fix(f, at, t, "key") := result.with_fix(f, [result.quote(_field(at, "key"))]) if {
	result.quotable(t.key)
} else := f

_type_fix(f, _, _, name) := f if name in {"operator", "effect"}

_show_operator("") := "no operator (Equal)"

_show_operator(op) := sprintf("%q", [op]) if op != ""

_show_effect("") := "no effect (all effects)"

_show_effect(e) := sprintf("%q", [e]) if e != ""

_is_integer(x) if {
	is_number(x)
	x == floor(x)
}

_show(x) := sprintf("%q", [x]) if is_string(x)

_show(x) := json.marshal(x) if not is_string(x)
