# METADATA
# description: |
#   Workloads and their pod templates. Every rule reads the pod spec through
#   this package, so each workload kind is handled in one place.
package dslint.lib.k8s

import data.dslint.lib.tolerations as tol

# group is the API group of input ("" for the core group): what comes
# before the first "/" of apiVersion.
default group := ""

group := split(input.apiVersion, "/")[0] if contains(input.apiVersion, "/")

# templates maps an API group and kind to where objects of that kind keep
# their pod templates: each entry's "pod" is the path from the object to a
# pod spec, and "replicas" (where there is one) the path to how many pods
# it makes; "runs" and "unless" narrow it down (_excluded, _runs_pods). A "*" in a path stands for every item of a list or every value
# of a mapping (the worker groups of a RayCluster, the replica specs of a
# PyTorchJob). A kind name served from another group is another kind: a
# custom resource named Deployment is no workload. Adding a kind, or a
# place where a kind keeps a pod template, is one entry here: rules,
# placement and custom policies read the pods through `pods`.
templates := {
	"": {
		"Pod": [{"pod": ["spec"]}],
		"PodTemplate": [{"pod": ["template", "spec"]}],
		"ReplicationController": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "replicas"]}],
	},
	"apps": {
		"Deployment": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "replicas"]}],
		"ReplicaSet": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "replicas"]}],
		"DaemonSet": [{"pod": ["spec", "template", "spec"]}],
		"StatefulSet": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "replicas"]}],
	},
	"extensions": {
		"Deployment": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "replicas"]}],
		"ReplicaSet": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "replicas"]}],
		"DaemonSet": [{"pod": ["spec", "template", "spec"]}],
	},
	"batch": {
		"Job": [{"pod": ["spec", "template", "spec"], "replicas": ["spec", "parallelism"]}],
		"CronJob": [{"pod": ["spec", "jobTemplate", "spec", "template", "spec"], "replicas": ["spec", "jobTemplate", "spec", "parallelism"]}],
	},
	# JobSet: a group of Jobs (sigs.k8s.io/jobset).
	"jobset.x-k8s.io": {"JobSet": [{
		"pod": ["spec", "replicatedJobs", "*", "template", "spec", "template", "spec"],
		"replicas": ["spec", "replicatedJobs", "*", "replicas"],
	}]},
	# LeaderWorkerSet: groups of a leader pod and worker pods (sigs.k8s.io/lws).
	"leaderworkerset.x-k8s.io": {"LeaderWorkerSet": [
		{"pod": ["spec", "leaderWorkerTemplate", "leaderTemplate", "spec"], "replicas": ["spec", "replicas"]},
		{"pod": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec"], "replicas": ["spec", "replicas"]},
	]},
	# KubeRay: a Ray cluster's head and worker groups, on their own or in a
	# RayJob or RayService.
	"ray.io": {
		"RayCluster": [
			{"pod": ["spec", "headGroupSpec", "template", "spec"]},
			{"pod": ["spec", "workerGroupSpecs", "*", "template", "spec"], "replicas": ["spec", "workerGroupSpecs", "*", "replicas"]},
		],
		"RayJob": [
			{"pod": ["spec", "rayClusterSpec", "headGroupSpec", "template", "spec"]},
			{"pod": ["spec", "rayClusterSpec", "workerGroupSpecs", "*", "template", "spec"], "replicas": ["spec", "rayClusterSpec", "workerGroupSpecs", "*", "replicas"]},
		],
		"RayService": [
			{"pod": ["spec", "rayClusterConfig", "headGroupSpec", "template", "spec"]},
			{"pod": ["spec", "rayClusterConfig", "workerGroupSpecs", "*", "template", "spec"], "replicas": ["spec", "rayClusterConfig", "workerGroupSpecs", "*", "replicas"]},
		],
	},
	# Kubeflow training jobs: a pod template per replica type (Master,
	# Worker, PS, Launcher, ...).
	"kubeflow.org": {
		"PyTorchJob": [{"pod": ["spec", "pytorchReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "pytorchReplicaSpecs", "*", "replicas"]}],
		"TFJob": [{"pod": ["spec", "tfReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "tfReplicaSpecs", "*", "replicas"]}],
		"MPIJob": [{"pod": ["spec", "mpiReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "mpiReplicaSpecs", "*", "replicas"]}],
		"XGBoostJob": [{"pod": ["spec", "xgbReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "xgbReplicaSpecs", "*", "replicas"]}],
		"PaddleJob": [{"pod": ["spec", "paddleReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "paddleReplicaSpecs", "*", "replicas"]}],
		"JAXJob": [{"pod": ["spec", "jaxReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "jaxReplicaSpecs", "*", "replicas"]}],
		"MXJob": [{"pod": ["spec", "mxReplicaSpecs", "*", "template", "spec"], "replicas": ["spec", "mxReplicaSpecs", "*", "replicas"]}],
	},
	# Volcano batch jobs: one pod template per task.
	"batch.volcano.sh": {"Job": [{"pod": ["spec", "tasks", "*", "template", "spec"], "replicas": ["spec", "tasks", "*", "replicas"]}]},
	# Argo Workflows: each template that runs a container is a pod, with
	# the scheduling fields of a pod spec (nodeSelector, tolerations,
	# affinity). Argo merges the workflow's own scheduling fields into every
	# pod, which a template's path cannot show: such workflows are left out.
	"argoproj.io": {
		"Workflow": [{"pod": ["spec", "templates", "*"], "runs": ["container", "script", "containerSet", "resource", "data"], "unless": [["spec", "nodeSelector"], ["spec", "tolerations"], ["spec", "affinity"]]}],
		"WorkflowTemplate": [{"pod": ["spec", "templates", "*"], "runs": ["container", "script", "containerSet", "resource", "data"], "unless": [["spec", "nodeSelector"], ["spec", "tolerations"], ["spec", "affinity"]]}],
		"ClusterWorkflowTemplate": [{"pod": ["spec", "templates", "*"], "runs": ["container", "script", "containerSet", "resource", "data"], "unless": [["spec", "nodeSelector"], ["spec", "tolerations"], ["spec", "affinity"]]}],
		"CronWorkflow": [{"pod": ["spec", "workflowSpec", "templates", "*"], "runs": ["container", "script", "containerSet", "resource", "data"], "unless": [["spec", "workflowSpec", "nodeSelector"], ["spec", "workflowSpec", "tolerations"], ["spec", "workflowSpec", "affinity"]]}],
	},
	# Knative Serving: a revision template.
	"serving.knative.dev": {"Service": [{"pod": ["spec", "template", "spec"]}]},
	# KServe: the predictor, transformer and explainer are pod specs inline.
	"serving.kserve.io": {"InferenceService": [
		{"pod": ["spec", "predictor"], "replicas": ["spec", "predictor", "minReplicas"]},
		{"pod": ["spec", "transformer"], "replicas": ["spec", "transformer", "minReplicas"]},
		{"pod": ["spec", "explainer"], "replicas": ["spec", "explainer", "minReplicas"]},
	]},
}

# builtin is true for the kinds Kubernetes itself serves, whose pod specs
# the API server validates in full.
builtin if group in {"", "apps", "extensions", "batch"}

# _entries are the table's entries for the kind of input.
_entries := templates[group][input.kind]

# _places are the object's pod templates as [path to the pod spec, path to
# its replicas or null], wildcards resolved against input.
_places contains [entry.pod, object.get(entry, "replicas", null)] if {
	some entry in _entries
	not "*" in entry.pod
	not _excluded(entry)
}

_places contains [path, _fill(object.get(entry, "replicas", null), i, k)] if {
	some entry in _entries
	"*" in entry.pod
	not _excluded(entry)
	some i, step in entry.pod
	step == "*"
	some k, _ in object.get(input, array.slice(entry.pod, 0, i), null)
	path := _fill(entry.pod, i, k)
	_runs_pods(entry, object.get(input, path, null))
}

# An entry with "unless" paths is left out of an object that has any of
# them; one with "runs" keys holds pods only where one of those is set.
_excluded(entry) if {
	some path in object.get(entry, "unless", [])
	object.get(input, path, null) != null
}

_runs_pods(entry, _) if not entry.runs

_runs_pods(entry, template) if {
	some key in entry.runs
	object.get(template, key, null) != null
}

# _fill puts k in the place of the "*" at index i of path.
_fill(null, _, _) := null

_fill(path, i, k) := array.concat(array.concat(array.slice(path, 0, i), [k]), array.slice(path, i + 1, count(path))) if is_array(path)

# pods are the object's pod templates, prepared once for every rule: iterate
# them with `some pod in k8s.pods`. A workload kind has one; a custom
# resource may have several (a RayCluster's head and each worker group).
# Each pod is:
#   path               the path from the object to the pod spec
#   spec               the pod spec (a template that is absent or no
#                      mapping is no pod)
#   tolerations        its tolerations ([] when the field is not a list)
#   valid_tolerations  the tolerations the API server accepts (tol.valid),
#                      by their index: a rejected one gets one finding, from
#                      invalid-toleration; every other rule judges these
#   daemonset          true when its pods go to every node they may (a
#                      DaemonSet)
#   replicas           the number of pods as written, or null
# Fragments (is_fragment) have no pods.
pods := [pod |
	some [path, replicas] in _places
	not is_fragment
	spec := object.get(input, path, null)
	is_object(spec)
	ts := _list(object.get(spec, "tolerations", []))
	pod := {
		"path": path,
		"spec": spec,
		"tolerations": ts,
		"valid_tolerations": _valid_tolerations(ts),
		"daemonset": input.kind == "DaemonSet", # only apps and extensions serve one
		"replicas": object.get(input, replicas, null),
	}
]

# where is the path to pod's spec in words, for messages about kinds with
# several pod templates ("spec.workerGroupSpecs[0].template.spec" in a
# RayCluster), and "" for the kinds with one. Messages are few, so it is
# worked out only for them.
where(_) := "" if _single_template

where(pod) := concat("", [_step(i, step) | some i, step in pod.path]) if {
	not _single_template
}

_single_template if {
	count(templates[group][input.kind]) == 1
	not "*" in templates[group][input.kind][0].pod
}

_step(0, step) := step if is_string(step)

_step(i, step) := concat("", [".", step]) if {
	i > 0
	is_string(step)
}

_step(_, step) := sprintf("[%d]", [step]) if is_number(step)

# is_workload is true when input has a pod template that can be applied as
# it is.
is_workload if count(pods) > 0

# is_fragment is true for a built-in workload kind whose pod template could
# not be applied on its own: no pod spec, no containers, or a container
# without an image. The API server rejects such an object, so it is a piece
# of one: a Kustomize patch merged into its base, a test assertion (kuttl,
# chainsaw) that checks a few fields of a live object, or an excerpt in
# docs. No rule judges it; the summary counts it as skipped. Custom
# resources are not held to this: their controllers fill in containers (a
# KServe predictor names a model, not an image).
is_fragment if not _has_containers(_builtin_spec)

is_fragment if {
	some c in _list(_builtin_spec.containers)
	not _has_image(c)
}

is_fragment if {
	some c in _list(_builtin_spec.initContainers)
	not _has_image(c)
}

# _builtin_spec is the pod spec of a built-in workload kind as written
# (null when absent, whatever it is when it is no mapping).
_builtin_spec := object.get(input, path, null) if {
	builtin
	some [path, _] in _places
}

_has_containers(spec) if {
	is_array(spec.containers)
	count(spec.containers) > 0
}

_has_image(c) if {
	is_string(c.image)
	c.image != ""
}

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)

# is_daemonset is true for a DaemonSet that is no fragment.
is_daemonset if {
	input.kind == "DaemonSet"
	is_workload
}

# _valid_tolerations are the tolerations of the list ts that the API server
# accepts, by index. Most pods have none.
_valid_tolerations([]) := {}

_valid_tolerations(ts) := {i: t | some i, t in ts} if {
	ts != []
	tolerations_plainly_valid(ts)
} else := {i: t |
	some i, t in ts
	tol.valid(t)
} if {
	ts != []
}

# tolerations_plainly_valid is true when one pattern over the JSON text of
# the whole list ts vouches for every toleration: the text json.marshal
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
# more of a 3 s lint. The library's tests hold it to tol.valid.
tolerations_plainly_valid(ts) if regex.match(`^\[(?:\{(?:"effect":"NoExecute",?(?:(?:"key":"",?)?"operator":"Exists",?(?:"tolerationSeconds":(?:null|-?[0-9]+),?)?(?:"value":"",?)?|"key":"(?:(?:[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?\.){0,3}[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?",?(?:"operator":"Exists",?(?:"tolerationSeconds":(?:null|-?[0-9]+),?)?(?:"value":"",?)?|(?:"operator":"(?:Equal)?",?)?(?:"tolerationSeconds":(?:null|-?[0-9]+),?)?(?:"value":"(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?",?)?))|(?:"effect":"(?:NoSchedule|PreferNoSchedule)?",?)?(?:(?:"key":"",?)?"operator":"Exists",?(?:"tolerationSeconds":null,?)?(?:"value":"",?)?|"key":"(?:(?:[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?\.){0,3}[a-z0-9](?:[-a-z0-9]{0,60}[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?",?(?:"operator":"Exists",?(?:"tolerationSeconds":null,?)?(?:"value":"",?)?|(?:"operator":"(?:Equal)?",?)?(?:"tolerationSeconds":null,?)?(?:"value":"(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?",?)?)))\},?)*\]$`, json.marshal(ts))

# pod_path is the path of a field of pod's spec, for a finding:
# k8s.pod_path(pod, ["tolerations", i]).
pod_path(pod, field) := array.concat(pod.path, field)

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

# workload_label names the workload of a pod for messages, and which of its
# pod templates when it has several: `deployment "web"`,
# `raycluster "ray" (spec.workerGroupSpecs[1].template.spec)`.
workload_label(pod) := sprintf("%s %q", [kind_label, name]) if where(pod) == ""

workload_label(pod) := sprintf("%s %q (%s)", [kind_label, name, where(pod)]) if where(pod) != ""

# host_paths are the paths of the hostPath volumes of a pod spec.
host_paths(spec) := {v.hostPath.path |
	some v in spec.volumes
	is_string(v.hostPath.path)
}

# is_kubelet_plugin is true for a pod spec whose pod registers with the kubelet or
# reads what it allocated: a device plugin (/var/lib/kubelet/device-plugins),
# a CSI node plugin or DRA kubelet plugin (plugins_registry, plugins), a
# device monitor (pod-resources). It serves pods on its own node. The kubelet
# directory may sit elsewhere (k0s, microk8s), so its last segment is matched.
is_kubelet_plugin(spec) if {
	some path in host_paths(spec)
	some dir in _kubelet_plugin_dirs
	contains(concat("", [path, "/"]), dir)
}

_kubelet_plugin_dirs := [
	"/kubelet/device-plugins/",
	"/kubelet/plugins_registry/",
	"/kubelet/plugins/",
	"/kubelet/pod-resources/",
]

# is_node_agent is true for a pod spec whose pod has a node-wide duty: it mounts what
# the node's own processes write or read (logs, /proc, the container
# runtime's sockets and logs, CNI configuration, kernel modules, FlexVolume
# drivers). Log shippers, metrics exporters, security and network agents
# do. hostPID, the
# root file system or /sys alone say less: installers that prepare nodes for
# one application (nsenter, chroot) use the first two, hardware discovery
# (feature discovery, device labellers) reads /sys, and hardware matters
# only on the nodes that have it.
is_node_agent(spec) if {
	some path in host_paths(spec)
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

# The pod of an object with one pod template, as policies written before
# k8s.pods read it. Rules read k8s.pods, which also sees every pod template
# of custom resources; these stay for users' policies.

# pod_spec_path is the path to the pod spec of an object with one pod
# template (fragments included).
pod_spec_path := path if {
	count(_places) == 1
	some [path, _] in _places
}

# pod_spec is the pod spec of an object with one pod.
pod_spec := pods[0].spec if count(pods) == 1

# tolerations is the list of tolerations of an object with one pod
# (undefined when its pod spec has none, [] when the field is not a list).
tolerations := pods[0].tolerations if {
	count(pods) == 1
	_ = pods[0].spec.tolerations
}

# valid_tolerations are the valid tolerations of an object with one pod.
valid_tolerations := pods[0].valid_tolerations if count(pods) == 1

# toleration_list_path is the path of the tolerations of an object with one
# pod.
toleration_list_path := array.concat(pod_spec_path, ["tolerations"])

# toleration_path is the path of the toleration at index i of an object
# with one pod.
toleration_path(i) := array.concat(pod_spec_path, ["tolerations", i])
