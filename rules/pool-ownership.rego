# METADATA
# title: Workload outside a declared pool's owners that can use its nodes
# description: |
#   A dedicated pool has two locks: a taint keeps other pods off its nodes
#   and a label lets the pods meant for it select them. Neither says whose
#   pods those are: any workload that copies the toleration from a
#   neighbour's manifest, or a wildcard toleration, lands on the GPU nodes
#   and takes the capacity the pool was bought for, and nothing reports it.
#   A pool's owners in .dslint.yaml (pools: ... owners: namespaces and a
#   selector of pod labels) say whose they are. A workload outside them that
#   names the pool's label in its node constraint asks for the pool's nodes;
#   one that tolerates the pool's taints and whose node constraint admits
#   the pool's labels can land on them. dslint export-policy turns the same
#   declaration into a ValidatingAdmissionPolicy that rejects those pods at
#   admission time.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
#     description: Taints and Tolerations, dedicated nodes (a taint keeps others off, a label keeps the pods on)
#   - ref: https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/
#     description: ValidatingAdmissionPolicy, which dslint export-policy writes from the same declaration
# custom:
#   severity: error
#   needs_owners: true
#   config: |
#     pools:
#       - name: gpu
#         labels: {pool: gpu}
#         taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
#         owners: {namespaces: [ml, "ml-*"]}
#   intent: |
#     Fires, for each pool of .dslint.yaml with owners, on a workload whose
#     namespace matches none of the owners' namespace globs or whose pod
#     labels do not match the owners' selector, when its node constraint
#     names a label of the pool (a nodeSelector entry, an In or Exists
#     requirement of a required node-affinity term that admits the pool;
#     pointing there), or when it tolerates every NoSchedule and NoExecute
#     taint of the pool and its node constraint admits the pool's labels
#     (pointing at the toleration). A node constraint on labels the pool
#     does not declare is taken to be met: the pool's nodes may carry them.
#     Stays quiet for workloads without a namespace when the owners name
#     namespaces (where they run is decided when they are applied: kubectl
#     -n, Kustomize, Helm; the exported admission policy judges them there),
#     for DaemonSets (node agents serve every pool), for pods with a
#     nodeName, for pools without owners, for tolerations the API server
#     rejects, and for a pool without a NoSchedule or NoExecute taint unless
#     the workload names its label (nothing keeps others off such a pool).
#   remediation: |
#     If the workload is not meant for the pool, remove the toleration of its
#     taint (a wildcard toleration included) or the selector of its label. If
#     it is, run it in a namespace the pool's owners list, or add its
#     namespace (or labels) to the pool's owners in .dslint.yaml.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: api
#       namespace: web
#     spec:
#       selector: {matchLabels: {app: api}}
#       template:
#         metadata: {labels: {app: api}}
#         spec:
#           tolerations:
#             - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
#           containers: [{name: api, image: api:1.0}]
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: api
#       namespace: web
#     spec:
#       selector: {matchLabels: {app: api}}
#       template:
#         metadata: {labels: {app: api}}
#         spec:
#           containers: [{name: api, image: api:1.0}]
package dslint.rules["pool-ownership"]

import data.dslint.lib.k8s
import data.dslint.lib.pools
import data.dslint.lib.result
import data.dslint.lib.tolerations as tol

report contains result.fail(_path(how, pod, pool), msg) if {
	some pool in pools.owned
	some pod in k8s.pods
	how := pools.violation(pod, pool)
	msg := sprintf("%s %s, but %s; only %s may use them: remove the %s, or add the workload to the pool's owners in .dslint.yaml", [
		k8s.workload_label(pod), _what(how, pod, pool), _outside(pool), pools.owners_text(pool), _remove[how],
	])
}

_path("asks", pod, pool) := pools.asking_path(pod, pool)

_path("lands", pod, pool) := k8s.pod_path(pod, ["tolerations", pools.tolerating(pod, pool)])

_what("asks", pod, pool) := sprintf("asks for the nodes of pool %q (%s)", [pool.name, pools.asking_text(pod, pool)])

_what("lands", _, pool) := sprintf("tolerates the taint%s %s of pool %q and can land on its nodes", [_plural(pools.keep_out(pool)), _taints(pool), pool.name])

_remove := {"asks": "selector", "lands": "toleration"}

_outside(pool) := sprintf("its namespace %q is not among the pool's owners", [input.metadata.namespace]) if {
	pools.namespace_outside(pool)
} else := "its pod labels do not match the owners' selector"

_taints(pool) := concat(" and ", [sprintf("%q", [tol.string_of_taint(t)]) | some t in pools.keep_out(pool)])

_plural([_]) := ""

_plural(taints) := "s" if count(taints) > 1
