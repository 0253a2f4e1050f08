# Workload kinds, their API groups and pod specs, and Kustomize patch
# fragments.
package dslint.lib.k8s_test

import data.dslint.lib.k8s

_obj(api, kind, body) := object.union({"apiVersion": api, "kind": kind, "metadata": {"name": "x"}}, body)

_template(spec) := {"spec": {"template": {"spec": spec}}}

_c := {"containers": [{"name": "c", "image": "i"}]}

test_pod_spec_path_per_kind_and_group if {
	k8s.pod_spec_path == ["spec"] with input as _obj("v1", "Pod", {"spec": _c})
	k8s.pod_spec_path == ["template", "spec"] with input as _obj("v1", "PodTemplate", {"template": {"spec": _c}})
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("v1", "ReplicationController", _template(_c))
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("apps/v1", "Deployment", _template(_c))
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("extensions/v1beta1", "Deployment", _template(_c))
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("apps/v1beta2", "ReplicaSet", _template(_c))
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("extensions/v1beta1", "DaemonSet", _template(_c))
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("apps/v1", "StatefulSet", _template(_c))
	k8s.pod_spec_path == ["spec", "template", "spec"] with input as _obj("batch/v1", "Job", _template(_c))
	k8s.pod_spec_path == ["spec", "jobTemplate", "spec", "template", "spec"] with input as _obj("batch/v1", "CronJob", {})
}

# A kind name in another group is a custom resource, not a workload.
test_other_groups_are_not_workloads if {
	not k8s.pod_spec_path with input as _obj("example.com/v1", "Deployment", _template(_c))
	not k8s.pod_spec_path with input as _obj("extensions/v1beta1", "StatefulSet", _template(_c))
	not k8s.pod_spec_path with input as _obj("apps/v1", "Pod", {"spec": _c})
	not k8s.pod_spec_path with input as _obj("apps/v1", "Job", _template(_c))
	not k8s.pod_spec_path with input as _obj("apps", "Deployment", _template(_c)) # no "/": the core group
	not k8s.pod_spec_path with input as _obj("apps/v1", "ConfigMap", {})
}

# Without apiVersion the group is the core group ("").
test_missing_api_version_is_the_core_group if {
	k8s.pod_spec_path == ["spec"] with input as {"kind": "Pod", "spec": _c}
	k8s.is_workload with input as {"kind": "Pod", "spec": _c}
	not k8s.pod_spec_path with input as {"kind": "Deployment", "spec": {"template": {"spec": _c}}}
	k8s.group == "" with input as {"kind": "Pod"}
	k8s.group == "apps" with input as {"apiVersion": "apps/v1", "kind": "Deployment"}
}

test_fragments if {
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c", "image": ""}]}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c", "image": 5}]}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": ["c"]}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template(object.union(_c, {"initContainers": [{"name": "i"}]})))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": []}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": {"name": "c"}}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"tolerations": [{"operator": "Exists"}]}))
	k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", {"spec": {"selector": {"matchLabels": {"a": "b"}}}})
	k8s.is_fragment with input as _obj("v1", "Pod", {"spec": {"nodeSelector": {"a": "b"}}})
	k8s.is_fragment with input as _obj("v1", "Pod", {"metadata": {"name": "p"}})
	not k8s.is_fragment with input as _obj("apps/v1", "DaemonSet", _template(_c))
	not k8s.is_fragment with input as _obj("v1", "ConfigMap", {"spec": {"containers": [{"name": "c"}]}})
	not k8s.is_workload with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
	not k8s.is_workload with input as _obj("v1", "Pod", {"spec": {"nodeSelector": {"a": "b"}}})
}

test_pod_spec_and_tolerations if {
	k8s.pod_spec == _c with input as _obj("apps/v1", "Deployment", _template(_c))
	not k8s.pod_spec with input as _obj("apps/v1", "Deployment", {"spec": {"template": {}}})
	not k8s.pod_spec with input as _obj("apps/v1", "Deployment", _template("not a mapping"))
	not k8s.pod_spec with input as _obj("v1", "ConfigMap", {})
	not k8s.tolerations with input as _obj("apps/v1", "Deployment", _template(_c))
	k8s.tolerations == [] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": "x"})))
	k8s.tolerations == [] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": null})))
	k8s.tolerations == [] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": false})))
	k8s.tolerations == [1] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": [1]})))
	not k8s.tolerations with input as _obj("v1", "ConfigMap", {})
	k8s.is_daemonset with input as _obj("apps/v1", "DaemonSet", _template(_c))
	not k8s.is_daemonset with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
}

