package dslint.rules["conflicting-node-constraints_test"]

import data.dslint.rules["conflicting-node-constraints"] as rule

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

_terms_field := ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"]

_tpl_terms := array.concat(["spec", "template", "spec"], _terms_field)

_expr_at(i, j) := array.concat(_tpl_terms, [i, "matchExpressions", j])

_field_at(i, j) := array.concat(_tpl_terms, [i, "matchFields", j])

_r(key, op, values) := {"key": key, "operator": op, "values": values}

_exists(key) := {"key": key, "operator": "Exists"}

_absent(key) := {"key": key, "operator": "DoesNotExist"}

_term(reqs) := {"matchExpressions": reqs}

# _pending(path, why) is the finding about the Deployment "trainer" at path,
# whose terms fail for the reasons why.
_pending(path, why) := {
	"path": path,
	"message": sprintf("no node can satisfy the node constraints of deployment \"trainer\": %s; its pods stay Pending", [why]),
}

# --- nodeSelector against the terms --------------------------------------------------------

test_node_selector_contradicts_the_only_term if {
	r := rule.report with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu"}},
		_with_terms([_term([_r("pool", "In", ["cpu"])])]),
	))
	r == {_pending(_expr_at(0, 0), "nodeSelector pool=\"gpu\" and pool In [\"cpu\"] cannot hold together")}
}

test_node_selector_contradicts_every_term if {
	r := rule.report with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu", "kubernetes.io/os": "linux"}},
		_with_terms([
			_term([_r("kubernetes.io/os", "In", ["linux"]), _r("pool", "In", ["cpu", "tpu"])]),
			_term([_absent("pool")]),
			_term([_r("pool", "NotIn", ["gpu"])]),
		]),
	))
	r == {_pending(_expr_at(0, 1), concat("; ", [
		"nodeSelectorTerms[0]: nodeSelector pool=\"gpu\" and pool In [\"cpu\", \"tpu\"] cannot hold together",
		"nodeSelectorTerms[1]: nodeSelector pool=\"gpu\" and pool DoesNotExist cannot hold together",
		"nodeSelectorTerms[2]: nodeSelector pool=\"gpu\" and pool NotIn [\"gpu\"] cannot hold together",
	]))}
}

test_node_selector_value_against_gt if {
	r := rule.report with input as _deployment(object.union(
		{"nodeSelector": {"gen": "3"}},
		_with_terms([_term([_r("gen", "Gt", ["4"])])]),
	))
	r == {_pending(_expr_at(0, 0), "nodeSelector gen=\"3\" and gen Gt \"4\" cannot hold together")}
}

test_node_selector_agrees_with_one_term if {
	rule.report == set() with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu"}},
		_with_terms([_term([_r("pool", "In", ["cpu"])]), _term([_r("pool", "In", ["gpu"])])]),
	))
}

test_node_selector_on_other_keys if {
	rule.report == set() with input as _deployment(object.union(
		{"nodeSelector": {"pool": "gpu"}},
		_with_terms([_term([_r("zone", "In", ["a"]), _absent("spot")])]),
	))
}

# --- terms contradicting themselves ----------------------------------------------------------

test_in_and_notin_of_the_same_value if {
	r := rule.report with input as _deployment(_with_terms([_term([_r("pool", "In", ["a"]), _r("pool", "NotIn", ["a"])])]))
	r == {_pending(_expr_at(0, 1), "pool In [\"a\"] and pool NotIn [\"a\"] cannot hold together")}
}

test_in_and_notin_of_part_of_the_values if {
	rule.report == set() with input as _deployment(_with_terms([_term([_r("pool", "In", ["a", "b"]), _r("pool", "NotIn", ["a"])])]))
}

test_disjoint_in_sets if {
	r := rule.report with input as _deployment(_with_terms([_term([
		_r("pool", "In", ["a", "b"]),
		_r("zone", "In", ["z"]),
		_r("pool", "In", ["c"]),
	])]))
	r == {_pending(_expr_at(0, 2), "pool In [\"a\", \"b\"] and pool In [\"c\"] cannot hold together")}
}

test_exists_and_does_not_exist if {
	r := rule.report with input as _deployment(_with_terms([_term([_exists("gpu"), _absent("gpu")])]))
	r == {_pending(_expr_at(0, 1), "gpu Exists and gpu DoesNotExist cannot hold together")}
}

