# METADATA
# description: |
#   Tolerations and taints with the exact upstream semantics
#   (k8s.io/api core/v1 Toleration.ToleratesTaint, v1.36): an empty effect
#   matches every effect, an empty key every key; "Equal" (or no operator)
#   compares values exactly, "Exists" ignores the value; operators are
#   case-sensitive; Lt/Gt match only with the TaintTolerationComparisonOperators
#   gate on, comparing canonical int64 values (taint < or > toleration).
#   Missing fields read as "" as they do in the Go structs.
package dslint.lib.tolerations

import data.dslint.lib.labels
import data.dslint.lib.settings

# field(x, name) is a field of a toleration or taint as the Go structs hold
# it: "" when absent or null (JSON null decodes to the zero value), and ""
# for anything that is not an object at all.
field(x, name) := v if {
	is_object(x)
	v := object.get(x, name, null)
	v != null
} else := ""

# tolerates(toleration, taint) is true when the toleration tolerates the taint
# with the gate as configured for this run.
tolerates(toleration, taint) if tolerates_with_gate(toleration, taint, settings.comparison_operators)

# tolerates_with_gate is tolerates with the comparison-operator gate given.
tolerates_with_gate(toleration, taint, gate) if {
	_effect_matches(field(toleration, "effect"), field(taint, "effect"))
	_key_matches(field(toleration, "key"), field(taint, "key"))
	_operator_matches(toleration, taint, gate)
}

_effect_matches("", _)

_effect_matches(e, e) if e != ""

_key_matches("", _)

_key_matches(k, k) if k != ""

_operator_matches(toleration, taint, _) if {
	field(toleration, "operator") in {"", "Equal"}
	field(toleration, "value") == field(taint, "value")
}

_operator_matches(toleration, _, _) if field(toleration, "operator") == "Exists"

_operator_matches(toleration, taint, true) if {
	field(toleration, "operator") == "Lt"
	_compare(toleration, taint, "Lt")
}

_operator_matches(toleration, taint, true) if {
	field(toleration, "operator") == "Gt"
	_compare(toleration, taint, "Gt")
}

_compare(toleration, taint, op) if {
	labels.canonical_int(field(toleration, "value"))
	labels.canonical_int(field(taint, "value"))
	_numeric(to_number(field(taint, "value")), to_number(field(toleration, "value")), op)
}

_numeric(taint_value, toleration_value, "Lt") if taint_value < toleration_value

_numeric(taint_value, toleration_value, "Gt") if taint_value > toleration_value

# tolerated(tolerations, taint) is true when any toleration of the list
# tolerates the taint (TolerationsTolerateTaint).
tolerated(tolerations, taint) if {
	some t in tolerations
	tolerates(t, taint)
}

# string_of_taint renders a taint as key=value:effect, the way kubectl does.
string_of_taint(taint) := sprintf("%s%s%s", [
	field(taint, "key"),
	_suffix("=", field(taint, "value")),
	_suffix(":", field(taint, "effect")),
])

_suffix(_, "") := ""

_suffix(sep, s) := concat("", [sep, s]) if s != ""

# The taints a DaemonSet controller tolerates on behalf of every DaemonSet pod
# (AddOrUpdateDaemonPodTolerations); network-unavailable only with hostNetwork.
daemonset_auto_tolerations(pod_spec) := array.concat(_always_daemon, _network_daemon(pod_spec))

_always_daemon := [
	{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
	{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
	{"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
]

_network_daemon(pod_spec) := [{"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"}] if {
	pod_spec.hostNetwork == true
}

_network_daemon(pod_spec) := [] if not pod_spec.hostNetwork == true

# same_toleration(a, b) is MatchToleration: key, effect, operator and value
# equal as written (an absent operator is not "Equal" here), tolerationSeconds
# aside. It decides which of a pod's tolerations the DaemonSet controller
# replaces with its own.
same_toleration(a, b) if {
	is_object(a)
	is_object(b)
	field(a, "key") == field(b, "key") # most pairs differ here: check it first
	every name in ["effect", "operator", "value"] {
		field(a, name) == field(b, name)
	}
}

# daemonset_pod_tolerations(pod_spec) is the toleration list of the pods a
# DaemonSet controller creates (AddOrUpdateDaemonPodTolerations): a user
# toleration the controller matches is replaced in place by its own (losing
# tolerationSeconds), the others are appended. Entries that are not mappings
# stay as they are, so indexes are those of the manifest.
daemonset_pod_tolerations(pod_spec) := array.concat(
	[_as_created(t, auto) | some t in _list(pod_spec.tolerations)],
	[a | some a in auto; not _replaces_one(a, pod_spec)],
) if {
	auto := daemonset_auto_tolerations(pod_spec)
}

_as_created(t, auto) := a if {
	some a in auto
	same_toleration(t, a)
} else := t

_replaces_one(a, pod_spec) if {
	some t in _list(pod_spec.tolerations)
	same_toleration(t, a)
}

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)
