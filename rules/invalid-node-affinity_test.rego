package dslint.rules["invalid-node-affinity"]

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

_only(r, path) := f if {
	count(r) == 1
	some f in r
	f.path == path
}

# --- valid manifests are silent -------------------------------------------------------

test_valid_constraints if {
	count(report) == 0 with input as _deployment(object.union(
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
	count(report) == 0 with input as _deployment({})
	count(report) == 0 with input as _deployment({"nodeSelector": null, "affinity": {"nodeAffinity": null}})
}

# --- nodeSelector --------------------------------------------------------------------------

test_node_selector_invalid_key if {
	f := _only(report, array.concat(_tpl, ["nodeSelector", "-pool"])) with input as _deployment({"nodeSelector": {"-pool": "ml"}})
	f.message == "nodeSelector key \"-pool\" is not a valid label key: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
}

test_node_selector_invalid_value if {
	f := _only(report, array.concat(_tpl, ["nodeSelector", "pool"])) with input as _deployment({"nodeSelector": {"pool": "gpu nodes"}})
	startswith(f.message, "nodeSelector value \"gpu nodes\" of \"pool\" is not a valid label value: must be empty or consist of")
	not contains(f.message, "placeholder")
}

test_node_selector_placeholder if {
	f := _only(report, array.concat(_tpl, ["nodeSelector", "kubernetes.io/hostname"])) with input as _deployment({"nodeSelector": {"kubernetes.io/hostname": "<node-name>"}})
	endswith(f.message, "(it looks like a placeholder left in the manifest)")
	f2 := _only(report, array.concat(_tpl, ["nodeSelector", "pool"])) with input as _deployment({"nodeSelector": {"pool": "${POOL}"}})
	contains(f2.message, "placeholder")
}

test_node_selector_value_too_long if {
	value := concat("", [x | some _ in numbers.range(1, 64); x := "a"])
	f := _only(report, array.concat(_tpl, ["nodeSelector", "pool"])) with input as _deployment({"nodeSelector": {"pool": value}})
	endswith(f.message, "is not a valid label value: must be no more than 63 characters")
}

test_node_selector_boolean_value if {
	f := _only(report, array.concat(_tpl, ["nodeSelector", "nvidia.com/gpu.present"])) with input as _deployment({"nodeSelector": {"nvidia.com/gpu.present": true}})
	f.message == "nodeSelector value ⟦written:true⟧ of \"nvidia.com/gpu.present\" is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")"
}

test_node_selector_number_value if {
	f := _only(report, array.concat(_tpl, ["nodeSelector", "cores"])) with input as _deployment({"nodeSelector": {"cores": 8}})
	contains(f.message, "nodeSelector value ⟦written:8⟧ of \"cores\" is not a string (YAML reads it as the number 8); quote it (\"⟦written:8⟧\")")
}

test_node_selector_as_list if {
	f := _only(report, array.concat(_tpl, ["nodeSelector"])) with input as _deployment({"nodeSelector": [{"pool": "ml"}]})
	f.message == "nodeSelector must be a mapping of node label keys to values, not a list; write \"key: value\" pairs without \"- \""
}

# --- required: shape ------------------------------------------------------------------------

# The shape of kubernetes/website's pod-with-node-affinity.yaml.
test_required_written_as_list if {
	f := _only(report, _req_path) with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
		"preference": {"matchExpressions": [_in("topology.kubernetes.io/zone", ["antarctica-east1"])]},
		"weight": 5,
	}]}}})
	f.message == "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not a list: the API server rejects the pod; list items with weight and preference belong under preferredDuringSchedulingIgnoredDuringExecution"
}

test_required_written_as_list_of_terms if {
	f := _only(report, _req_path) with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"matchExpressions": [_in("pool", ["a"])]}]}}})
	endswith(f.message, "not a list: the API server rejects the pod; write it as nodeSelectorTerms: [{matchExpressions: [...]}]")
}

test_required_as_string if {
	f := _only(report, _req_path) with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": "pool=ml"}}})
	f.message == "requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not \"pool=ml\""
}

test_empty_node_selector_terms if {
	f := _only(report, _tpl_terms) with input as _deployment(_with_required([]))
	startswith(f.message, "required node affinity must have at least one node selector term")
}