test_in_and_does_not_exist if {
	r := rule.report with input as _deployment(_with_terms([_term([_r("gpu", "In", ["a"]), _absent("gpu")])]))
	r == {_pending(_expr_at(0, 1), "gpu In [\"a\"] and gpu DoesNotExist cannot hold together")}
}

test_gt_and_lt_without_an_integer_between if {
	r := rule.report with input as _deployment(_with_terms([_term([_r("cores", "Gt", ["5"]), _r("cores", "Lt", ["6"])])]))
	r == {_pending(_expr_at(0, 1), "cores Gt \"5\" and cores Lt \"6\" cannot hold together")}
	rule.report == set() with input as _deployment(_with_terms([_term([_r("cores", "Gt", ["5"]), _r("cores", "Lt", ["7"])])]))
}

test_lt_zero_alone if {
	r := rule.report with input as _deployment(_with_terms([_term([_r("cores", "Lt", ["0"])])]))
	r == {_pending(_expr_at(0, 0), "cores Lt \"0\" matches no node")}
}

# The finding is at the requirement that completes the first contradiction.
test_position_is_the_completing_requirement if {
	r := rule.report with input as _deployment(_with_terms([_term([
		_r("pool", "In", ["a", "b"]),
		_exists("pool"),
		_r("pool", "NotIn", ["a"]),
		_r("pool", "NotIn", ["b"]),
		_r("zone", "In", ["x"]),
		_r("zone", "In", ["y"]),
	])]))
	r == {_pending(_expr_at(0, 3), "pool In [\"a\", \"b\"], pool Exists, pool NotIn [\"a\"] and pool NotIn [\"b\"] cannot hold together")}
}

test_every_term_contradicts_itself if {
	r := rule.report with input as _deployment(_with_terms([
		_term([_r("pool", "In", ["a"]), _r("pool", "NotIn", ["a"])]),
		_term([_exists("gpu"), _absent("gpu")]),
	]))
	r == {_pending(_expr_at(0, 1), "nodeSelectorTerms[0]: pool In [\"a\"] and pool NotIn [\"a\"] cannot hold together; nodeSelectorTerms[1]: gpu Exists and gpu DoesNotExist cannot hold together")}
}

test_one_satisfiable_term_is_enough if {
	rule.report == set() with input as _deployment(_with_terms([
		_term([_r("pool", "In", ["a"]), _r("pool", "NotIn", ["a"])]),
		_term([_exists("gpu")]),
	]))
}

# --- invalid and empty terms ---------------------------------------------------------------

# They match no node too; invalid-node-affinity reports them.
test_only_invalid_or_empty_terms_are_not_reported_here if {
	rule.report == set() with input as _deployment(_with_terms([{}]))
	rule.report == set() with input as _deployment(_with_terms([]))
	rule.report == set() with input as _deployment(_with_terms([_term([_r("cores", "Gt", ["many"])])]))
	rule.report == set() with input as _deployment(_with_terms([_term([_r("pool", "in", ["a"]), _r("pool", "NotIn", ["a"])])]))
}

test_contradiction_among_invalid_and_empty_terms if {
	r := rule.report with input as _deployment(_with_terms([
		{},
		_term([_r("cores", "Gt", ["many"])]),
		_term([_r("pool", "In", ["a"]), _r("pool", "In", ["b"])]),
	]))
	r == {_pending(_expr_at(2, 1), "nodeSelectorTerms[0]: the term is empty and matches no node; nodeSelectorTerms[1]: the term is invalid and matches no node (see invalid-node-affinity); nodeSelectorTerms[2]: pool In [\"a\"] and pool In [\"b\"] cannot hold together")}
}

# An invalid nodeSelector entry is invalid-node-affinity's business.
test_invalid_node_selector_value_is_left_out if {
	rule.report == set() with input as _deployment(object.union(
		{"nodeSelector": {"pool": "g p u"}},
		_with_terms([_term([_r("pool", "In", ["cpu"])])]),
	))
}

test_required_written_as_list_is_not_reported_here if {
	rule.report == set() with input as _deployment({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"weight": 1}]}}})
}

# --- nodeName and matchFields ---------------------------------------------------------------

test_node_name_excluded_by_match_fields_in if {
	r := rule.report with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "debug"},
		"spec": object.union({"containers": [{"name": "c", "image": "i"}], "nodeName": "node-1"}, _with_terms([{"matchFields": [_r("metadata.name", "In", ["node-2"])]}])),
	}
	r == {{
		"path": array.concat(["spec"], array.concat(_terms_field, [0, "matchFields", 0])),
		"message": "no node can satisfy the node constraints of pod \"debug\": nodeName \"node-1\" and metadata.name In [\"node-2\"] cannot hold together; the kubelet of node \"node-1\" rejects its pods",
	}}
}

