# METADATA
# title: Toleration of every taint
# description: |
#   A toleration with operator "Exists" and no key tolerates every taint: the
#   pods can land on every dedicated pool (GPU, ingress, control plane) and
#   ignore any taint added later. With no effect, or effect NoExecute, it
#   also tolerates the not-ready and unreachable NoExecute taints forever, so
#   the pods are never evicted from failed nodes. Node agents and CNI plugins
#   that must run everywhere do this on purpose, so for DaemonSets the rule
#   only informs.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
#     description: Taints and Tolerations
# custom:
#   severity: warning
#   remediation: |
#     Name the taint key the workload is meant to tolerate (and its effect).
#     If it really must run on every node, make it a DaemonSet.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: web
#     spec:
#       selector: {matchLabels: {app: web}}
#       template:
#         metadata: {labels: {app: web}}
#         spec:
#           containers: [{name: web, image: nginx:1.27}]
#           tolerations:
#             - operator: Exists
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: web
#     spec:
#       selector: {matchLabels: {app: web}}
#       template:
#         metadata: {labels: {app: web}}
#         spec:
#           containers: [{name: web, image: nginx:1.27}]
#           nodeSelector: {pool: web}
#           tolerations:
#             - key: pool
#               operator: Equal
#               value: web
#               effect: NoSchedule
package dslint.rules["wildcard-toleration"]

import data.dslint.lib.k8s
import data.dslint.lib.result
import data.dslint.lib.tolerations as tol

# Many objects have no tolerations: each body below reads them where one kind
# of workload keeps its pod spec (a Pod, a PodTemplate, a CronJob, the other
# kinds: k8s.pod_spec_path), so that OPA's rule index skips the rule for them
# without evaluating anything; k8s.tolerations then reads them from the pod
# spec. Fields are read directly, most selective first: t.operator is
# undefined unless t is a mapping, and a key that is absent, null or "" is
# what tol.field reads as "".
report contains result.info_for_daemonsets(result.fail(k8s.toleration_path(i), _message(t))) if {
	_ = input.spec.tolerations
	some i, t in k8s.tolerations
	t.operator == "Exists"
	object.get(t, "key", "") in {"", null}
}

report contains result.info_for_daemonsets(result.fail(k8s.toleration_path(i), _message(t))) if {
	_ = input.template.spec.tolerations
	some i, t in k8s.tolerations
	t.operator == "Exists"
	object.get(t, "key", "") in {"", null}
}

report contains result.info_for_daemonsets(result.fail(k8s.toleration_path(i), _message(t))) if {
	_ = input.spec.jobTemplate.spec.template.spec.tolerations
	some i, t in k8s.tolerations
	t.operator == "Exists"
	object.get(t, "key", "") in {"", null}
}

report contains result.info_for_daemonsets(result.fail(k8s.toleration_path(i), _message(t))) if {
	_ = input.spec.template.spec.tolerations
	some i, t in k8s.tolerations
	t.operator == "Exists"
	object.get(t, "key", "") in {"", null}
}

_message(t) := sprintf("toleration with operator \"Exists\" and no key tolerates every taint%s: %s %q can land on any node, dedicated pools and control plane included", [
	_eviction_note(tol.field(t, "effect"), _has_seconds(t)),
	k8s.kind_label,
	k8s.name,
])

# With no effect or NoExecute, the toleration also covers the not-ready and
# unreachable NoExecute taints, forever unless tolerationSeconds is set.
_eviction_note("", false) := " of every effect, and is never evicted from not-ready or unreachable nodes"

_eviction_note("", true) := " of every effect"

_eviction_note("NoExecute", false) := " with effect NoExecute, and is never evicted from not-ready or unreachable nodes"

_eviction_note("NoExecute", true) := " with effect NoExecute"

_eviction_note(effect, _) := sprintf(" with effect %s", [effect]) if not effect in {"", "NoExecute"}

_has_seconds(t) if t.tolerationSeconds != null

default _has_seconds(_) := false