test_missing_node_selector_terms if {
	_only(report, _tpl_terms) with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}})
	_only(report, _tpl_terms) with input as _deployment(_with_required(null))
}

test_node_selector_terms_as_mapping if {
	f := _only(report, _tpl_terms) with input as _deployment(_with_required({"matchExpressions": [_in("pool", ["a"])]}))
	f.message == "nodeSelectorTerms must be a list of node selector terms, not a mapping; write \"- matchExpressions: ...\""
}

test_empty_term_alone if {
	f := _only(report, array.concat(_tpl_terms, [0])) with input as _deployment(_with_required([{}]))
	f.message == "node selector term is empty and matches no node: the API server accepts it, but with no other term no node can run these pods; add matchExpressions or matchFields"
}

test_empty_term_among_others if {
	f := _only(report, array.concat(_tpl_terms, [1])) with input as _deployment(_with_required([
		{"matchExpressions": [_in("pool", ["a"])]},
		{"matchExpressions": [], "matchFields": null},
	]))
	f.message == "node selector term is empty and matches no node: the API server accepts it, and as terms are ORed it adds nothing; remove it"
}

test_null_term_is_empty if {
	_only(report, array.concat(_tpl_terms, [0])) with input as _deployment(_with_required([null]))
}

test_requirement_written_into_the_term if {
	f := _only(report, array.concat(_tpl_terms, [0])) with input as _deployment(_with_required([_in("pool", ["a"])]))
	startswith(f.message, "node selector term has \"key\", \"operator\" and \"values\" directly: put the requirement under matchExpressions")
}

test_term_as_string if {
	f := _only(report, array.concat(_tpl_terms, [0])) with input as _deployment(_with_required(["pool In a"]))
	f.message == "node selector term must be a mapping with matchExpressions or matchFields, not \"pool In a\""
}

test_match_expressions_as_mapping if {
	f := _only(report, array.concat(_tpl_terms, [0, "matchExpressions"])) with input as _deployment(_with_required([{"matchExpressions": _in("pool", ["a"])}]))
	f.message == "matchExpressions must be a list of requirements, not a mapping; write \"- key: ...\""
}

test_requirement_as_string if {
	f := _only(report, _expr_path(0, 0, [])) with input as _expr("pool=a")
	f.message == "requirement must be a mapping with key, operator and values, not \"pool=a\""
}

# --- matchExpressions ------------------------------------------------------------------------

test_in_without_values if {
	f := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "pool", "operator": "In"})
	f.message == "values must be specified when operator is \"In\": list the label values to match"
	g := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "pool", "operator": "NotIn", "values": []})
	g.message == "values must be specified when operator is \"NotIn\": list the label values to exclude"
}

test_exists_or_does_not_exist_with_values if {
	f := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "pool", "operator": "Exists", "values": ["a"]})
	startswith(f.message, "values must be empty when operator is \"Exists\": it matches any value of the label; remove the values, or use operator \"In\"")
	g := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "pool", "operator": "DoesNotExist", "values": ["a"]})
	contains(g.message, "it matches nodes without the label; remove the values, or use operator \"NotIn\"")
}

test_gt_without_exactly_one_value if {
	f := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "cores", "operator": "Gt", "values": ["4", "8"]})
	f.message == "operator \"Gt\" needs exactly one value, the integer to compare the label with, not 2"
	g := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "cores", "operator": "Lt"})
	endswith(g.message, "not 0")
}

test_gt_with_a_non_integer if {
	f := _only(report, _expr_path(0, 0, ["values", 0])) with input as _expr({"key": "cores", "operator": "Gt", "values": ["eight"]})
	f.message == "value \"eight\" of operator \"Gt\" is not an integer: the API server accepts it, but the requirement never matches, so its node selector term matches no node"
	_only(report, _expr_path(0, 0, ["values", 0])) with input as _expr({"key": "mem", "operator": "Lt", "values": ["1.5"]})
}

