# METADATA
# description: |
#   Run settings from .dslint.yaml and flags, with the defaults that apply
#   when a rule is evaluated on its own (in Rego unit tests, for example).
#   dslint puts the run's settings at data.dslint.config.
package dslint.lib.settings

# system_taints are the taint keys (exact, or prefixes ending in "/") that
# belong to Kubernetes itself rather than to a dedicated pool.
# node.alpha.kubernetes.io/ is the prefix of taints Kubernetes applied
# before 1.9 (obsolete-toleration reports tolerations of them).
# CriticalAddonsOnly is not Kubernetes' own, but it is the well-known taint
# that lets cluster add-ons onto nodes reserved for them: tolerating it grants
# access, it does not dedicate a pool (see docs/corpus-review.md). The cluster
# autoscaler's and Karpenter's taints mark a node's lifecycle (being drained,
# not yet registered): node agents tolerate them to keep running, which
# dedicates them to nothing.
default system_taints := [
	"node.kubernetes.io/",
	"node-role.kubernetes.io/",
	"node.cloudprovider.kubernetes.io/",
	"node.kubernetes.io/out-of-service",
	"node.alpha.kubernetes.io/",
	"CriticalAddonsOnly",
	"ToBeDeletedByClusterAutoscaler",
	"DeletionCandidateOfClusterAutoscaler",
	"karpenter.sh/",
]

system_taints := data.dslint.config.systemTaints

# comparison_operators mirrors the TaintTolerationComparisonOperators feature
# gate (alpha and off by default through Kubernetes 1.36): with it off, Lt and
# Gt tolerations are rejected by the API server and match no taint.
default comparison_operators := false

comparison_operators := data.dslint.config.featureGates.TaintTolerationComparisonOperators

# kubernetes_minor is the minor version of the target Kubernetes release
# (kubernetesVersion "1.X"): rules that depend on what a release applies,
# such as the control-plane taints kubeadm puts on nodes, read it.
default kubernetes_minor := 36

kubernetes_minor := to_number(split(data.dslint.config.kubernetesVersion, ".")[1])

# is_system_taint is true for a taint key Kubernetes itself applies: one of
# the exact keys, or a key under one of the prefixes.
is_system_taint(key) if key in system_taints

is_system_taint(key) if strings.any_prefix_match(key, _system_prefixes)

_system_prefixes := [entry | some entry in system_taints; endswith(entry, "/")]
