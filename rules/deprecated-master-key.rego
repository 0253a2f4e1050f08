# METADATA
# title: Toleration or node selection on the removed master key
# description: |
#   kubeadm renamed the control-plane role (KEP-2067): it stopped labelling
#   control-plane nodes node-role.kubernetes.io/master in 1.24 and stopped
#   tainting them node-role.kubernetes.io/master:NoSchedule in 1.25, and
#   "kubeadm upgrade apply" removes both from existing nodes. They now carry
#   the label and taint node-role.kubernetes.io/control-plane. A toleration of
#   the master taint with no toleration of the control-plane taint no longer
#   lets pods onto the control plane. A nodeSelector or node-affinity
#   expression on the master label matches no node any more: a required one
#   leaves the pods Pending (or, with DoesNotExist/NotIn, no longer keeps them
#   off the control plane), a preferred one does nothing. Tolerating both
#   keys, or offering both labels in node-affinity terms, is the documented
#   way to support old and new clusters and is not reported; neither is a
#   wildcard toleration (operator Exists without a key), which covers both.
#   For a DaemonSet, daemonset-missing-control-plane-toleration reports the
#   control-plane nodes it misses; this rule points at the outdated
#   toleration or selector itself.
# related_resources:
#   - ref: https://kubernetes.io/docs/reference/labels-annotations-taints/#node-role-kubernetes-io-master-taint
#     description: The deprecated node-role.kubernetes.io/master taint
#   - ref: https://kubernetes.io/docs/reference/labels-annotations-taints/#node-role-kubernetes-io-control-plane
#     description: The node-role.kubernetes.io/control-plane label and taint
#   - ref: https://github.com/kubernetes/enhancements/tree/master/keps/sig-cluster-lifecycle/kubeadm/2067-rename-master-label-taint
#     description: KEP-2067, rename the kubeadm "master" label and taint
# custom:
#   severity: warning
#   fixable: true
#   intent: |
#     Fires on a toleration of node-role.kubernetes.io/master without a
#     matching toleration of node-role.kubernetes.io/control-plane (at the
#     toleration's key), and on a nodeSelector or node-affinity expression
#     on the master label without one on the control-plane label, for a
#     target Kubernetes version (kubernetesVersion, default the newest) in
#     which kubeadm no longer applies them: the taint from 1.25, the label
#     from 1.24. Stays quiet when both keys are tolerated or both labels are
#     offered (the documented way to support old and new clusters), for a
#     wildcard toleration, for older target versions, and for OpenShift's
#     own manifests (include.release.openshift.io annotations, openshift-*
#     namespaces), since OpenShift still labels and taints its control plane
#     with the master key. A toleration the API server rejects is left to
#     invalid-toleration.
#   remediation: |
#     Next to each toleration of node-role.kubernetes.io/master add the same
#     toleration for node-role.kubernetes.io/control-plane (usually
#     {key: node-role.kubernetes.io/control-plane, operator: Exists, effect:
#     NoSchedule}); drop the master one once no cluster older than 1.25
#     remains. Select control-plane nodes by the label
#     node-role.kubernetes.io/control-plane instead of
#     node-role.kubernetes.io/master, or, to support both, use two
#     node-affinity terms (they are ORed), one per label. dslint fix adds
#     the control-plane toleration next to a master one; a selector on the
#     master label has more than one repair (replace the label, or add a
#     term for the new one) and is left to you.
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
#             node-role.kubernetes.io/master: ""
#           tolerations:
#             - key: node-role.kubernetes.io/master
#               operator: Exists
#               effect: NoSchedule
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
#             - key: node-role.kubernetes.io/master
#               operator: Exists
#               effect: NoSchedule
#           containers: [{name: main, image: registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.0}]
package dslint.rules["deprecated-master-key"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.result
import data.dslint.lib.settings
import data.dslint.lib.tolerations as tol

_master := "node-role.kubernetes.io/master"

_control_plane := "node-role.kubernetes.io/control-plane"

# The master taint is gone from kubeadm clusters since 1.25, the master label
# since 1.24 (reference §6): for an older target version (kubernetesVersion)
# both are current and nothing is reported. OpenShift still labels and taints
# its control plane node-role.kubernetes.io/master: its own release payload
# is right to use them (_openshift_payload).

# --- tolerations ----------------------------------------------------------------

# t.key is tol.field(t, "key") whenever it can equal the master key. The
# fix adds the toleration the message names.
report contains result.with_fix(result.fail(k8s.pod_path(pod, ["tolerations", i, "key"]), msg), [result.append(k8s.pod_path(pod, ["tolerations"]), tol.control_plane_counterpart(t))]) if {
	settings.kubernetes_minor >= 25
	not _openshift_payload
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	t.key == _master
	not tol.tolerated(pod.tolerations, tol.control_plane_taint)
	not tol.tolerated(pod.tolerations, _twin(t))
	msg := sprintf("toleration of the deprecated taint %q has no counterpart for %q: kubeadm stopped applying the master taint in 1.25 and taints control-plane nodes %q instead, so this toleration no longer lets pods onto them; add %s next to it", [
		_master,
		_control_plane,
		tol.string_of_taint(tol.control_plane_taint),
		tol.text(tol.control_plane_counterpart(t)),
	])
}

# --- node selection -------------------------------------------------------------

report contains result.fail(k8s.pod_path(pod, ["nodeSelector", _master]), msg) if {
	settings.kubernetes_minor >= 24
	not _openshift_payload
	some pod in k8s.pods
	_ = pod.spec.nodeSelector[_master]
	msg := sprintf("nodeSelector on the label %q, which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): on such clusters no node matches and the pods stay Pending; select %q instead", [_master, _control_plane])
}

report contains result.fail(k8s.pod_path(pod, array.concat(_required, [i, "matchExpressions", j, "key"])), msg) if {
	settings.kubernetes_minor >= 24
	not _openshift_payload
	some pod in k8s.pods
	terms := pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
	is_array(terms)
	some i, term in terms
	some j, expr in nodes.expressions(term)
	expr.key == _master
	not _mentions_control_plane(terms)
	msg := sprintf("required node affinity on the label %q, which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): %s; use %q, or add a term for it", [_master, _required_effect(expr), _control_plane])
}

report contains result.fail(k8s.pod_path(pod, array.concat(_preferred, [i, "preference", "matchExpressions", j, "key"])), msg) if {
	settings.kubernetes_minor >= 24
	not _openshift_payload
	some pod in k8s.pods
	prefs := pod.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
	is_array(prefs)
	some i, w in prefs
	some j, expr in nodes.expressions(w.preference)
	expr.key == _master
	not _mentions_control_plane(_preferences(prefs))
	msg := sprintf("preferred node affinity on the label %q, which kubeadm stopped applying to control-plane nodes in 1.24 (and removes on upgrade): on such clusters the preference has no effect; use %q, or add a term for it", [_master, _control_plane])
}

# --- helpers --------------------------------------------------------------------

# _twin(t) is the control-plane taint that t's master taint became: same
# effect (NoSchedule when t has none) and, for an Equal toleration, same value.
_twin(t) := {"key": _control_plane, "effect": _twin_effect(t), "value": _twin_value(t)}

_twin_effect(t) := e if {
	e := tol.field(t, "effect")
	e != ""
} else := "NoSchedule"

_twin_value(t) := tol.field(t, "value") if tol.field(t, "operator") in {"", "Equal"}

_twin_value(t) := "" if not tol.field(t, "operator") in {"", "Equal"}

_required := ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"]

_preferred := ["affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"]

_required_effect(expr) := "on such clusters no node has it, so this expression no longer keeps the pods off the control plane" if {
	expr.operator in {"NotIn", "DoesNotExist"}
} else := "on such clusters no node has it, so this term matches no node"

# _preferences(prefs) are the node selector terms of preferred node
# affinity: each entry's preference ({} for an entry that has none).
_preferences(prefs) := [_preference(w) | some w in prefs]

_preference(w) := p if {
	is_object(w)
	p := w.preference
	is_object(p)
} else := {}

# Terms are ORed and expressions in a term ANDed: a list that also names the
# control-plane label supports old and new clusters (one term per label to
# select the control plane, both expressions in one term to avoid it).
_mentions_control_plane(terms) if {
	some term in terms
	some expr in nodes.expressions(term)
	expr.key == _control_plane
}

# An object of OpenShift's release payload (include.release.openshift.io/*
# annotations) or of its platform namespaces (openshift-*).
_openshift_payload if {
	some key, _ in input.metadata.annotations
	startswith(key, "include.release.openshift.io/")
}

_openshift_payload if startswith(input.metadata.namespace, "openshift-")