# A built-in workload has one pod; fragments none.
test_pods_of_builtin_kinds if {
	[pod] := k8s.pods with input as _obj("apps/v1", "Deployment", {"spec": {"replicas": 3, "template": {"spec": _c}}})
	pod.path == ["spec", "template", "spec"]
	pod.spec == _c
	pod.tolerations == []
	pod.valid_tolerations == {}
	pod.replicas == 3
	k8s.where(pod) == "" with input as _obj("apps/v1", "Deployment", {"spec": {"replicas": 3, "template": {"spec": _c}}})
	not pod.daemonset
	[ds] := k8s.pods with input as _obj("apps/v1", "DaemonSet", _template(_c))
	ds.daemonset
	ds.replicas == null
	k8s.pods == [] with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
	k8s.pods == [] with input as _obj("v1", "ConfigMap", {"spec": _c})
}

_tols := [{"key": "a", "operator": "Exists"}, {"key": "b", "operator": "Exists", "value": "x"}]

# Invalid tolerations are left out of valid_tolerations, by index.
test_valid_tolerations_by_index if {
	[pod] := k8s.pods with input as _obj("v1", "Pod", {"spec": object.union(_c, {"tolerations": _tols})})
	pod.tolerations == _tols
	pod.valid_tolerations == {0: _tols[0]}
	[other] := k8s.pods with input as _obj("v1", "Pod", {"spec": object.union(_c, {"tolerations": "x"})})
	other.tolerations == []
}

# Custom resources with pod templates: every template is a pod, at its
# path, whether it is in a list (worker groups) or a mapping (replica
# specs), with the number of its pods.
test_pods_of_custom_resources if {
	ray := {"spec": {
		"headGroupSpec": {"template": {"spec": _c}},
		"workerGroupSpecs": [
			{"replicas": 2, "template": {"spec": _c}},
			{"replicas": 4, "template": {"spec": object.union(_c, {"tolerations": _tols})}},
		],
	}}
	ray_pods := k8s.pods with input as _obj("ray.io/v1", "RayCluster", ray)
	[p.path | some p in ray_pods] == [
		["spec", "headGroupSpec", "template", "spec"],
		["spec", "workerGroupSpecs", 0, "template", "spec"],
		["spec", "workerGroupSpecs", 1, "template", "spec"],
	]
	[p.replicas | some p in ray_pods] == [null, 2, 4]
	[k8s.where(p) | some p in ray_pods] with input as _obj("ray.io/v1", "RayCluster", ray) == ["spec.headGroupSpec.template.spec", "spec.workerGroupSpecs[0].template.spec", "spec.workerGroupSpecs[1].template.spec"]
	ray_pods[2].valid_tolerations == {0: _tols[0]}

	job := {"spec": {"pytorchReplicaSpecs": {
		"Master": {"replicas": 1, "template": {"spec": _c}},
		"Worker": {"replicas": 8, "template": {"spec": _c}},
	}}}
	[p.path | some p in k8s.pods] == [
		["spec", "pytorchReplicaSpecs", "Master", "template", "spec"],
		["spec", "pytorchReplicaSpecs", "Worker", "template", "spec"],
	] with input as _obj("kubeflow.org/v1", "PyTorchJob", job)

	[p.path | some p in k8s.pods] == [["spec", "replicatedJobs", 0, "template", "spec", "template", "spec"]] with input as _obj(
		"jobset.x-k8s.io/v1alpha2", "JobSet",
		{"spec": {"replicatedJobs": [{"replicas": 1, "template": {"spec": {"template": {"spec": _c}}}}]}},
	)
}

