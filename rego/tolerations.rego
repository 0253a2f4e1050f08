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
	v := x[name]
	v != null
} else := ""

# tolerates(toleration, taint) is true when the toleration tolerates the taint
# with the gate as configured for this run.
tolerates(toleration, taint) if tolerates_with_gate(toleration, taint, settings.comparison_operators)

# tolerates_with_gate is tolerates with the comparison-operator gate given.
# An empty effect or key matches every one: the toleration's own field (null
# when absent, which field reads as "") is null, "" or the taint's. Written
# with few function calls, as rules call it for every toleration and taint.
tolerates_with_gate(toleration, taint, gate) if {
	is_object(toleration)
	object.get(toleration, "effect", null) in {null, "", field(taint, "effect")}
	object.get(toleration, "key", null) in {null, "", field(taint, "key")}
	_operator_matches(object.get(toleration, "operator", null), toleration, taint, gate)
}

# A list entry that is not a mapping decodes as the empty toleration: any
# effect, any key, operator Equal with the value "".
tolerates_with_gate(toleration, taint, _) if {
	not is_object(toleration)
	field(taint, "value") == ""
}

# One body per operator, the operator as the first argument (null when
# absent, which is Equal): a body whose operator differs fails before its
# body is evaluated.
_operator_matches("Exists", _, _, _)

_operator_matches(null, toleration, taint, _) if field(toleration, "value") == field(taint, "value")

_operator_matches("Equal", toleration, taint, _) if field(toleration, "value") == field(taint, "value")

_operator_matches("", toleration, taint, _) if field(toleration, "value") == field(taint, "value")

_operator_matches("Lt", toleration, taint, true) if _compare(toleration, taint, "Lt")

_operator_matches("Gt", toleration, taint, true) if _compare(toleration, taint, "Gt")

_compare(toleration, taint, op) if {
	labels.canonical_int(field(toleration, "value"))
	labels.canonical_int(field(taint, "value"))
	_numeric(to_number(field(taint, "value")), to_number(field(toleration, "value")), op)
}

_numeric(taint_value, toleration_value, "Lt") if taint_value < toleration_value

_numeric(taint_value, toleration_value, "Gt") if taint_value > toleration_value

# valid(t) is true when the API server accepts toleration t
# (ValidateTolerations, reference §4.1): fields of the right types, a known
# operator (Lt and Gt only with the TaintTolerationComparisonOperators gate,
# and a canonical integer value), an empty key only with Exists, a valid key
# and value, a known effect, tolerationSeconds only with NoExecute. A rejected
# toleration is invalid-toleration's to report; other rules skip it
# (k8s.valid_tolerations), so one mistake makes one finding.
valid(t) if {
	is_object(t)
	field(t, "effect") in {"", "NoSchedule", "PreferNoSchedule", "NoExecute"}
	_valid_seconds(t)
	_valid_operator(field(t, "operator"), field(t, "key"), field(t, "value"))
	every name in ["key", "operator", "value", "effect"] {
		is_string(field(t, name))
	}
}

_valid_seconds(t) if object.get(t, "tolerationSeconds", null) == null

_valid_seconds(t) if {
	secs := t.tolerationSeconds
	is_number(secs)
	secs == floor(secs)
	t.effect == "NoExecute"
}

_valid_operator("Exists", "", "")

_valid_operator("Exists", key, "") if labels.valid_key(key)

_valid_operator(op, key, value) if {
	op in {"", "Equal"}
	labels.valid_key(key)
	labels.valid_value(value)
}

_valid_operator(op, key, value) if {
	op in {"Lt", "Gt"}
	settings.comparison_operators
	labels.valid_key(key)
	labels.canonical_int(value)
}

# control_plane_taint and master_taint are the taints kubeadm puts on
# control-plane nodes, the master one through 1.24 (reference §6).
control_plane_taint := {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}

master_taint := {"key": "node-role.kubernetes.io/master", "effect": "NoSchedule"}

# control_plane_taints are those of the target release
# (settings.kubernetes_minor): the master taint through 1.23, both in 1.24,
# the control-plane taint from 1.25 on.
control_plane_taints := [control_plane_taint] if {
	settings.kubernetes_minor >= 25
} else := [control_plane_taint, master_taint] if {
	settings.kubernetes_minor == 24
} else := [master_taint]

