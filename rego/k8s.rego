# METADATA
# description: |
#   Workloads and their pod templates. Every rule reads the pod spec through
#   this package, so each workload kind is handled in one place.
package dslint.lib.k8s

# The API groups each workload kind is served from; a custom resource that
# reuses a kind name in another group is not a workload.
_kind_groups := {
	"Pod": {""},
	"ReplicationController": {""},
	"PodTemplate": {""},
	"Deployment": {"apps", "extensions"},
	"ReplicaSet": {"apps", "extensions"},
	"StatefulSet": {"apps"},
	"DaemonSet": {"apps", "extensions"},
	"Job": {"batch"},
	"CronJob": {"batch"},
}

# group is the API group of input ("" for the core group).
default group := ""

group := split(input.apiVersion, "/")[0] if contains(input.apiVersion, "/")

# pod_spec_path is the path from the object to its pod spec.
pod_spec_path := _spec_paths[input.kind] if _kind_groups[input.kind][group]

_spec_paths := {
	"Pod": ["spec"],
	"PodTemplate": ["template", "spec"],
	"CronJob": ["spec", "jobTemplate", "spec", "template", "spec"],
	"ReplicationController": ["spec", "template", "spec"],
	"Deployment": ["spec", "template", "spec"],
	"ReplicaSet": ["spec", "template", "spec"],
	"StatefulSet": ["spec", "template", "spec"],
	"DaemonSet": ["spec", "template", "spec"],
	"Job": ["spec", "template", "spec"],
}

# is_workload is true when input is an object with a pod template that can
# be applied as it is.
is_workload if {
	pod_spec_path
	not is_patch
}

# is_patch is true for a workload kind whose pod template has a container
# without an image. The API server rejects such an object, so it is a
# Kustomize patch meant to be merged into a base, and no rule judges it on
# its own. (A fragment with no containers at all is still checked: tests and
# partial manifests look the same.)
is_patch if {
	some c in _template_containers
	not _has_image(c)
}

# Rules over input, not functions of the pod spec: OPA keys its function
# cache by argument, and comparing whole pod specs costs more than the work.
_template_containers := array.concat(
	_list(object.get(input, array.concat(pod_spec_path, ["containers"]), [])),
	_list(object.get(input, array.concat(pod_spec_path, ["initContainers"]), [])),
)

_has_image(c) if {
	is_string(c.image)
	c.image != ""
}

is_daemonset if {
	input.kind == "DaemonSet"
	is_workload
}

# pod_spec is the workload's pod spec ({} when the manifest leaves it out).
pod_spec := s if {
	is_workload
	s := object.get(input, pod_spec_path, {})
	is_object(s)
} else := {} if is_workload

# tolerations is the pod spec's list of tolerations ([] when it has none):
# iterate it with `some i, t in k8s.tolerations`.
tolerations := _list(pod_spec.tolerations) if is_workload

# toleration_path is the path of the toleration at index i.
toleration_path(i) := array.concat(pod_spec_path, ["tolerations", i])

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)

# name is the object's name, for messages.
default name := ""

name := input.metadata.name if is_string(input.metadata.name)

# kind_label is the kind in lowercase, for messages ("daemonset", "pod").
kind_label := lower(input.kind)

# toleration_list_path is the path of the pod spec's tolerations list.
toleration_list_path := array.concat(pod_spec_path, ["tolerations"])