# An Argo template is a pod when it runs a container; a workflow with
# scheduling fields of its own, which Argo merges into every pod, is left
# out.
test_argo_templates if {
	steps := {"name": "main", "steps": [[{"name": "a", "template": "train"}]]}
	train := {"name": "train", "container": {"image": "t"}, "tolerations": _tols}
	wf := _obj("argoproj.io/v1alpha1", "Workflow", {"spec": {"entrypoint": "main", "templates": [steps, train]}})
	[p.path | some p in k8s.pods] == [["spec", "templates", 1]] with input as wf
	k8s.pods == [] with input as json.patch(wf, [{"op": "add", "path": "/spec/nodeSelector", "value": {"a": "b"}}])
	cron := _obj("argoproj.io/v1alpha1", "CronWorkflow", {"spec": {"workflowSpec": {"templates": [train]}}})
	[p.path | some p in k8s.pods] == [["spec", "workflowSpec", "templates", 0]] with input as cron
}

# A custom resource's controller fills in what it leaves out (a KServe
# predictor names a model, not a container), so it is no fragment; a
# template that is absent is no pod.
test_custom_resources_are_not_fragments if {
	isvc := _obj("serving.kserve.io/v1beta1", "InferenceService", {"spec": {"predictor": {"model": {"modelFormat": {"name": "x"}}, "tolerations": _tols}}})
	[p] := k8s.pods with input as isvc
	p.path == ["spec", "predictor"]
	p.valid_tolerations == {0: _tols[0]}
	not k8s.is_fragment with input as isvc
	k8s.is_workload with input as isvc
	k8s.pods == [] with input as _obj("ray.io/v1", "RayCluster", {"spec": {}})
	k8s.pods == [] with input as _obj("example.com/v1", "RayCluster", {"spec": {"headGroupSpec": {"template": {"spec": _c}}}})
}

test_name_from_generate_name if {
	k8s.name == "gpu-job-*" with input as {"kind": "Pod", "metadata": {"generateName": "gpu-job-"}}
	k8s.name == "web" with input as {"kind": "Pod", "metadata": {"name": "web", "generateName": "gpu-job-"}}
	k8s.name == "" with input as {"kind": "Pod", "metadata": {}}
}

# --- the plain pattern behind valid_tolerations ---------------------------------------

_repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# The common tolerations are vouched for by one check of the whole list.
test_plain_lists_are_plainly_valid if {
	k8s.tolerations_plainly_valid([])
	k8s.tolerations_plainly_valid([
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
		{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
		{"key": "dedicated", "value": "gpu"},
		{"key": "spot", "value": "", "effect": "PreferNoSchedule"},
		{"key": "example.com/GPU_type.v-1", "operator": "Exists"},
		{"key": _repeat("k", 63), "operator": "Exists"},
		{"key": "dedicated", "value": _repeat("v", 63)},
		{"key": "pool", "operator": "Exists", "tolerationSeconds": null},
		{"operator": "Exists"},
		{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": -5},
	])
}

# What the pattern does not vouch for goes through tol.valid one toleration
# at a time: these are valid all the same.
test_valid_tolerations_beyond_the_plain_pattern if {
	tols := [
		{"key": "a.b.c.d.e/x", "operator": "Exists"},
		{"key": concat("/", [_repeat("p", 64), "x"]), "operator": "Exists"},
		{"key": concat("/", [concat(".", [_repeat("p", 63), _repeat("q", 63), _repeat("r", 63), _repeat("s", 61)]), "x"]), "operator": "Exists"},
		{"key": "pool", "operator": "Exists", "unknownField": true},
		{"key": "pool", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300.0},
	]
	every t in tols {
		not k8s.tolerations_plainly_valid([t])
		[pod] := k8s.pods with input as _obj("v1", "Pod", {"spec": object.union(_c, {"tolerations": [t]})})
		pod.valid_tolerations == {0: t}
	}
}

# The pattern vouches only for plainly valid tolerations: for each of these
# near misses, either it leaves the toleration to tol.valid or the
# toleration is valid.
test_plain_pattern_is_never_looser_than_valid if {
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
		_left_to_valid_or_valid(t)
	}
}

_left_to_valid_or_valid(t) if not k8s.tolerations_plainly_valid([t])

_left_to_valid_or_valid(t) if data.dslint.lib.tolerations.valid(t)