# control_plane_counterpart(t) is the toleration of the control-plane taint
# that does what t, a toleration of the master taint, did: Equal with t's
# value when t has one, else Exists, with t's effect and tolerationSeconds
# when it has them.
control_plane_counterpart(t) := object.union(_counterpart_match(t), {name: v |
	some name in ["effect", "tolerationSeconds"]
	v := t[name]
	not v in {null, ""}
})

_counterpart_match(t) := {"key": control_plane_taint.key, "operator": "Equal", "value": field(t, "value")} if {
	field(t, "operator") in {"", "Equal"}
	field(t, "value") != ""
} else := {"key": control_plane_taint.key, "operator": "Exists"}

# text(t) writes the toleration t in a message, its fields in the API's
# order, those it leaves out left out: {key: a, operator: Equal, value:
# "b", effect: NoSchedule, tolerationSeconds: 30}.
text(t) := sprintf("{%s}", [concat(", ", [_field_text(name, v) |
	some name in ["key", "operator", "value", "effect", "tolerationSeconds"]
	v := object.get(t, name, "")
	not v in {"", null}
])])

_field_text("value", v) := sprintf("value: %q", [v])

_field_text(name, v) := sprintf("%s: %v", [name, v]) if name != "value"

# hands_over_eviction(tolerations, i, t, taint) is true when t, as the
# toleration at index i of the list, is the first to tolerate the NoExecute
# taint, which sets how long the pods stay on a node with it (its
# tolerationSeconds, reference §2.3), and without it a later toleration
# with another tolerationSeconds would be: removing t, or writing it as t,
# changes when the pods are evicted.
hands_over_eviction(tolerations, i, t, taint) if {
	first := min({j | some j, other in tolerations; j != i; tolerates(other, taint)})
	first > i
	object.get(tolerations[first], "tolerationSeconds", null) != object.get(t, "tolerationSeconds", null)
}

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
# Literal lists: a constant in a rule's head costs nothing to build.
daemonset_auto_tolerations(pod_spec) := [
	{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
	{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
	{"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"},
] if {
	pod_spec.hostNetwork == true
} else := [
	{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
	{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
	{"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
	{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
]

# daemonset_replacement(pod_spec, t) is the toleration of
# daemonset_auto_tolerations(pod_spec) that the controller puts in place of
# the pod's toleration t (same_toleration), undefined when there is none.
# The controller's keys differ, so t's key finds the only candidate.
daemonset_replacement(pod_spec, t) := a if {
	a := _daemon_by_key(pod_spec)[t.key]
	_replaces(t, a)
}

# _replaces(t, a) is same_toleration(t, a) for a toleration a of the
# controller, which has a key, operator Exists, an effect and no value.
_replaces(t, a) if {
	t.operator == "Exists"
	t.effect == a.effect
	t.key == a.key
	object.get(t, "value", null) in {null, ""}
}

_daemon_by_key(pod_spec) := {a.key: a | some a in daemonset_auto_tolerations(pod_spec)}

# same_toleration(a, b) is MatchToleration: key, effect, operator and value
# equal as written (an absent operator is not "Equal" here), tolerationSeconds
# aside. It decides which of a pod's tolerations the DaemonSet controller
# replaces with its own.
same_toleration(a, b) if {
	is_object(a)
	is_object(b)
	field(a, "key") == field(b, "key") # most pairs differ here: check it first
	field(a, "effect") == field(b, "effect")
	field(a, "operator") == field(b, "operator")
	field(a, "value") == field(b, "value")
}

# daemonset_pod_tolerations(pod_spec) is the toleration list of the pods a
# DaemonSet controller creates (AddOrUpdateDaemonPodTolerations): a user
# toleration the controller matches is replaced in place by its own (losing
# tolerationSeconds), the others are appended. Entries that are not mappings
# stay as they are, so indexes are those of the manifest.
daemonset_pod_tolerations(pod_spec) := array.concat(
	[_as_created(pod_spec, t) | some t in own],
	[a | some a in daemonset_auto_tolerations(pod_spec); not a.key in replaced],
) if {
	own := [t | some t in _list(pod_spec.tolerations)] # [] without tolerations
	replaced := {a.key | some t in own; a := daemonset_replacement(pod_spec, t)}
}

_as_created(pod_spec, t) := daemonset_replacement(pod_spec, t) if {
	daemonset_replacement(pod_spec, t)
} else := t

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)
