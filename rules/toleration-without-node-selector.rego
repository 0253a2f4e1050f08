# METADATA
# title: Toleration of a dedicated taint without a node constraint
# description: |
#   Dedicated nodes take two halves. The taint keeps other pods off; the label
#   plus a nodeSelector or required node affinity keeps these pods on. A pod
#   that tolerates a dedicated taint but selects no nodes is allowed onto the
#   dedicated nodes and onto every other node too: the GPU job spills onto
#   general nodes, and the dedicated nodes sit idle. A constraint on generic
#   labels only (kubernetes.io/os, kubernetes.io/arch, topology.kubernetes.io/*,
#   node.kubernetes.io/instance-type) does not pin pods to a pool. Taints that
#   Kubernetes itself applies (node.kubernetes.io/*, node-role.kubernetes.io/*,
#   node.cloudprovider.kubernetes.io/*, and CriticalAddonsOnly, which lets
#   cluster add-ons onto nodes reserved for them), and the lifecycle taints
#   of the cluster autoscaler and Karpenter (a node being drained), are not
#   dedicated; the list is configurable as systemTaints. DaemonSets run on every node they may, so for them the rule
#   only informs. With a node inventory the rule is exact: it fires when the
#   pods can land both on nodes with a dedicated taint they tolerate and on
#   nodes that carry none, and names the pools they spill onto.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
#     description: Assigning Pods to Nodes
# custom:
#   severity: warning
#   intent: |
#     Fires when a workload tolerates a dedicated taint but nothing keeps it
#     on the dedicated nodes: no nodeSelector or required affinity on a pool
#     label, no node name, no extended resource. Informs only for DaemonSets.
#     Stays quiet for system taints (node.kubernetes.io/*,
#     node-role.kubernetes.io/*, CriticalAddonsOnly, the cluster autoscaler's
#     and Karpenter's lifecycle taints, the configurable systemTaints), for
#     a request or limit of an extended resource such as
#     nvidia.com/gpu (it keeps pods on the nodes that advertise it, the
#     pattern the ExtendedResourceToleration admission plugin completes) or a
#     claim of dynamic resource allocation (resourceClaims), for
#     PreferNoSchedule tolerations, for pods whose preferred node affinity
#     steers away from the tolerated pool (NotIn or DoesNotExist on the
#     taint's key: the pool is a last resort on purpose), for kubelet
#     plugins (a device plugin tolerates its devices' taint and runs on every
#     node to find them), and for tolerations the API server rejects. With an inventory it is exact: it fires only when the pods can
#     land both on tainted dedicated nodes and on nodes with none of the
#     taints they tolerate. With pools declared in .dslint.yaml (labels and
#     taints) and no inventory, a toleration of a declared pool's taint is
#     judged by the declaration: it fires when the pods tolerate all the
#     pool's NoSchedule and NoExecute taints and nothing keeps them on
#     particular nodes (as above), naming the pool and the nodeSelector to
#     add; it stays quiet when their constraint keeps them on other labels
#     (dslint cannot tell those nodes are not the pool's) and for outsiders
#     of an owned pool, which are pool-ownership's.
#   remediation: |
#     Add a nodeSelector (or required node affinity) on the label of the
#     dedicated nodes, next to the toleration of their taint.
#   bad: |
#     apiVersion: batch/v1
#     kind: Job
#     metadata:
#       name: train
#     spec:
#       template:
#         spec:
#           restartPolicy: Never
#           containers: [{name: train, image: trainer:1.0}]
#           tolerations:
#             - key: nvidia.com/gpu
#               operator: Exists
#               effect: NoSchedule
#   good: |
#     apiVersion: batch/v1
#     kind: Job
#     metadata:
#       name: train
#     spec:
#       template:
#         spec:
#           restartPolicy: Never
#           containers: [{name: train, image: trainer:1.0}]
#           nodeSelector:
#             nvidia.com/gpu.present: "true"
#           tolerations:
#             - key: nvidia.com/gpu
#               operator: Exists
#               effect: NoSchedule
package dslint.rules["toleration-without-node-selector"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.placement
import data.dslint.lib.pools
import data.dslint.lib.result
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

# Without a node inventory: a dedicated toleration and no node constraint
# that keeps the pods on a pool. A toleration of a declared pool's taint is
# judged exactly, below.
report contains result.info_for_daemonsets(result.fail(k8s.pod_path(pod, ["tolerations", i]), msg)) if {
	not placement.has_inventory
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	_dedicated(t)
	not _of_declared_pool(t)
	not nodes.pins_pool(pod.spec)
	not _steers_away(pod.spec, t.key)
	not k8s.is_kubelet_plugin(pod.spec)
	msg := sprintf("%s tolerates the dedicated taint %q but %s: its pods can land on every other node too; add a nodeSelector or required node affinity for the dedicated nodes", [
		k8s.workload_label(pod), _describe(t), _constraint_note(pod.spec),
	])
}

# With a declared pool (pools: in .dslint.yaml) and no inventory, the
# question is exact too: the pods tolerate the pool's taints, and their node
# constraint admits the pool's nodes without keeping them there. Outsiders
# of an owned pool are pool-ownership's.
report contains result.info_for_daemonsets(result.fail(k8s.pod_path(pod, ["tolerations", i]), msg)) if {
	not placement.has_inventory
	some pod in k8s.pods
	some pool in pools.dedicated
	pools.tolerates(pod, pool)
	i := pools.tolerating(pod, pool)
	t := pod.valid_tolerations[i]
	_dedicated(t)
	pools.admits(pod.spec, pool)
	not pools.pins(pod.spec, pool)
	not pools.violation(pod, pool)
	not nodes.pins_pool(pod.spec)
	not _steers_away(pod.spec, t.key)
	not k8s.is_kubelet_plugin(pod.spec)
	msg := sprintf("%s tolerates the taint %q of pool %q but does not select its nodes: its pods can land on every other node too; add nodeSelector %s", [
		k8s.workload_label(pod), tol.string_of_taint(pools.keep_out(pool)[0]), pool.name, _selector_to_add(pool),
	])
}

# With a node inventory the question is exact: can the pods land on a node
# that carries none of the dedicated taints they tolerate? Each pod template
# is placed on its own (placement.pod_eligible_in).
report contains result.info_for_daemonsets(result.fail(k8s.pod_path(pod, ["tolerations", i]), msg)) if {
	placement.has_inventory
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	_dedicated(t)
	count(nodes.extended_resources(pod.spec)) == 0
	not _steers_away(pod.spec, t.key)
	not k8s.is_kubelet_plugin(pod.spec)
	tolerated := _tolerated(pod)
	bare := _bare_pools(pod, tolerated)
	count(bare) > 0
	_reaches(pod, tolerated)
	msg := sprintf("%s tolerates the dedicated taint %q but can land on %d nodes that carry none of the dedicated taints it tolerates (%s): its pods spill onto them; add a nodeSelector or required node affinity for the dedicated nodes", [
		k8s.workload_label(pod), _describe(t), sum([placement.pod_eligible_in(pod)[p] | some p in bare]), placement.pool_names(bare),
	])
}

# _of_declared_pool(t) is true for a toleration of a taint that keeps pods
# off a declared pool.
_of_declared_pool(t) if {
	some pool in pools.dedicated
	some taint in pools.keep_out(pool)
	tol.tolerates(t, taint)
}

_selector_to_add(pool) := sprintf("{%s}", [concat(", ", [sprintf("%s: %q", [k, v]) | some k, v in pools.labels(pool)])])

# _dedicated(t) is true for a keyed toleration of a dedicated taint that can
# keep other pods off (not PreferNoSchedule). Most keyed tolerations are of
# system taints (not-ready, unreachable): that test comes right after the
# key is read.
_dedicated(t) if {
	key := t.key
	is_string(key)
	key != ""
	not settings.is_system_taint(key)
	object.get(t, "operator", "") in {"", "Equal", "Exists", null}
	object.get(t, "effect", "") != "PreferNoSchedule"
}

# A preferred node affinity away from the tolerated pool (NotIn or
# DoesNotExist on the taint's key) says the pods may use the pool only as a
# last resort: the spill is the intent, not a missing half.
_steers_away(spec, key) if {
	some pref in spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	some req in pref.preference.matchExpressions
	req.key == key
	req.operator in {"NotIn", "DoesNotExist"}
}

# _tolerated(pod) are the taints of the inventory that the pod's dedicated
# tolerations tolerate, by their index in the inventory.
_tolerated(pod) := {k: taint |
	some t in pod.valid_tolerations
	_dedicated(t)
	some k, taint in placement.tolerated_taints(t)
	not settings.is_system_taint(taint.key)
}

# _bare_pools(pod, tolerated) are the pools the pod can land on that carry
# none of the tolerated taints.
_bare_pools(pod, tolerated) := {p |
	some p, _ in placement.pod_eligible_in(pod)
	not _carries(p, tolerated)
}

# _reaches(pod, tolerated) is true when the pod can also land on nodes with
# a taint it tolerates: it spills over from the dedicated nodes. (Pods that
# can land on none of them are toleration-selector-mismatch's concern.)
_reaches(pod, tolerated) if {
	some p, _ in placement.pod_eligible_in(pod)
	_carries(p, tolerated)
}

_carries(p, tolerated) if {
	some k, _ in tolerated
	p in placement.pools_with_taint(k)
}

_constraint_note(spec) := "its node constraint does not keep it on a pool (it selects by generic labels such as OS, architecture or zone, or one required term does)" if {
	nodes.has_constraint(spec)
} else := "has no node constraint"

# t is a mapping with a key and an operator that can match (_dedicated):
# only the fields string_of_taint shows are kept, and it reads them as
# tol.field does.
_describe(t) := tol.string_of_taint(object.filter(t, ["key", "effect"])) if {
	t.operator == "Exists"
} else := tol.string_of_taint(object.filter(t, ["key", "value", "effect"]))
