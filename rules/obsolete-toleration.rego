# METADATA
# title: Toleration of a taint key Kubernetes renamed or dropped
# description: |
#   Kubernetes renamed some of the taints it puts on nodes and stopped
#   applying others. The alpha keys node.alpha.kubernetes.io/notReady and
#   node.alpha.kubernetes.io/unreachable became node.kubernetes.io/not-ready
#   and node.kubernetes.io/unreachable in 1.9, and the 1.9 notes say so: the
#   taints were renamed for you, tolerations were not. The camelCase keys of
#   the 1.8 design (node.kubernetes.io/notReady, memoryPressure, diskPressure,
#   networkUnavailable, outOfDisk) are spelled with dashes in every release
#   since. node.kubernetes.io/out-of-disk went away with the OutOfDisk node
#   condition. A toleration of such a key matches no taint, so its intent
#   fails without a word: a CNI or storage pod that was meant to start on
#   not-ready nodes stays Pending, and a pod that was meant to stay on an
#   unreachable node for an hour gets the default 300 seconds that the
#   DefaultTolerationSeconds admission plugin adds instead.
# related_resources:
#   - ref: https://github.com/kubernetes/kubernetes/blob/master/CHANGELOG/CHANGELOG-1.9.md#scheduling
#     description: Kubernetes 1.9 release notes, Before Upgrading, Scheduling (the notReady and unreachable taint keys changed; tolerations must be updated by hand)
#   - ref: https://github.com/kubernetes/kubernetes/issues/53236
#     description: Tracking work to deprecate the alpha and camelCase taint keys (kubernetes/kubernetes#51266, #54208)
#   - ref: https://github.com/kubernetes/kubernetes/pull/67037
#     description: Cleanup of the OutOfDisk logic in scheduling and the node controller (the out-of-disk taint)
#   - ref: https://kubernetes.io/docs/reference/labels-annotations-taints/
#     description: The well-known taints Kubernetes applies today
# custom:
#   severity: warning
#   fixable: true
#   intent: |
#     Fires on a toleration whose key is one of the obsolete keys listed in
#     the rule (each with its upstream source), pointing at the key. The
#     message names the key to use instead, or says that none exists. For a
#     DaemonSet whose controller already tolerates the new key on its pods,
#     the finding is info: nothing fails, the toleration is dead. Stays quiet
#     when the pod also tolerates the current key for the same effects (the
#     way to support old and new clusters), a wildcard toleration included;
#     for node-role.kubernetes.io/master, which deprecated-master-key
#     reports; and for keys that only look old (any other spelling, case or
#     prefix), which are somebody's own taints. dslint fix writes the
#     current key in place of a renamed one, and removes a toleration that
#     matches nothing whatever its key (the DaemonSet controller tolerates
#     the current key, or no taint replaced the old one). Where the pod
#     already tolerates the current key there is no finding and the old
#     toleration stays. No fix where a later toleration of the current
#     key's NoExecute taint sets another tolerationSeconds: the renamed one
#     would match first and change how long pods stay.
#   remediation: |
#     Replace the key with the one Kubernetes applies now:
#     node.kubernetes.io/not-ready for node.alpha.kubernetes.io/notReady and
#     node.kubernetes.io/notReady, node.kubernetes.io/unreachable for
#     node.alpha.kubernetes.io/unreachable, the dashed
#     node.kubernetes.io/memory-pressure, disk-pressure and
#     network-unavailable for the camelCase keys. Remove tolerations of
#     node.kubernetes.io/out-of-disk and node.kubernetes.io/outOfDisk: no
#     taint replaced them. Keep the old key next to the new one only while
#     clusters that old remain.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: session-store
#     spec:
#       selector: {matchLabels: {app: session-store}}
#       template:
#         metadata: {labels: {app: session-store}}
#         spec:
#           tolerations:
#             - key: node.alpha.kubernetes.io/unreachable
#               operator: Exists
#               effect: NoExecute
#               tolerationSeconds: 3600
#           containers: [{name: redis, image: redis:7.2}]
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: session-store
#     spec:
#       selector: {matchLabels: {app: session-store}}
#       template:
#         metadata: {labels: {app: session-store}}
#         spec:
#           tolerations:
#             - key: node.kubernetes.io/unreachable
#               operator: Exists
#               effect: NoExecute
#               tolerationSeconds: 3600
#           containers: [{name: redis, image: redis:7.2}]
package dslint.rules["obsolete-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.result
import data.dslint.lib.tolerations as tol

# _obsolete maps each obsolete key to the key Kubernetes applies now
# ("current", "" when none) and to what happened to it ("history", for the
# message). Only keys with an upstream source are listed:
#
# - node.alpha.kubernetes.io/notReady, node.alpha.kubernetes.io/unreachable:
#   CHANGELOG-1.9, "Before Upgrading" / Scheduling: "Taint key `notReady` is
#   changed to `not-ready`, and is also now in GA", "Tolerations for these
#   taints must be updated manually" (kubernetes/kubernetes#51266, #54208,
#   tracked in #53236).
# - node.kubernetes.io/notReady: the key of the 1.8 design
#   (kubernetes/community contributors/design-proposals/scheduling/
#   taint-node-by-condition.md, fixed in kubernetes/community#985);
#   kubernetes/kubernetes#51246 '"notReady" toleration should be
#   "not-ready"'.
# - node.kubernetes.io/memoryPressure, diskPressure, networkUnavailable,
#   outOfDisk: the constants of kubernetes/kubernetes
#   plugin/pkg/scheduler/algorithm/well_known_labels.go during 1.8
#   development (commit 0627c1905e9e), dashed in the taints 1.8 released
#   (CHANGELOG-1.8, #49257: "node.kubernetes.io/memory-pressure=:NoSchedule"
#   and the others) and ever since; #53236 tracks the camelCase keys.
# - node.kubernetes.io/out-of-disk: the taint of the OutOfDisk node
#   condition. The scheduler and node controller dropped it
#   (kubernetes/kubernetes#67037, "cleanup logic related with OutOfDisk"),
#   the kubelet stopped reporting the condition in 1.13 (#70111), and 1.16
#   removed the condition type (CHANGELOG-1.16, #72420). Disk shortage is
#   node.kubernetes.io/disk-pressure, a different condition.
#
# node-role.kubernetes.io/master is deprecated-master-key's.
_obsolete := {
	"node.alpha.kubernetes.io/notReady": {
		"current": "node.kubernetes.io/not-ready",
		"history": "Kubernetes renamed the taint to \"node.kubernetes.io/not-ready\" in 1.9",
	},
	"node.alpha.kubernetes.io/unreachable": {
		"current": "node.kubernetes.io/unreachable",
		"history": "Kubernetes renamed the taint to \"node.kubernetes.io/unreachable\" in 1.9",
	},
	"node.kubernetes.io/notReady": {
		"current": "node.kubernetes.io/not-ready",
		"history": "it is the camelCase spelling of the 1.8 design, and Kubernetes taints nodes \"node.kubernetes.io/not-ready\"",
	},
	"node.kubernetes.io/memoryPressure": {
		"current": "node.kubernetes.io/memory-pressure",
		"history": "it is the camelCase spelling of the 1.8 design, and Kubernetes taints nodes \"node.kubernetes.io/memory-pressure\"",
	},
	"node.kubernetes.io/diskPressure": {
		"current": "node.kubernetes.io/disk-pressure",
		"history": "it is the camelCase spelling of the 1.8 design, and Kubernetes taints nodes \"node.kubernetes.io/disk-pressure\"",
	},
	"node.kubernetes.io/networkUnavailable": {
		"current": "node.kubernetes.io/network-unavailable",
		"history": "it is the camelCase spelling of the 1.8 design, and Kubernetes taints nodes \"node.kubernetes.io/network-unavailable\"",
	},
	"node.kubernetes.io/outOfDisk": {
		"current": "",
		"history": "it is the camelCase spelling of the 1.8 design of \"node.kubernetes.io/out-of-disk\", a taint Kubernetes no longer applies either (the kubelet stopped reporting the OutOfDisk node condition in 1.13)",
	},
	"node.kubernetes.io/out-of-disk": {
		"current": "",
		"history": "Kubernetes no longer applies this taint (the kubelet stopped reporting the OutOfDisk node condition in 1.13)",
	},
}

# _applied_effects are the effects with which Kubernetes applies each current
# key (reference §7): a toleration without an effect stood for all of them.
_applied_effects := {
	"node.kubernetes.io/not-ready": {"NoSchedule", "NoExecute"},
	"node.kubernetes.io/unreachable": {"NoSchedule", "NoExecute"},
	"node.kubernetes.io/memory-pressure": {"NoSchedule"},
	"node.kubernetes.io/disk-pressure": {"NoSchedule"},
	"node.kubernetes.io/network-unavailable": {"NoSchedule"},
}

# A renamed key whose current name the pod does not tolerate for the same
# effects: the fix writes the current key (_rename_fix).
report contains _rename_fix(result.fail(k8s.pod_path(pod, ["tolerations", i, "key"]), msg), pod, i, t, entry.current) if {
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	entry := _obsolete[t.key]
	entry.current != ""
	not _covered(_twins(t, entry.current), _pod_tolerations(pod))
	msg := sprintf("toleration key %q is obsolete: %s, so this toleration matches no taint; use the new key", [t.key, entry.history])
}

# A renamed key in a DaemonSet whose controller tolerates the current key on
# the pods' behalf: nothing fails, the toleration is dead, and the fix
# removes it.
report contains result.with_fix(result.with_severity(result.fail(k8s.pod_path(pod, ["tolerations", i, "key"]), msg), "info"), [result.remove(k8s.pod_path(pod, ["tolerations", i]))]) if {
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	entry := _obsolete[t.key]
	entry.current != ""
	not _covered(_twins(t, entry.current), pod.tolerations)
	_covered(_twins(t, entry.current), _pod_tolerations(pod))
	msg := sprintf("toleration key %q is obsolete: %s, so this toleration matches no taint; the daemonset controller already tolerates %q on these pods, so remove it", [t.key, entry.history, entry.current])
}

# A key whose taint Kubernetes no longer applies at all: the toleration
# matches nothing, and the fix removes it.
report contains result.with_fix(result.fail(k8s.pod_path(pod, ["tolerations", i, "key"]), msg), [result.remove(k8s.pod_path(pod, ["tolerations", i]))]) if {
	some pod in k8s.pods
	some i, t in pod.valid_tolerations
	entry := _obsolete[t.key]
	entry.current == ""
	msg := sprintf("toleration key %q is obsolete: %s, so this toleration matches no taint; no replacement exists, remove it", [t.key, entry.history])
}

# _rename_fix(f, pod, i, t, current) is finding f about toleration i, t,
# with its fix: the current key in place of the old one. The first
# toleration that tolerates a NoExecute taint decides how long the pods stay
# (its tolerationSeconds): when the first one of the current key's NoExecute
# taint comes after t and says otherwise, the renamed t would come first
# and change that, so renaming is no one right repair and f gets no fix.
_rename_fix(f, pod, i, t, current) := f if {
	taint := {"key": current, "effect": "NoExecute"}
	renamed := object.union(t, {"key": current})
	tol.tolerates(renamed, taint)
	tol.hands_over_eviction(_pod_tolerations(pod), i, renamed, taint)
} else := result.with_fix(f, [result.replace(f.path, current)])

# _pod_tolerations(pod) are those the pods get: a DaemonSet's pods also carry
# the ones its controller adds (tol.daemonset_pod_tolerations).
_pod_tolerations(pod) := tol.daemonset_pod_tolerations(pod.spec) if {
	pod.daemonset
} else := pod.tolerations

# _twins(t, current) are the taints of the current key that t was written
# for: those of t's effect, or every effect Kubernetes applies the key with
# when t has none. Kubernetes' own taints have no value.
_twins(t, current) := {{"key": current, "effect": e} | some e in _effects(t, current)}

_effects(t, current) := {e} if {
	e := tol.field(t, "effect")
	e != ""
} else := _applied_effects[current]

_covered(taints, tolerations) if {
	every taint in taints {
		tol.tolerated(tolerations, taint)
	}
}