# ParseInt accepts leading zeros; a negative number is not a label value.
test_gt_integer_forms if {
	count(report) == 0 with input as _expr({"key": "cores", "operator": "Gt", "values": ["007"]})
	f := _only(report, _expr_path(0, 0, ["values", 0])) with input as _expr({"key": "cores", "operator": "Gt", "values": ["-1"]})
	startswith(f.message, "node affinity value \"-1\" is not a valid label value")
}

test_gt_with_an_unquoted_number if {
	f := _only(report, _expr_path(0, 0, ["values", 0])) with input as _expr({"key": "cores", "operator": "Gt", "values": [8]})
	f.message == "value ⟦written:8⟧ is not a string (YAML reads it as the number 8); quote it (\"⟦written:8⟧\")"
}

test_unknown_operator_wrong_case if {
	f := _only(report, _expr_path(0, 0, ["operator"])) with input as _expr({"key": "pool", "operator": "in", "values": ["a"]})
	f.message == "node affinity operator \"in\" is not a valid selector operator: use \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\" or \"Lt\" (did you mean \"In\"?)"
}

test_unknown_operator_aliases if {
	f := _only(report, _expr_path(0, 0, ["operator"])) with input as _expr({"key": "pool", "operator": "NotExists"})
	endswith(f.message, "(did you mean \"DoesNotExist\"?)")
	g := _only(report, _expr_path(0, 0, ["operator"])) with input as _expr({"key": "pool", "operator": "Equals", "values": ["a"]})
	endswith(g.message, "(did you mean \"In\"?)")
	h := _only(report, _expr_path(0, 0, ["operator"])) with input as _expr({"key": "pool", "operator": "Like", "values": ["a"]})
	endswith(h.message, "\"Gt\" or \"Lt\"")
}

test_missing_operator if {
	f := _only(report, _expr_path(0, 0, ["operator"])) with input as _expr({"key": "pool", "values": ["a"]})
	f.message == "node affinity requirement needs an operator: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\" or \"Lt\""
}

test_missing_key if {
	f := _only(report, _expr_path(0, 0, ["key"])) with input as _expr({"operator": "Exists"})
	f.message == "node affinity requirement needs a key: the node label to match"
}

test_invalid_key if {
	f := _only(report, _expr_path(0, 0, ["key"])) with input as _expr(_in("Example.com/pool", ["a"]))
	startswith(f.message, "node affinity key \"Example.com/pool\" is not a valid label key: prefix part must be a lowercase DNS subdomain")
}

test_invalid_values if {
	r := report with input as _expr(_in("pool", ["ok", "not ok", true]))
	count(r) == 2
	some f in r
	f.path == _expr_path(0, 0, ["values", 1])
	startswith(f.message, "node affinity value \"not ok\" is not a valid label value: must be empty or consist of")
	some g in r
	g.path == _expr_path(0, 0, ["values", 2])
	g.message == "value ⟦written:true⟧ is not a string (YAML reads it as the boolean true); quote it (\"⟦written:true⟧\")"
}

test_values_as_string if {
	f := _only(report, _expr_path(0, 0, ["values"])) with input as _expr({"key": "pool", "operator": "In", "values": "gpu"})
	f.message == "values must be a list, not \"gpu\"; write values: [\"gpu\"]"
}

test_several_problems_in_several_terms if {
	r := report with input as _deployment(_with_required([
		{"matchExpressions": [_in("pool", ["a"]), {"key": "gpu", "operator": "exists"}]},
		{"matchExpressions": [{"key": "zone", "operator": "In"}]},
	]))
	{f.path | some f in r} == {_expr_path(0, 1, ["operator"]), _expr_path(1, 0, ["values"])}
}

# --- matchFields -----------------------------------------------------------------------------

test_match_fields_key_other_than_metadata_name if {
	f := _only(report, _field_path(0, 0, ["key"])) with input as _field({"key": "metadata.labels", "operator": "In", "values": ["a"]})
	f.message == "matchFields key \"metadata.labels\" is not a valid field selector key: the only node field is \"metadata.name\""
	g := _only(report, _field_path(0, 0, ["key"])) with input as _field({"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-1"]})
	endswith(g.message, "the only node field is \"metadata.name\"; select node labels with matchExpressions")
}

test_match_fields_missing_key if {
	f := _only(report, _field_path(0, 0, ["key"])) with input as _field({"operator": "In", "values": ["node-1"]})
	f.message == "matchFields requirement needs key \"metadata.name\", the only node field"
}

