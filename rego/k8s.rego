# METADATA
# description: |
#   Workloads and their pod templates. Every rule reads the pod spec through
#   this package, so each workload kind is handled in one place.
package dslint.lib.k8s

import data.dslint.lib.tolerations as tol

# group is the API group of input ("" for the core group).
default group := ""

group := split(input.apiVersion, "/")[0] if contains(input.apiVersion, "/")

# pod_spec_path is the path from the object to its pod spec, for the
# workload kinds in the API groups they are served from; a custom resource
# that reuses a kind name in another group is not a workload. The group is
# what comes before the first "/" of apiVersion (startswith), "" for the core
# group. One body per kind and group: OPA's rule index picks the bodies by
# input.kind, so a kind that is no workload costs no body at all.
pod_spec_path := ["spec"] if {
	input.kind == "Pod"
	group == ""
}

pod_spec_path := ["template", "spec"] if {
	input.kind == "PodTemplate"
	group == ""
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "ReplicationController"
	group == ""
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "Deployment"
	startswith(input.apiVersion, "apps/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "Deployment"
	startswith(input.apiVersion, "extensions/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "ReplicaSet"
	startswith(input.apiVersion, "apps/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "ReplicaSet"
	startswith(input.apiVersion, "extensions/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "DaemonSet"
	startswith(input.apiVersion, "apps/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "DaemonSet"
	startswith(input.apiVersion, "extensions/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "StatefulSet"
	startswith(input.apiVersion, "apps/")
}

pod_spec_path := ["spec", "template", "spec"] if {
	input.kind == "Job"
	startswith(input.apiVersion, "batch/")
}

pod_spec_path := ["spec", "jobTemplate", "spec", "template", "spec"] if {
	input.kind == "CronJob"
	startswith(input.apiVersion, "batch/")
}

# is_workload is true when input is an object with a pod template that can
# be applied as it is.
is_workload if {
	pod_spec_path
	not is_fragment
}

# is_fragment is true for a workload kind whose pod template could not be
# applied on its own: no pod spec, no containers, or a container without an
# image. The API server rejects such an object, so it is a piece of one: a
# Kustomize patch merged into its base, a test assertion (kuttl, chainsaw)
# that checks a few fields of a live object, or an excerpt in docs. No rule
# judges it; the summary counts it as skipped. This is decided here once,
# so every rule skips the same objects.
is_fragment if {
	pod_spec_path
	not _has_containers(pod_spec_as_written)
}

is_fragment if {
	some c in _list(pod_spec_as_written.containers)
	not _has_image(c)
}

is_fragment if {
	some c in _list(pod_spec_as_written.initContainers)
	not _has_image(c)
}

_has_containers(spec) if {
	is_array(spec.containers)
	count(spec.containers) > 0
}

_list(x) := x if is_array(x)

# pod_spec_as_written is the value at pod_spec_path as the manifest has it
# (null when absent, and whatever it is when it is no mapping), for a
# workload kind, fragments included.
pod_spec_as_written := object.get(input, pod_spec_path, null)

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
	s := pod_spec_as_written
	is_object(s)
	not is_fragment # with pod_spec_as_written defined: is_workload, in fewer lookups
} else := {} if is_workload

# tolerations is the pod spec's list of tolerations ([] when the field is
# not a list, undefined when the pod spec has none, which iterates alike):
# iterate it with `some i, t in k8s.tolerations`.
tolerations := ts if {
	ts := pod_spec.tolerations
	is_array(ts)
} else := [] if {
	_ = pod_spec.tolerations
}

# valid_tolerations are the tolerations the API server accepts
# (tol.valid), by their index in the manifest: iterate them with
# `some i, t in k8s.valid_tolerations`. A rejected toleration gets one
# finding, from invalid-toleration; every other rule judges these.
valid_tolerations := {i: t | some i, t in tolerations} if {
	tolerations_plainly_valid
} else := {i: t |
	some i, t in tolerations
	tol.valid(t)
}

# tolerations_plainly_valid is true when one pattern over the JSON text of
# the whole list vouches for every toleration: the text json.marshal
# renders, compact and with keys sorted (effect, key, operator,
# tolerationSeconds, value), e.g.
#   [{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300}]
# It matches a list of mappings with only those fields, each plainly valid:
# an effect that is "", NoSchedule, PreferNoSchedule or NoExecute; operator
# Exists with an empty or valid key and an empty value, or operator Equal
# (or none) with a valid key and a valid value; tolerationSeconds null, or
# an integer with effect NoExecute. A valid key has at most four prefix
# labels of at most 62 characters and a name of at most 63; a valid value at
# most 63 characters. It is stricter than tol.valid (other fields, longer
# prefixes, 300.0 seconds): what it does not vouch for goes through
# tol.valid one toleration at a time. A fast path: on make bench's 10,000
# workloads, checking each toleration with tol.valid instead took 0.3 s
# more of a 3 s lint. invalid-toleration's tests hold it to tol.valid.
tolerations_plainly_valid if regex.match(`^\[(?:\{(?:"effect":"NoExecute",?(?:(?:"key":"",?)?"operator":"Exists",?(?:"tolerationSeconds":(?:null|-?[0-9]+),?)?(?:"value":"",?)?|"key":"(?:(?:[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?\.){0,3}[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?",?(?:"operator":"Exists",?(?:"tolerationSeconds":(?:null|-?[0-9]+),?)?(?:"value":"",?)?|(?:"operator":"(?:Equal)?",?)?(?:"tolerationSeconds":(?:null|-?[0-9]+),?)?(?:"value":"(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?",?)?))|(?:"effect":"(?:NoSchedule|PreferNoSchedule)?",?)?(?:(?:"key":"",?)?"operator":"Exists",?(?:"tolerationSeconds":null,?)?(?:"value":"",?)?|"key":"(?:(?:[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?\.){0,3}[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?",?(?:"operator":"Exists",?(?:"tolerationSeconds":null,?)?(?:"value":"",?)?|(?:"operator":"(?:Equal)?",?)?(?:"tolerationSeconds":null,?)?(?:"value":"(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?",?)?)))\},?)*\]$`, json.marshal(tolerations))

# toleration_path is the path of the toleration at index i.
toleration_path(i) := array.concat(pod_spec_path, ["tolerations", i])

# name is the object's name, for messages.
default name := ""

name := input.metadata.name if _named

# A pod named by generateName gets a random suffix: "gpu-job-*".
name := concat("", [input.metadata.generateName, "*"]) if {
	not _named
	is_string(input.metadata.generateName)
}

_named if is_string(input.metadata.name)

# kind_label is the kind in lowercase, for messages ("daemonset", "pod").
kind_label := lower(input.kind)

# toleration_list_path is the path of the pod spec's tolerations list.
toleration_list_path := array.concat(pod_spec_path, ["tolerations"])

# host_paths are the paths of the pod's hostPath volumes.
host_paths contains path if {
	some v in pod_spec.volumes
	path := v.hostPath.path
	is_string(path)
}

# is_kubelet_plugin is true for a pod that registers with the kubelet or
# reads what it allocated: a device plugin (/var/lib/kubelet/device-plugins),
# a CSI node plugin or DRA kubelet plugin (plugins_registry, plugins), a
# device monitor (pod-resources). It serves pods on its own node. The kubelet
# directory may sit elsewhere (k0s, microk8s), so its last segment is matched.
is_kubelet_plugin if {
	some path in host_paths
	some dir in _kubelet_plugin_dirs
	contains(concat("", [path, "/"]), dir)
}

_kubelet_plugin_dirs := [
	"/kubelet/device-plugins/",
	"/kubelet/plugins_registry/",
	"/kubelet/plugins/",
	"/kubelet/pod-resources/",
]

# is_node_agent is true for a pod with a node-wide duty: it mounts what
# the node's own processes write or read (logs, /proc, the container
# runtime's sockets and logs, CNI configuration, kernel modules, FlexVolume
# drivers). Log shippers, metrics exporters, security and network agents
# do. hostPID, the
# root file system or /sys alone say less: installers that prepare nodes for
# one application (nsenter, chroot) use the first two, hardware discovery
# (feature discovery, device labellers) reads /sys, and hardware matters
# only on the nodes that have it.
is_node_agent if {
	some path in host_paths
	_node_wide_path(trim_right(path, "/"))
}

_node_wide_path(path) if {
	some dir in _node_wide_dirs
	_under(path, dir)
}

_under(path, dir) if path == dir

_under(path, dir) if startswith(path, concat("", [dir, "/"]))

_node_wide_dirs := [
	"/var/log",
	"/var/lib/docker/containers",
	"/proc",
	"/etc/cni",
	"/opt/cni",
	"/run/containerd",
	"/var/run/containerd",
	"/run/crio",
	"/var/run/crio",
	"/var/run/docker.sock",
	"/run/docker.sock",
	"/lib/modules",
	"/usr/lib/modules",
	"/etc/kubernetes",
	# FlexVolume drivers: the controller manager runs them for attach and
	# detach, so they belong on the control plane too.
	"/usr/libexec/kubernetes/kubelet-plugins",
]