_named_node := {"containers": [{"name": "c", "image": "i"}], "nodeName": "node-1"}

_rejected(path, why) := {
	"path": path,
	"message": sprintf("no node can satisfy the node constraints of deployment \"trainer\": %s; the kubelet of node \"node-1\" rejects its pods", [why]),
}

test_node_name_excluded_by_match_fields_notin if {
	r := rule.report with input as _deployment(object.union(_named_node, _with_terms([{"matchFields": [
		_r("metadata.name", "NotIn", ["node-3"]),
		_r("metadata.name", "NotIn", ["node-1"]),
	]}])))
	r == {_rejected(_field_at(0, 1), "nodeName \"node-1\", metadata.name NotIn [\"node-3\"] and metadata.name NotIn [\"node-1\"] cannot hold together")}
}

test_node_name_selected_by_match_fields if {
	rule.report == set() with input as _deployment(object.union(_named_node, _with_terms([{"matchFields": [_r("metadata.name", "In", ["node-1"])]}])))
}

test_two_different_node_names_in_one_term if {
	r := rule.report with input as _deployment(_with_terms([{"matchFields": [
		_r("metadata.name", "In", ["node-1"]),
		_r("metadata.name", "In", ["node-2"]),
	]}]))
	r == {_pending(_field_at(0, 1), "metadata.name In [\"node-1\"] and metadata.name In [\"node-2\"] cannot hold together")}
}

test_match_expressions_before_match_fields if {
	r := rule.report with input as _deployment(object.union(_named_node, _with_terms([{
		"matchFields": [_r("metadata.name", "In", ["node-2"])],
		"matchExpressions": [_r("a", "In", ["x"]), _r("a", "In", ["y"])],
	}])))
	r == {_rejected(_expr_at(0, 1), "a In [\"x\"] and a In [\"y\"] cannot hold together")}
}

# --- kinds ----------------------------------------------------------------------------------

test_daemonset_runs_no_pods if {
	r := rule.report with input as object.union(
		_deployment(_with_terms([_term([_exists("gpu"), _absent("gpu")])])),
		{"kind": "DaemonSet", "metadata": {"name": "gpu-exporter"}},
	)
	r == {{
		"path": _expr_at(0, 1),
		"message": "no node can satisfy the node constraints of daemonset \"gpu-exporter\": gpu Exists and gpu DoesNotExist cannot hold together; the DaemonSet runs no pods",
	}}
}

test_cronjob_path if {
	r := rule.report with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"pool": "gpu"}}, _with_terms([_term([_absent("pool")])]))}}}},
	}
	r == {{
		"path": array.concat(["spec", "jobTemplate", "spec", "template", "spec"], array.concat(_terms_field, [0, "matchExpressions", 0])),
		"message": "no node can satisfy the node constraints of cronjob \"retrain\": nodeSelector pool=\"gpu\" and pool DoesNotExist cannot hold together; its pods stay Pending",
	}}
}

test_no_required_affinity if {
	rule.report == set() with input as _deployment({})
	rule.report == set() with input as _deployment({"nodeSelector": {"pool": "gpu"}})
}

# --- every workload kind ----------------------------------------------------------------

# _every_kind(spec) holds a workload of each built-in kind with spec as its
# pod spec, and the path to that pod spec.
_every_kind(spec) := [[w, path] |
	some [head, path] in [
		[{"apiVersion": "v1", "kind": "Pod"}, ["spec"]],
		[{"apiVersion": "v1", "kind": "PodTemplate"}, ["template", "spec"]],
		[{"apiVersion": "v1", "kind": "ReplicationController"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "Deployment"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "ReplicaSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "StatefulSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "apps/v1", "kind": "DaemonSet"}, ["spec", "template", "spec"]],
		[{"apiVersion": "batch/v1", "kind": "Job"}, ["spec", "template", "spec"]],
		[{"apiVersion": "batch/v1", "kind": "CronJob"}, ["spec", "jobTemplate", "spec", "template", "spec"]],
	]
	w := object.union(
		object.union(head, {"metadata": {"name": "w"}}),
		_nest(path, object.union({"containers": [{"name": "main", "image": "app:1.0"}]}, spec)),
	)
]

_nest([a], v) := {a: v}

_nest([a, b], v) := {a: {b: v}}

