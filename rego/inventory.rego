# METADATA
# description: |
#   Nodes of the inventory as the API server validates them (ValidateNode,
#   reference §4.5): label keys and values, and taints with a qualified-name
#   key, a label-value value, one of the three effects, and no two with the
#   same key and effect. dslint refuses an inventory with such a problem
#   rather than place workloads on nodes that cannot exist.
package dslint.lib.inventory

import data.dslint.lib.labels

# problems are the problems of the Node object in input: {"path", "message"}.
problems contains {"path": ["metadata", "labels", key], "message": msg} if {
	some key, value in _object(input.metadata.labels)
	some msg in label_problems(key, value)
}

problems contains {"path": array.concat(["spec", "taints"], p.path), "message": p.message} if {
	taints := input.spec.taints
	taints != null
	some p in taint_problems(taints)
}

problems contains {"path": ["spec", "unschedulable"], "message": msg} if {
	msg := unschedulable_problem(input.spec.unschedulable)
}

# batch_problems validate the distinct parts of a whole inventory at once
# (most nodes share their labels and taints): input.labels is a list of
# [key, value], input.taints a list of taint lists, input.unschedulable a
# list of values. Each problem names the part by "labels", "taints" or
# "unschedulable" and its index, with the path inside a taint list.
batch_problems contains {"part": "labels", "index": i, "path": [], "message": msg} if {
	some i, [key, value] in input.labels
	some msg in label_problems(key, value)
}

batch_problems contains {"part": "taints", "index": i, "path": p.path, "message": p.message} if {
	some i, taints in input.taints
	some p in taint_problems(taints)
}

batch_problems contains {"part": "unschedulable", "index": i, "path": [], "message": msg} if {
	some i, u in input.unschedulable
	msg := unschedulable_problem(u)
}

# label_problems(key, value) are the problems of one node label.
label_problems(key, value) := {sprintf("label key %q: %s", [key, msg]) |
	msg := labels.key_problem(key)
} | {sprintf("label %s=%v: value %s", [key, value, msg]) |
	msg := labels.value_problem(value)
}

# taint_problems(taints) are the problems of a node's taint list:
# {"path" (inside the list), "message"}.
taint_problems(taints) := {{"path": [], "message": "spec.taints must be a list of taints"}} if {
	not is_array(taints)
} else := {p |
	some i, t in taints
	some p in _taint_problems(i, t)
} | _duplicate_taints(taints)

# _taint_problems(i, t) are the problems of taint i taken alone.
_taint_problems(i, t) := {{"path": [i], "message": sprintf("taint %d must be a mapping with key, value and effect", [i])}} if {
	not is_object(t)
}

_taint_problems(i, t) := (_taint_key_problems(i, t) | _taint_value_problems(i, t)) | _taint_effect_problems(i, t) if {
	is_object(t)
}

_taint_key_problems(i, t) := {{"path": [i, "key"], "message": sprintf("taint key %q: %s", [key, msg])} |
	key := object.get(t, "key", "")
	msg := labels.key_problem(key)
}

_taint_value_problems(i, t) := {{"path": [i, "value"], "message": sprintf("taint value %v: %s", [t.value, msg])} |
	t.value != null
	msg := labels.value_problem(t.value)
}

_taint_effect_problems(i, t) := {{"path": [i, "effect"], "message": sprintf("taint effect %v: must be NoSchedule, PreferNoSchedule or NoExecute", [_quote(effect)])} |
	effect := object.get(t, "effect", "")
	not effect in {"NoSchedule", "PreferNoSchedule", "NoExecute"}
}

# _duplicate_taints(taints) are the problems of the taints that repeat the
# key and effect of an earlier one.
_duplicate_taints(taints) := {p |
	some i, a in taints
	some j, b in taints
	i < j
	is_object(a)
	is_object(b)
	object.get(a, "key", "") == object.get(b, "key", "")
	object.get(a, "effect", "") == object.get(b, "effect", "")
	p := {"path": [j], "message": sprintf("taint %d has the same key and effect as taint %d: taints must be unique by key and effect", [j, i])}
}

# unschedulable_problem(u) is what is wrong with spec.unschedulable.
unschedulable_problem(u) := "spec.unschedulable must be true or false" if {
	u != null
	not is_boolean(u)
}

_quote(s) := sprintf("%q", [s]) if is_string(s)

_quote(s) := sprintf("%v", [s]) if not is_string(s)

_object(x) := x if is_object(x)

_object(x) := {} if not is_object(x)
