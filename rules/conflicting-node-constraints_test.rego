package dslint.rules["conflicting-node-constraints"]

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

_with_terms(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_tpl_terms := ["spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"]

_expr_at(i, j) := array.concat(_tpl_terms, [i, "matchExpressions", j])

_field_at(i, j) := array.concat(_tpl_terms, [i, "matchFields", j])

_r(key, op, values) := {"key": key, "operator": op, "values": values}

_exists(key) := {"key": key, "operator": "Exists"}

_absent(key) := {"key": key, "operator": "DoesNotExist"}

_term(reqs) := {"matchExpressions": reqs}

_only(r, path) := f if {
	count(r) == 1
	some f in r
	f.path == path
}

# --- nodeSelector against the terms --------------------------------------------------------

test_node_selector_contradicts_the_only_term if {
	f := _only(report, _expr_at(0, 0)) with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu"}},
		_with_terms([_term([_r("pool", "In", ["cpu"])])]),
	))
	f.message == "no node can satisfy the node constraints of deployment \"trainer\": nodeSelector pool=\"gpu\" and pool In [\"cpu\"] cannot hold together; its pods stay Pending"
}

test_node_selector_contradicts_every_term if {
	f := _only(report, _expr_at(0, 1)) with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu", "kubernetes.io/os": "linux"}},
		_with_terms([
			_term([_r("kubernetes.io/os", "In", ["linux"]), _r("pool", "In", ["cpu", "tpu"])]),
			_term([_absent("pool")]),
			_term([_r("pool", "NotIn", ["gpu"])]),
		]),
	))
	contains(f.message, "nodeSelectorTerms[0]: nodeSelector pool=\"gpu\" and pool In [\"cpu\", \"tpu\"] cannot hold together")
	contains(f.message, "nodeSelectorTerms[1]: nodeSelector pool=\"gpu\" and pool DoesNotExist cannot hold together")
	contains(f.message, "nodeSelectorTerms[2]: nodeSelector pool=\"gpu\" and pool NotIn [\"gpu\"] cannot hold together")
}

test_node_selector_value_against_gt if {
	f := _only(report, _expr_at(0, 0)) with input as _deployment(object.union(
		{"nodeSelector": {"gen": "3"}},
		_with_terms([_term([_r("gen", "Gt", ["4"])])]),
	))
	contains(f.message, "nodeSelector gen=\"3\" and gen Gt \"4\" cannot hold together")
}

test_node_selector_agrees_with_one_term if {
	count(report) == 0 with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu"}},
		_with_terms([_term([_r("pool", "In", ["cpu"])]), _term([_r("pool", "In", ["gpu"])])]),
	))
}

test_node_selector_on_other_keys if {
	count(report) == 0 with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu"}},
		_with_terms([_term([_r("zone", "In", ["a"]), _absent("spot")])]),
	))
}

# --- terms contradicting themselves ----------------------------------------------------------

test_in_and_notin_of_the_same_value if {
	f := _only(report, _expr_at(0, 1)) with input as _deployment(_with_terms([_term([_r("pool", "In", ["a"]), _r("pool", "NotIn", ["a"])])]))
	contains(f.message, ": pool In [\"a\"] and pool NotIn [\"a\"] cannot hold together; its pods stay Pending")
}

test_in_and_notin_of_part_of_the_values if {
	count(report) == 0 with input as _deployment(_with_terms([_term([_r("pool", "In", ["a", "b"]), _r("pool", "NotIn", ["a"])])]))
}

test_disjoint_in_sets if {
	_only(report, _expr_at(0, 2)) with input as _deployment(_with_terms([_term([
		_r("pool", "In", ["a", "b"]),
		_r("zone", "In", ["z"]),
		_r("pool", "In", ["c"]),
	])]))
}

test_exists_and_does_not_exist if {
	f := _only(report, _expr_at(0, 1)) with input as _deployment(_with_terms([_term([_exists("gpu"), _absent("gpu")])]))
	contains(f.message, "gpu Exists and gpu DoesNotExist cannot hold together")
}

