package dslint.lib.inventory_test

import data.dslint.lib.inventory

_node(labels, taints) := {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": labels}, "spec": {"taints": taints}}

test_valid_node_has_no_problems if {
	n := _node({"node-role.kubernetes.io/control-plane": "", "gpus": "08"}, [
		{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"},
		{"key": "k", "value": "v1", "effect": "NoSchedule"},
		{"key": "k", "value": "v2", "effect": "NoExecute"},
	])
	count(inventory.problems) == 0 with input as n
}

test_bad_labels if {
	ps := inventory.problems with input as _node({"-bad": "x", "ok": "has space", "n": 4}, [])
	{p.path | some p in ps} == {["metadata", "labels", "-bad"], ["metadata", "labels", "ok"], ["metadata", "labels", "n"]}
}

test_bad_taints if {
	ps := inventory.problems with input as _node({}, [
		{"value": "x", "effect": "NoSchedule"},
		{"key": "a", "value": "-1", "effect": "NoSchedule"},
		{"key": "b", "effect": "Bogus"},
		{"key": "b"},
		{"key": "a", "value": "y", "effect": "NoSchedule"},
	])
	{p.path | some p in ps} == {
		["spec", "taints", 0, "key"],
		["spec", "taints", 1, "value"],
		["spec", "taints", 2, "effect"],
		["spec", "taints", 3, "effect"],
		["spec", "taints", 4],
	}
}

test_messages_quote_values if {
	ps := inventory.problems with input as _node({}, [{"key": "b", "effect": "Bogus"}])
	[p.message | some p in ps] == ["taint effect \"Bogus\": must be NoSchedule, PreferNoSchedule or NoExecute"]
}

test_batch_names_parts_by_index if {
	ps := inventory.batch_problems with input as {
		"labels": [["pool", "gpu"], ["-bad", "x"]],
		"taints": [[{"key": "a", "effect": "NoSchedule"}], [{"key": "a", "effect": "Bogus"}]],
		"unschedulable": [true, "yes"],
	}
	{[p.part, p.index, p.path] | some p in ps} == {["labels", 1, []], ["taints", 1, [0, "effect"]], ["unschedulable", 1, []]}
}