test_match_fields_operator if {
	f := _only(report, _field_path(0, 0, ["operator"])) with input as _field({"key": "metadata.name", "operator": "Exists"})
	f.message == "matchFields operator \"Exists\" is not supported: use \"In\" or \"NotIn\""
	g := _only(report, _field_path(0, 0, ["operator"])) with input as _field({"key": "metadata.name", "operator": "notin", "values": ["a"]})
	endswith(g.message, "(did you mean \"NotIn\"?)")
}

test_match_fields_with_two_values if {
	f := _only(report, _field_path(0, 0, ["values"])) with input as _field({"key": "metadata.name", "operator": "In", "values": ["node-1", "node-2"]})
	f.message == "matchFields needs exactly one value with operator \"In\", not 2: to allow several nodes, write one node selector term per node name (terms are ORed)"
	g := _only(report, _field_path(0, 0, ["values"])) with input as _field({"key": "metadata.name", "operator": "NotIn", "values": []})
	startswith(g.message, "matchFields needs exactly one value with operator \"NotIn\", not 0: to exclude several nodes")
}

test_match_fields_invalid_node_name if {
	f := _only(report, _field_path(0, 0, ["values", 0])) with input as _field({"key": "metadata.name", "operator": "In", "values": ["Node_1"]})
	startswith(f.message, "matchFields value \"Node_1\" is not a valid node name: it must be a lowercase DNS-1123 subdomain")
	not contains(f.message, "placeholder")
	g := _only(report, _field_path(0, 0, ["values", 0])) with input as _field({"key": "metadata.name", "operator": "In", "values": ["<node-name>"]})
	endswith(g.message, "(it looks like a placeholder left in the manifest)")
}

# --- preferred ----------------------------------------------------------------------------------

test_weight_out_of_range if {
	f := _only(report, array.concat(_pref_path, [0, "weight"])) with input as _deployment(_with_preferred([{"weight": 0, "preference": {"matchExpressions": [_in("a", ["b"])]}}]))
	f.message == "preference weight 0 must be in the range 1-100"
	_only(report, array.concat(_pref_path, [0, "weight"])) with input as _deployment(_with_preferred([{"weight": 101, "preference": {}}]))
	_only(report, array.concat(_pref_path, [0, "weight"])) with input as _deployment(_with_preferred([{"weight": 2.5, "preference": {}}]))
}

test_weight_missing if {
	f := _only(report, array.concat(_pref_path, [1, "weight"])) with input as _deployment(_with_preferred([
		{"weight": 1, "preference": {}},
		{"preference": {"matchExpressions": [_in("a", ["b"])]}},
	]))
	startswith(f.message, "preferred scheduling term needs a weight from 1 to 100")
}

test_weight_as_string if {
	f := _only(report, array.concat(_pref_path, [0, "weight"])) with input as _deployment(_with_preferred([{"weight": "50", "preference": {}}]))
	f.message == "preference weight \"50\" must be an integer from 1 to 100; remove the quotes"
}

test_preferred_as_mapping if {
	f := _only(report, _pref_path) with input as _deployment(_with_preferred({"nodeSelectorTerms": [{"matchExpressions": [_in("a", ["b"])]}]}))
	f.message == "preferredDuringSchedulingIgnoredDuringExecution must be a list of weighted preferences (weight and preference), not a mapping; nodeSelectorTerms belong under requiredDuringSchedulingIgnoredDuringExecution"
}

test_preferred_item_without_preference_level if {
	f := _only(report, array.concat(_pref_path, [0])) with input as _deployment(_with_preferred([{"weight": 10, "matchExpressions": [_in("a", ["b"])]}]))
	f.message == "preferred scheduling term has \"matchExpressions\" directly: put matchExpressions or matchFields under preference"
}

test_preferred_requirement_errors if {
	f := _only(report, array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "operator"])) with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [{"key": "a", "operator": "IN", "values": ["b"]}]}}]))
	endswith(f.message, "(did you mean \"In\"?)")
}

