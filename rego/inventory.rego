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
problems contains {"path": ["metadata", "labels", key], "message": sprintf("label key %q: %s", [key, msg])} if {
	some key, _ in _object(input.metadata.labels)
	msg := labels.key_problem(key)
}

problems contains {"path": ["metadata", "labels", key], "message": sprintf("label %s=%v: value %s", [key, value, msg])} if {
	some key, value in _object(input.metadata.labels)
	msg := labels.value_problem(value)
}

problems contains {"path": ["spec", "taints"], "message": "spec.taints must be a list of taints"} if {
	taints := input.spec.taints
	taints != null
	not is_array(taints)
}

problems contains {"path": ["spec", "taints", i], "message": sprintf("taint %d must be a mapping with key, value and effect", [i])} if {
	some i, t in _array(input.spec.taints)
	not is_object(t)
}

problems contains {"path": ["spec", "taints", i, "key"], "message": sprintf("taint key %q: %s", [object.get(t, "key", ""), msg])} if {
	some i, t in _array(input.spec.taints)
	is_object(t)
	msg := labels.key_problem(object.get(t, "key", ""))
}

problems contains {"path": ["spec", "taints", i, "value"], "message": sprintf("taint value %v: %s", [t.value, msg])} if {
	some i, t in _array(input.spec.taints)
	t.value != null
	msg := labels.value_problem(t.value)
}

problems contains {"path": ["spec", "taints", i, "effect"], "message": sprintf("taint effect %v: must be NoSchedule, PreferNoSchedule or NoExecute", [_quote(object.get(t, "effect", ""))])} if {
	some i, t in _array(input.spec.taints)
	is_object(t)
	not object.get(t, "effect", "") in {"NoSchedule", "PreferNoSchedule", "NoExecute"}
}

problems contains {"path": ["spec", "taints", j], "message": sprintf("taint %d has the same key and effect as taint %d: taints must be unique by key and effect", [j, i])} if {
	ts := _array(input.spec.taints)
	some i, a in ts
	some j, b in ts
	i < j
	is_object(a)
	is_object(b)
	object.get(a, "key", "") == object.get(b, "key", "")
	object.get(a, "effect", "") == object.get(b, "effect", "")
}

problems contains {"path": ["spec", "unschedulable"], "message": "spec.unschedulable must be true or false"} if {
	u := input.spec.unschedulable
	u != null
	not is_boolean(u)
}

_quote(s) := sprintf("%q", [s]) if is_string(s)

_quote(s) := sprintf("%v", [s]) if not is_string(s)

_object(x) := x if is_object(x)

_object(x) := {} if not is_object(x)

_array(x) := x if is_array(x)

_array(x) := [] if not is_array(x)