test_in_and_does_not_exist if {
	_only(report, _expr_at(0, 1)) with input as _deployment(_with_terms([_term([_r("gpu", "In", ["a"]), _absent("gpu")])]))
}

test_gt_and_lt_without_an_integer_between if {
	f := _only(report, _expr_at(0, 1)) with input as _deployment(_with_terms([_term([_r("cores", "Gt", ["5"]), _r("cores", "Lt", ["6"])])]))
	contains(f.message, "cores Gt \"5\" and cores Lt \"6\" cannot hold together")
	count(report) == 0 with input as _deployment(_with_terms([_term([_r("cores", "Gt", ["5"]), _r("cores", "Lt", ["7"])])]))
}

test_lt_zero_alone if {
	f := _only(report, _expr_at(0, 0)) with input as _deployment(_with_terms([_term([_r("cores", "Lt", ["0"])])]))
	contains(f.message, "cores Lt \"0\" matches no node")
}

# The finding is at the requirement that completes the first contradiction.
test_position_is_the_completing_requirement if {
	_only(report, _expr_at(0, 3)) with input as _deployment(_with_terms([_term([
		_r("pool", "In", ["a", "b"]),
		_exists("pool"),
		_r("pool", "NotIn", ["a"]),
		_r("pool", "NotIn", ["b"]),
		_r("zone", "In", ["x"]),
		_r("zone", "In", ["y"]),
	])]))
}

test_every_term_contradicts_itself if {
	f := _only(report, _expr_at(0, 1)) with input as _deployment(_with_terms([
		_term([_r("pool", "In", ["a"]), _r("pool", "NotIn", ["a"])]),
		_term([_exists("gpu"), _absent("gpu")]),
	]))
	contains(f.message, "nodeSelectorTerms[0]: pool In [\"a\"] and pool NotIn [\"a\"] cannot hold together; nodeSelectorTerms[1]: gpu Exists and gpu DoesNotExist cannot hold together")
}

test_one_satisfiable_term_is_enough if {
	count(report) == 0 with input as _deployment(_with_terms([
		_term([_r("pool", "In", ["a"]), _r("pool", "NotIn", ["a"])]),
		_term([_exists("gpu")]),
	]))
}

# --- invalid and empty terms ---------------------------------------------------------------

# They match no node too; invalid-node-affinity reports them.
test_only_invalid_or_empty_terms_are_not_reported_here if {
	count(report) == 0 with input as _deployment(_with_terms([{}]))
	count(report) == 0 with input as _deployment(_with_terms([]))
	count(report) == 0 with input as _deployment(_with_terms([_term([_r("cores", "Gt", ["many"])])]))
	count(report) == 0 with input as _deployment(_with_terms([_term([_r("pool", "in", ["a"]), _r("pool", "NotIn", ["a"])])]))
}

test_contradiction_among_invalid_and_empty_terms if {
	f := _only(report, _expr_at(2, 1)) with input as _deployment(_with_terms([
		{},
		_term([_r("cores", "Gt", ["many"])]),
		_term([_r("pool", "In", ["a"]), _r("pool", "In", ["b"])]),
	]))
	contains(f.message, "nodeSelectorTerms[0]: the term is empty and matches no node; nodeSelectorTerms[1]: the term is invalid and matches no node (see invalid-node-affinity); nodeSelectorTerms[2]: pool In [\"a\"] and pool In [\"b\"] cannot hold together")
}

# An invalid nodeSelector entry is invalid-node-affinity's business.
test_invalid_node_selector_value_is_left_out if {
	count(report) == 0 with input as _deployment(object.union(
		{"nodeSelector": {"pool": "g p u"}},
		_with_terms([_term([_r("pool", "In", ["cpu"])])]),
	))
}

test_required_written_as_list_is_not_reported_here if {
	count(report) == 0 with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"weight": 1}]}}})
}

# --- nodeName and matchFields ---------------------------------------------------------------

