# Workload kinds, their API groups and pod specs, and Kustomize patch
# fragments.
package dslint.lib.k8s

_obj(api, kind, body) := object.union({"apiVersion": api, "kind": kind, "metadata": {"name": "x"}}, body)

_template(spec) := {"spec": {"template": {"spec": spec}}}

_c := {"containers": [{"name": "c", "image": "i"}]}

test_pod_spec_path_per_kind_and_group if {
	pod_spec_path == ["spec"] with input as _obj("v1", "Pod", {"spec": _c})
	pod_spec_path == ["template", "spec"] with input as _obj("v1", "PodTemplate", {"template": {"spec": _c}})
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("v1", "ReplicationController", _template(_c))
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("apps/v1", "Deployment", _template(_c))
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("extensions/v1beta1", "Deployment", _template(_c))
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("apps/v1beta2", "ReplicaSet", _template(_c))
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("extensions/v1beta1", "DaemonSet", _template(_c))
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("apps/v1", "StatefulSet", _template(_c))
	pod_spec_path == ["spec", "template", "spec"] with input as _obj("batch/v1", "Job", _template(_c))
	pod_spec_path == ["spec", "jobTemplate", "spec", "template", "spec"] with input as _obj("batch/v1", "CronJob", {})
}

# A kind name in another group is a custom resource, not a workload.
test_other_groups_are_not_workloads if {
	not pod_spec_path with input as _obj("example.com/v1", "Deployment", _template(_c))
	not pod_spec_path with input as _obj("extensions/v1beta1", "StatefulSet", _template(_c))
	not pod_spec_path with input as _obj("apps/v1", "Pod", {"spec": _c})
	not pod_spec_path with input as _obj("apps/v1", "Job", _template(_c))
	not pod_spec_path with input as _obj("apps", "Deployment", _template(_c)) # no "/": the core group
	not pod_spec_path with input as _obj("apps/v1", "ConfigMap", {})
}

# Without apiVersion the group is the core group ("").
test_missing_api_version_is_the_core_group if {
	pod_spec_path == ["spec"] with input as {"kind": "Pod", "spec": _c}
	is_workload with input as {"kind": "Pod", "spec": _c}
	not pod_spec_path with input as {"kind": "Deployment", "spec": {"template": {"spec": _c}}}
	group == "" with input as {"kind": "Pod"}
	group == "apps" with input as {"apiVersion": "apps/v1", "kind": "Deployment"}
}

test_fragments if {
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c", "image": ""}]}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c", "image": 5}]}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": ["c"]}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template(object.union(_c, {"initContainers": [{"name": "i"}]})))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": []}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"containers": {"name": "c"}}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", _template({"tolerations": [{"operator": "Exists"}]}))
	is_fragment with input as _obj("apps/v1", "DaemonSet", {"spec": {"selector": {"matchLabels": {"a": "b"}}}})
	is_fragment with input as _obj("v1", "Pod", {"spec": {"nodeSelector": {"a": "b"}}})
	is_fragment with input as _obj("v1", "Pod", {"metadata": {"name": "p"}})
	not is_fragment with input as _obj("apps/v1", "DaemonSet", _template(_c))
	not is_fragment with input as _obj("v1", "ConfigMap", {"spec": {"containers": [{"name": "c"}]}})
	not is_workload with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
	not is_workload with input as _obj("v1", "Pod", {"spec": {"nodeSelector": {"a": "b"}}})
}

test_pod_spec_and_tolerations if {
	pod_spec == _c with input as _obj("apps/v1", "Deployment", _template(_c))
	not pod_spec with input as _obj("apps/v1", "Deployment", {"spec": {"template": {}}})
	not pod_spec with input as _obj("apps/v1", "Deployment", _template("not a mapping"))
	not pod_spec with input as _obj("v1", "ConfigMap", {})
	not tolerations with input as _obj("apps/v1", "Deployment", _template(_c))
	tolerations == [] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": "x"})))
	tolerations == [] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": null})))
	tolerations == [] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": false})))
	tolerations == [1] with input as _obj("apps/v1", "Deployment", _template(object.union(_c, {"tolerations": [1]})))
	not tolerations with input as _obj("v1", "ConfigMap", {})
	is_daemonset with input as _obj("apps/v1", "DaemonSet", _template(_c))
	not is_daemonset with input as _obj("apps/v1", "DaemonSet", _template({"containers": [{"name": "c"}]}))
}

test_pod_spec_as_written if {
	pod_spec_as_written == _c with input as _obj("apps/v1", "Deployment", _template(_c))
	pod_spec_as_written == {"containers": [{"name": "c"}]} with input as _obj("apps/v1", "Deployment", _template({"containers": [{"name": "c"}]}))
	pod_spec_as_written == "x" with input as _obj("apps/v1", "Deployment", _template("x"))
	pod_spec_as_written == null with input as _obj("apps/v1", "Deployment", {})
	not pod_spec_as_written with input as _obj("v1", "ConfigMap", {"spec": _c})
}

test_name_from_generate_name if {
	name == "gpu-job-*" with input as {"kind": "Pod", "metadata": {"generateName": "gpu-job-"}}
	name == "web" with input as {"kind": "Pod", "metadata": {"name": "web", "generateName": "gpu-job-"}}
	name == "" with input as {"kind": "Pod", "metadata": {}}
}
