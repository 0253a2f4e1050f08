# METADATA
# title: Pods pinned to the control plane without its taint's toleration
# description: |
#   The dedicated-node pattern has two halves: a label the pods select and a
#   taint they tolerate. Control-plane nodes are the best-known dedicated
#   nodes: kubeadm and most distributions label them
#   node-role.kubernetes.io/control-plane and taint them
#   node-role.kubernetes.io/control-plane:NoSchedule. Pods that select that
#   label, by nodeSelector or by a required node-affinity term that admits
#   no other nodes, but do not tolerate the taint have nowhere to go: the
#   scheduler filters every control-plane node out ("untolerated taint") and
#   every other node fails the selector, so the pods stay Pending, or a
#   DaemonSet runs no pod at all. The DaemonSet controller's automatic
#   tolerations do not cover the taint. Matching is exact: a toleration with
#   operator Equal and a value such as "true" does not tolerate the kubeadm
#   taint, which has no value. Through Kubernetes 1.24 control-plane nodes
#   carry node-role.kubernetes.io/master:NoSchedule as well (and, through
#   1.23, the node-role.kubernetes.io/master label), so on such a target
#   pods that select either label must also tolerate the master taint.
# related_resources:
#   - ref: https://kubernetes.io/docs/reference/labels-annotations-taints/#node-role-kubernetes-io-control-plane-taint
#     description: The node-role.kubernetes.io/control-plane taint
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes (taint and label together)
#   - ref: https://github.com/kubernetes/enhancements/tree/master/keps/sig-cluster-lifecycle/kubeadm/2067-rename-master-label-taint
#     description: KEP-2067, the kubeadm control-plane label and taint and their master predecessors
# custom:
#   severity: warning
#   fixable: true
#   intent: |
#     Fires when a workload's pods select control-plane nodes and do not
#     tolerate the taints those nodes carry, pointing at the selector key
#     (the nodeSelector key, or the matchExpressions key of the first
#     required term). Pods select control-plane nodes when their
#     nodeSelector names node-role.kubernetes.io/control-plane or
#     node-role.kubernetes.io/master, or when every term of their required
#     node affinity has an In or Exists expression on one of them. The
#     control-plane label asks for the control-plane taint; on a target
#     older than 1.25 (kubernetesVersion) either label also asks for the
#     master taint. Stays quiet for a master selector on 1.25 and newer (no
#     kubeadm node has the label, deprecated-master-key reports it, and no
#     node with it carries the control-plane taint in any kubeadm release),
#     when a term admits other nodes, for preferred affinity, for NotIn and
#     DoesNotExist (pods kept off the control plane), for pods with nodeName
#     (they bypass the scheduler and its NoSchedule check), when a toleration
#     matches exactly (a wildcard included), for objects that are not
#     workloads or are patches, and whenever there is a node inventory: then
#     no-matching-nodes reports such pods exactly. With pools declared in
#     .dslint.yaml (labels and taints, no inventory needed), it fires the
#     same way for pods whose node constraint keeps them on a declared
#     pool's label (a nodeSelector entry, or In or Exists on it in every
#     required term) without tolerating all its NoSchedule and NoExecute
#     taints, naming the tolerations to add; outsiders of an owned pool are
#     left to pool-ownership.
#   remediation: |
#     Add the toleration {key: node-role.kubernetes.io/control-plane,
#     operator: Exists, effect: NoSchedule} and, while clusters older than
#     1.25 remain, the same for node-role.kubernetes.io/master. If the pods
#     were not meant for the control plane, drop the selector instead. dslint
#     fix adds the tolerations the message names.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: cluster-autoscaler
#     spec:
#       selector: {matchLabels: {app: cluster-autoscaler}}
#       template:
#         metadata: {labels: {app: cluster-autoscaler}}
#         spec:
#           nodeSelector:
#             node-role.kubernetes.io/control-plane: ""
#           containers: [{name: main, image: registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.0}]
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: cluster-autoscaler
#     spec:
#       selector: {matchLabels: {app: cluster-autoscaler}}
#       template:
#         metadata: {labels: {app: cluster-autoscaler}}
#         spec:
#           nodeSelector:
#             node-role.kubernetes.io/control-plane: ""
#           tolerations:
#             - key: node-role.kubernetes.io/control-plane
#               operator: Exists
#               effect: NoSchedule
#           containers: [{name: main, image: registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.0}]
package dslint.rules["selector-without-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.placement
import data.dslint.lib.pools
import data.dslint.lib.result
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

_control_plane := "node-role.kubernetes.io/control-plane"

_master := "node-role.kubernetes.io/master"

# With an inventory, no-matching-nodes places the pods exactly. The fix adds
# the tolerations the message names.
report contains result.with_fix(result.fail(_selector_path(pod), msg), _additions(pod, missing)) if {
	not placement.has_inventory
	some pod in k8s.pods
	selected := _selected(pod.spec)
	count(selected) > 0
	nodes.node_name(pod.spec) == ""
	missing := _untolerated(pod, selected)
	count(missing) > 0
	msg := sprintf("%s selects control-plane nodes (%s) but does not tolerate %s: %s its pods stay Pending; add %s %s", [
		k8s.workload_label(pod),
		_selection(pod),
		concat(" and ", [_taint_and_note(pod, t) | some t in missing]),
		_where(missing),
		_noun(missing),
		concat(" and ", [tol.text(_toleration_to_add(t)) | some t in missing]),
	])
}

# With a declared pool (pools: in .dslint.yaml), pods that its label keeps
# on its nodes need its taints' tolerations. Outsiders of an owned pool are
# pool-ownership's.
report contains result.with_fix(result.fail(pools.asking_path(pod, pool), msg), _additions(pod, missing)) if {
	not placement.has_inventory
	some pod in k8s.pods
	some pool in pools.dedicated
	pools.pins(pod.spec, pool)
	pools.admits(pod.spec, pool)
	nodes.node_name(pod.spec) == ""
	not pools.violation(pod, pool)
	missing := pools.untolerated(pod, pool)
	count(missing) > 0
	msg := sprintf("%s selects pool %q (%s) but does not tolerate %s: its pods stay Pending; add %s %s", [
		k8s.workload_label(pod), pool.name, pools.asking_text(pod, pool),
		concat(" and ", [sprintf("its taint %q", [tol.string_of_taint(t)]) | some t in missing]),
		_noun(missing), concat(" and ", [tol.text(_toleration_to_add(t)) | some t in missing]),
	])
}

# --- which nodes the pods select ---------------------------------------------------

# _selected(spec) are the role labels the pods' node constraint requires:
# those named in the nodeSelector, and those of required node affinity when
# every term requires one (terms are ORed: one term without leaves other
# nodes). An expression that pins to a control-plane label is looked for
# first: most terms name other labels, and then _affinity_pins is never
# needed.
_selected(spec) := {key |
	some key in [_control_plane, _master]
	_ = spec.nodeSelector[key]
} | {expr.key |
	terms := spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
	is_array(terms)
	some term in terms
	some expr in nodes.expressions(term)
	_pins(expr)
	_affinity_pins(terms)
}

_affinity_pins(terms) if {
	count(terms) > 0
	every term in terms {
		_term_pins(term)
	}
}

_term_pins(term) if {
	some expr in nodes.expressions(term)
	_pins(expr)
}

# An In or Exists expression on a role label admits control-plane nodes
# only; NotIn and DoesNotExist keep pods off them.
_pins(expr) if {
	expr.key in {_control_plane, _master}
	expr.operator in {"In", "Exists"}
}

# _selector_path(pod) is the selector key that pins the pods: the
# nodeSelector's control-plane key, else its master key, else the first
# pinning expression of the first required term
# (_first_pinning_expression).
_selector_path(pod) := k8s.pod_path(pod, ["nodeSelector", _control_plane]) if {
	_control_plane in object.keys(nodes.node_selector(pod.spec))
} else := k8s.pod_path(pod, ["nodeSelector", _master]) if {
	_master in object.keys(nodes.node_selector(pod.spec))
} else := k8s.pod_path(pod, [
	"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
	"nodeSelectorTerms", 0, "matchExpressions", _first_pinning_expression(terms), "key",
]) if {
	terms := nodes.required_terms(pod.spec)
	_affinity_pins(terms)
}

# _first_pinning_expression(terms) is the index of the first term's
# expression on the control-plane label, else of its first on the master
# label.
_first_pinning_expression(terms) := min(js) if {
	js := {j | some j, e in nodes.expressions(terms[0]); _pins(e); e.key == _control_plane}
	count(js) > 0
} else := min({j | some j, e in nodes.expressions(terms[0]); _pins(e)})

_selection(pod) := sprintf("nodeSelector %q", [path[count(path) - 1]]) if {
	path := _selector_path(pod)
	"nodeSelector" in path
} else := sprintf("required node affinity on %q", [nodes.expressions(terms[0])[_first_pinning_expression(terms)].key]) if {
	terms := nodes.required_terms(pod.spec)
}

# --- which taints they must tolerate -----------------------------------------------

# Which taints go with which label (reference §6, kubeadm): nodes labelled
# control-plane carry the control-plane taint from 1.24 on, and through 1.24
# the master taint (1.20 to 1.23 label them both and taint them master
# only). Nodes labelled master carry the master taint; kubeadm stopped
# labelling them master in 1.24, so on a newer target a master selector
# matches no node at all, which deprecated-master-key reports, and no
# toleration would help. In no kubeadm release does a node labelled master
# carry the control-plane taint, and distributions that keep the master
# label (OpenShift) keep the master taint: a master selector never asks for
# the control-plane toleration.
_needed(selected) := tol.control_plane_taints if {
	_control_plane in selected
} else := [tol.master_taint] if {
	settings.kubernetes_minor < 25
} else := []

_untolerated(pod, selected) := [t |
	some t in _needed(selected)
	not tol.tolerated(_pod_tolerations(pod), t)
]

# _pod_tolerations(pod) are those the pods get: a DaemonSet's pods also
# carry the ones its controller adds, none of which is for a control-plane
# taint.
_pod_tolerations(pod) := tol.daemonset_pod_tolerations(pod.spec) if {
	pod.daemonset
} else := pod.tolerations

# --- the message -------------------------------------------------------------------

_taint_and_note(pod, taint) := sprintf("the taint %q%s", [tol.string_of_taint(taint), _near_miss(pod, taint)])

_where([taint]) := "wherever control-plane nodes carry it (kubeadm, most distributions)" if {
	taint.key == _control_plane
} else := sprintf("on Kubernetes 1.24 and older (the target is 1.%v), where control-plane nodes carry that taint,", [settings.kubernetes_minor])

_where(missing) := "wherever control-plane nodes carry them (kubeadm applies the master taint through 1.24 and the control-plane one from 1.24 on)" if count(missing) > 1

_noun([_]) := "the toleration"

_noun(missing) := "the tolerations" if count(missing) > 1

# _toleration_to_add(taint) is the toleration that matches the taint
# exactly: Equal with its value, or Exists for a taint without one (the
# control-plane taints).
_toleration_to_add(taint) := {"key": taint.key, "operator": "Equal", "value": taint.value, "effect": taint.effect} if {
	object.get(taint, "value", "") != ""
} else := {"key": taint.key, "operator": "Exists", "effect": taint.effect}

# _additions(pod, missing) is the fix: the toleration of each missing taint
# appended to the pod's tolerations.
_additions(pod, missing) := [result.append(k8s.pod_path(pod, ["tolerations"]), _toleration_to_add(t)) | some t in missing]

# _near_miss(pod, taint) explains why a toleration written for the taint's key
# does not tolerate it, "" when the pods have none.
_near_miss(pod, taint) := sprintf(" (its toleration of %q %s)", [taint.key, _why_not(misses[0])]) if {
	misses := _near_misses(pod, taint)
	count(misses) > 0
} else := ""

_near_misses(pod, taint) := [t |
	some t in pod.tolerations
	t.key == taint.key
	not tol.tolerates(t, taint)
]

_why_not(t) := sprintf("has operator Equal and value %q: the taint has no value, so it does not match", [tol.field(t, "value")]) if {
	object.get(t, "operator", null) in {null, "", "Equal"}
	tol.field(t, "value") != ""
} else := sprintf("is for effect %q only", [tol.field(t, "effect")]) if {
	not tol.field(t, "effect") in {"", "NoSchedule"}
} else := sprintf("has operator %q, which matches nothing", [tol.field(t, "operator")])