test_node_name_excluded_by_match_fields_in if {
	f := _only(report, ["spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchFields", 0]) with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "debug"},
		"spec": object.union({"containers": [{"name": "c", "image": "i"}], "nodeName": "node-1"}, _with_terms([{"matchFields": [_r("metadata.name", "In", ["node-2"])]}])),
	}
	f.message == "no node can satisfy the node constraints of pod \"debug\": nodeName \"node-1\" and metadata.name In [\"node-2\"] cannot hold together; the kubelet of node \"node-1\" rejects its pods"
}

test_node_name_excluded_by_match_fields_notin if {
	_only(report, _field_at(0, 1)) with input as _deployment(object.union({"containers": [{"name": "c", "image": "i"}], "nodeName": "node-1"}, _with_terms([{"matchFields": [
		_r("metadata.name", "NotIn", ["node-3"]),
		_r("metadata.name", "NotIn", ["node-1"]),
	]}])))
}

test_node_name_selected_by_match_fields if {
	count(report) == 0 with input as _deployment(object.union({"containers": [{"name": "c", "image": "i"}], "nodeName": "node-1"}, _with_terms([{"matchFields": [_r("metadata.name", "In", ["node-1"])]}])))
}

test_two_different_node_names_in_one_term if {
	_only(report, _field_at(0, 1)) with input as _deployment(_with_terms([{"matchFields": [
		_r("metadata.name", "In", ["node-1"]),
		_r("metadata.name", "In", ["node-2"]),
	]}]))
}

test_match_expressions_before_match_fields if {
	_only(report, _expr_at(0, 1)) with input as _deployment(object.union({"containers": [{"name": "c", "image": "i"}], "nodeName": "node-1"}, _with_terms([{
		"matchFields": [_r("metadata.name", "In", ["node-2"])],
		"matchExpressions": [_r("a", "In", ["x"]), _r("a", "In", ["y"])],
	}])))
}

# --- kinds ----------------------------------------------------------------------------------

test_daemonset_runs_no_pods if {
	f := _only(report, _expr_at(0, 1)) with input as object.union(
		_deployment(_with_terms([_term([_exists("gpu"), _absent("gpu")])])),
		{"kind": "DaemonSet", "metadata": {"name": "gpu-exporter"}},
	)
	endswith(f.message, "; the DaemonSet runs no pods")
	contains(f.message, "daemonset \"gpu-exporter\"")
	not "severity" in object.keys(f)
}

test_cronjob_path if {
	_only(report, ["spec", "jobTemplate", "spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0, "matchExpressions", 0]) with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"pool": "gpu"}}, _with_terms([_term([_absent("pool")])]))}}}},
	}
}

test_no_required_affinity if {
	count(report) == 0 with input as _deployment({})
	count(report) == 0 with input as _deployment({"nodeSelector": {"pool": "gpu"}})
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
	workloads := _every_kind(object.union({"nodeSelector": {"pool": "gpu"}}, _with_terms([_term([_r("pool", "In", ["cpu"])])])))
	count(workloads) == 9
	every w in workloads {
		count(report) == 1 with input as w
	}
}

# A term that plainly matches some node (sat.plainly_satisfiable_terms) next to
# contradicting ones, and the same terms where the check is exact.
test_plainly_satisfiable_term_clears if {
	count(report) == 0 with input as _deployment(_with_terms([_term([_r("a", "In", ["x"]), _r("a", "NotIn", ["x"])]), _term([_r("b", "In", ["y"])])]))
	count(report) == 0 with input as _deployment(_with_terms([_term([_r("a", "In", ["x"]), _r("a", "NotIn", ["x"])]), _term([{"key": "b", "operator": "Gt", "values": ["1"]}])]))
	count(report) == 1 with input as _deployment(_with_terms([_term([_r("a", "In", ["x"]), _r("a", "NotIn", ["x"])]), _term([{"key": "b", "operator": "Gt", "values": ["9223372036854775807"]}])]))
	count(report) == 1 with input as _deployment(object.union({"nodeSelector": {"b": "z"}}, _with_terms([_term([_r("a", "In", ["x"]), _r("a", "NotIn", ["x"])]), _term([_r("b", "In", ["y"])])])))
}