# The API server lets invalid label values and non-integer Gt values into a
# preference; the scheduler then errors while scoring.
test_preferred_invalid_value_breaks_scoring if {
	f := _only(report, array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 0])) with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [_in("a", ["b c"])]}}]))
	contains(f.message, "(the API server accepts it in a preference, but the scheduler then fails to score nodes with this preference, and the pod is not scheduled while more than one node fits)")
	g := _only(report, array.concat(_pref_path, [0, "preference", "matchExpressions", 0, "values", 0])) with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchExpressions": [{"key": "cores", "operator": "Gt", "values": ["many"]}]}}]))
	endswith(g.message, "the API server accepts it, but the scheduler then fails to score nodes with this preference, and the pod is not scheduled while more than one node fits")
}

test_preferred_match_fields if {
	_only(report, array.concat(_pref_path, [0, "preference", "matchFields", 0, "key"])) with input as _deployment(_with_preferred([{"weight": 10, "preference": {"matchFields": [{"key": "spec.unschedulable", "operator": "In", "values": ["false"]}]}}]))
}

# --- kinds ------------------------------------------------------------------------------------

test_pod_path if {
	_only(report, ["spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"]) with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "with-node-affinity"},
		"spec": {"containers": [{"name": "c", "image": "i"}], "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"weight": 5, "preference": {}}]}}},
	}
}

test_daemonset_is_an_error_too if {
	f := _only(report, array.concat(_tpl, ["nodeSelector", "pool"])) with input as object.union(_deployment({"nodeSelector": {"pool": false}}), {"kind": "DaemonSet"})
	not "severity" in object.keys(f)
}

test_cronjob_path if {
	_only(report, ["spec", "jobTemplate", "spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchExpressions", 0, "operator"]) with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, _with_required([{"matchExpressions": [{"key": "a", "operator": "DoesNotExists"}]}]))}}}},
	}
}

test_custom_resource_is_not_checked if {
	count(report) == 0 with input as object.union(_deployment({"nodeSelector": {"pool": true}}), {"apiVersion": "example.com/v1"})
}

# --- every workload kind ----------------------------------------------------------------

# _every_kind(spec) is a workload of each kind k8s knows with spec as its pod
# spec, wherever k8s.pod_spec_path puts it: the guards of report, which read
# input directly, have to find it there.
_every_kind(spec) := [object.union(
	object.union(head, {"metadata": {"name": "w"}}),
	_nest(path, object.union({"containers": [{"name": "main", "image": "app:1.0"}]}, spec)),
) |
	some head in [
		{"apiVersion": "v1", "kind": "Pod"},
		{"apiVersion": "v1", "kind": "PodTemplate"},
		{"apiVersion": "v1", "kind": "ReplicationController"},
		{"apiVersion": "apps/v1", "kind": "Deployment"},
		{"apiVersion": "apps/v1", "kind": "ReplicaSet"},
		{"apiVersion": "apps/v1", "kind": "StatefulSet"},
		{"apiVersion": "apps/v1", "kind": "DaemonSet"},
		{"apiVersion": "batch/v1", "kind": "Job"},
		{"apiVersion": "batch/v1", "kind": "CronJob"},
	]
	path := data.dslint.lib.k8s.pod_spec_path with input as head
]

_nest([a], v) := {a: v}

_nest([a, b], v) := {a: {b: v}}

_nest([a, b, c], v) := {a: {b: {c: v}}}

_nest([a, b, c, d], v) := {a: {b: {c: {d: v}}}}

_nest([a, b, c, d, e], v) := {a: {b: {c: {d: {e: v}}}}}

test_every_workload_kind if {
	workloads := _every_kind({"nodeSelector": {"pool": "-a"}})
	count(workloads) == 9
	every w in workloads {
		count(report) == 1 with input as w
	}
	every w in _every_kind(_with_required([{"matchExpressions": [{"key": "pool", "operator": "in", "values": ["a"]}]}])) {
		count(report) == 1 with input as w
	}
}

# The cheap check (sat.plain_node_constraints) clears only what the detailed
# checks clear too.
test_plain_node_constraints_are_valid if {
	every spec in data.dslint.lib.satisfiability._plain_specs {
		not _suspect with input as _deployment(spec)
		count(report) == 0 with input as _deployment(spec)
	}
}
