package dslint.rules["rollout-blocked_test"]

import data.dslint.rules["rollout-blocked"] as rule
import data.dslint.test.inventory as testinv

_two := testinv.indexed({"pools": [testinv.allocating(
	testinv.pool("ingress", {"pool": "ingress"}, [], ["ingress-1", "ingress-2"]),
	{"cpu": "4", "nvidia.com/gpu": "1", "pods": "58"},
)]})

_nodes(n) := testinv.indexed({"pools": [testinv.allocating(
	testinv.pool("ingress", {"pool": "ingress"}, [], [sprintf("ingress-%d", [i]) | some i in numbers.range(1, n)]),
	{"cpu": "4", "pods": "58"},
)]})

_anti := {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
	"labelSelector": {"matchLabels": {"app": "gateway"}},
	"topologyKey": "kubernetes.io/hostname",
}]}}

_deployment(replicas, strategy, spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "gateway"},
	"spec": object.union(strategy, {"replicas": replicas, "template": {
		"metadata": {"labels": {"app": "gateway"}},
		"spec": object.union({"nodeSelector": {"pool": "ingress"}, "containers": [{"name": "c", "image": "i"}]}, spec),
	}}),
}

_term_path := ["spec", "template", "spec", "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "topologyKey"]

test_anti_affinity_fills_every_node if {
	r := rule.report with input as _deployment(2, {}, {"affinity": _anti}) with data.dslint.inventory as _two
	r == {{
		"path": _term_path,
		"message": "deployment \"gateway\" has 2 replicas and required pod anti-affinity on kubernetes.io/hostname allows 2, one per node: only ingress-1 and ingress-2 are eligible: a rolling update's surge pod can never be placed, and with maxUnavailable 0 (the default 25%, rounded down) no old pod goes first, so the rollout stalls until progressDeadlineSeconds; set maxUnavailable to 1 or keep a spare node",
	}}
}

test_quiet_when_an_old_pod_goes_first_or_a_node_is_spare if {
	one := {"strategy": {"rollingUpdate": {"maxUnavailable": 1}}}
	rule.report == set() with input as _deployment(2, one, {"affinity": _anti}) with data.dslint.inventory as _two
	recreate := {"strategy": {"type": "Recreate"}}
	rule.report == set() with input as _deployment(2, recreate, {"affinity": _anti}) with data.dslint.inventory as _two
	rule.report == set() with input as _deployment(2, {}, {"affinity": _anti}) with data.dslint.inventory as _nodes(3)

	# 25% of 4 rounds down to 1.
	rule.report == set() with input as _deployment(4, {}, {"affinity": _anti}) with data.dslint.inventory as _nodes(4)
}

test_explicit_max_unavailable_zero if {
	zero := {"strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}}
	r := rule.report with input as _deployment(5, zero, {"affinity": _anti}) with data.dslint.inventory as _nodes(5)
	[f] := [f | some f in r]
	f.path == ["spec", "strategy", "rollingUpdate", "maxUnavailable"]
	contains(f.message, "with maxUnavailable 0 (as written) no old pod goes first")
}

# Old and new pods of a revision apart: the surge pod may land beside an
# old one.
test_quiet_when_revisions_do_not_repel if {
	anti := json.patch(_anti, [{"op": "add", "path": "/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/matchLabelKeys", "value": ["pod-template-hash"]}])
	rule.report == set() with input as _deployment(2, {}, {"affinity": anti}) with data.dslint.inventory as _two
}

test_every_gpu_taken if {
	gpu := {"containers": [{"name": "c", "image": "i", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}
	r := rule.report with input as _deployment(2, {}, gpu) with data.dslint.inventory as _two
	[f] := [f | some f in r]
	f.path == ["spec", "template", "spec", "containers", 0, "resources", "limits", "nvidia.com/gpu"]
	contains(f.message, "the nodes it can land on hold 2 of its pods at most")
}

_daemonset(strategy) := {
	"apiVersion": "apps/v1",
	"kind": "DaemonSet",
	"metadata": {"name": "agent"},
	"spec": object.union(strategy, {"template": {"spec": {"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 9100, "hostPort": 9100}]}]}}}),
}

test_daemonset_surge_with_host_ports if {
	surge := {"updateStrategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}}
	r := rule.report with input as _daemonset(surge) with data.dslint.inventory as _two
	r == {{
		"path": ["spec", "updateStrategy", "rollingUpdate", "maxSurge"],
		"message": "daemonset \"agent\" surges (maxSurge 1), but its pods bind host ports: the new pod can never start beside the old one on its node, so the rollout stalls; surge with maxSurge 0 and maxUnavailable 1 instead",
	}}
	rule.report == set() with input as _daemonset({}) with data.dslint.inventory as _two
}

test_quiet_without_inventory if {
	rule.report == set() with input as _deployment(2, {}, {"affinity": _anti})
}