_nest([a, b, c], v) := {a: {b: {c: v}}}

_nest([a, b, c, d, e], v) := {a: {b: {c: {d: {e: v}}}}}

test_every_workload_kind if {
	workloads := _every_kind(object.union({"nodeSelector": {"pool": "gpu"}}, _with_terms([_term([_r("pool", "In", ["cpu"])])])))
	count(workloads) == 9
	every pair in workloads {
		[w, path] := pair
		rule.report == {{
			"path": array.concat(path, array.concat(_terms_field, [0, "matchExpressions", 0])),
			"message": sprintf("no node can satisfy the node constraints of %s \"w\": nodeSelector pool=\"gpu\" and pool In [\"cpu\"] cannot hold together; %s", [lower(w.kind), _consequence(w.kind)]),
		}} with input as w
	}
}

_consequence("DaemonSet") := "the DaemonSet runs no pods"

_consequence(kind) := "its pods stay Pending" if kind != "DaemonSet"

# A term that surely matches some node next to contradicting ones, and the
# same terms where the satisfiability check has to work harder.
test_satisfiable_term_clears if {
	contradiction := _term([_r("a", "In", ["x"]), _r("a", "NotIn", ["x"])])
	rule.report == set() with input as _deployment(_with_terms([contradiction, _term([_r("b", "In", ["y"])])]))
	rule.report == set() with input as _deployment(_with_terms([contradiction, _term([_r("b", "Gt", ["1"])])]))
	r := rule.report with input as _deployment(_with_terms([contradiction, _term([_r("b", "Gt", ["9223372036854775807"])])]))
	r == {_pending(_expr_at(0, 1), "nodeSelectorTerms[0]: a In [\"x\"] and a NotIn [\"x\"] cannot hold together; nodeSelectorTerms[1]: b Gt \"9223372036854775807\" matches no node")}
	s := rule.report with input as _deployment(object.union({"nodeSelector": {"b": "z"}}, _with_terms([contradiction, _term([_r("b", "In", ["y"])])])))
	s == {_pending(_expr_at(0, 1), "nodeSelectorTerms[0]: a In [\"x\"] and a NotIn [\"x\"] cannot hold together; nodeSelectorTerms[1]: nodeSelector b=\"z\" and b In [\"y\"] cannot hold together")}
}

# --- custom resources: every pod template is checked ----------------------------------

_contradicting := object.union({"nodeSelector": {"pool": "gpu"}}, _with_terms([_term([_r("pool", "In", ["cpu"])])]))

test_pytorchjob_replica_spec if {
	job := {
		"apiVersion": "kubeflow.org/v1",
		"kind": "PyTorchJob",
		"metadata": {"name": "bert"},
		"spec": {"pytorchReplicaSpecs": {
			"Master": {"replicas": 1, "template": {"spec": {"containers": [{"name": "pytorch", "image": "bert:1"}]}}},
			"Worker": {"replicas": 4, "template": {"spec": object.union({"containers": [{"name": "pytorch", "image": "bert:1"}]}, _contradicting)}},
		}},
	}
	r := rule.report with input as job
	r == {{
		"path": array.concat(["spec", "pytorchReplicaSpecs", "Worker", "template", "spec"], array.concat(_terms_field, [0, "matchExpressions", 0])),
		"message": "no node can satisfy the node constraints of pytorchjob \"bert\" (spec.pytorchReplicaSpecs.Worker.template.spec): nodeSelector pool=\"gpu\" and pool In [\"cpu\"] cannot hold together; its pods stay Pending",
	}}
}

test_jobset_replicated_job if {
	jobset := {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "train"},
		"spec": {"replicatedJobs": [
			{"name": "driver", "template": {"spec": {"template": {"spec": {"containers": [{"name": "d", "image": "train:1"}]}}}}},
			{"name": "workers", "replicas": 2, "template": {"spec": {"template": {"spec": object.union({"containers": [{"name": "w", "image": "train:1"}]}, _contradicting)}}}},
		]},
	}
	r := rule.report with input as jobset
	r == {{
		"path": array.concat(["spec", "replicatedJobs", 1, "template", "spec", "template", "spec"], array.concat(_terms_field, [0, "matchExpressions", 0])),
		"message": "no node can satisfy the node constraints of jobset \"train\" (spec.replicatedJobs[1].template.spec.template.spec): nodeSelector pool=\"gpu\" and pool In [\"cpu\"] cannot hold together; its pods stay Pending",
	}}
}
