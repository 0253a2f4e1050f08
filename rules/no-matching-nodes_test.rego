package dslint.rules["no-matching-nodes_test"]

import data.dslint.rules["no-matching-nodes"] as rule
import data.dslint.test.inventory as testinv

_pool(name, labels, taints) := testinv.pool(name, labels, taints, [concat("-", [name, "1"])])

_inventory := testinv.indexed({"pools": [
	_pool("general", {"pool": "general"}, []),
	_pool("infra", {"pool": "infra"}, [{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]),
]})

_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "cert-manager"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}},
}

test_selector_without_toleration if {
	r := rule.report with input as _deployment({"nodeSelector": {"pool": "infra"}}) with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "template", "spec", "nodeSelector"],
		"message": "deployment \"cert-manager\" fits no node of the inventory: node selector pool=infra blocks 1 node (general); untolerated taint dedicated=infra:NoSchedule blocks 1 node (infra)",
	}}
}

test_taint_first_when_it_blocks_most if {
	inv := testinv.indexed({"pools": [_pool("a", {}, [{"key": "x", "effect": "NoExecute"}]), _pool("b", {}, [{"key": "x", "effect": "NoExecute"}])]})
	r := rule.report with input as _deployment({}) with data.dslint.inventory as inv
	r == {{
		"path": ["spec", "template", "spec", "tolerations"],
		"message": "deployment \"cert-manager\" fits no node of the inventory: untolerated taint x:NoExecute blocks 2 nodes (a, b)",
	}}
}

test_fits_somewhere if {
	w := _deployment({"nodeSelector": {"pool": "infra"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
	rule.report == set() with input as w with data.dslint.inventory as _inventory
}

test_silent_without_inventory if {
	rule.report == set() with input as _deployment({"nodeSelector": {"pool": "nowhere"}})
}

test_silent_for_non_workloads if {
	rule.report == set() with input as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}} with data.dslint.inventory as _inventory
}

# --- custom resources: each pod is placed on its own ------------------------------

# A RayCluster's head fits the general pool; its GPU worker group selects
# the infra pool without tolerating its taint.
test_raycluster_worker_group if {
	ray := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": {"containers": [{"name": "head", "image": "ray:2.9"}]}}},
			"workerGroupSpecs": [
				{"groupName": "cpu", "template": {"spec": {"containers": [{"name": "w", "image": "ray:2.9"}]}}},
				{"groupName": "gpu", "template": {"spec": {"containers": [{"name": "w", "image": "ray:2.9"}], "nodeSelector": {"pool": "infra"}}}},
			],
		},
	}
	r := rule.report with input as ray with data.dslint.inventory as _inventory
	r == {{
		"path": ["spec", "workerGroupSpecs", 1, "template", "spec", "nodeSelector"],
		"message": "raycluster \"ray\" (spec.workerGroupSpecs[1].template.spec) fits no node of the inventory: node selector pool=infra blocks 1 node (general); untolerated taint dedicated=infra:NoSchedule blocks 1 node (infra)",
	}}
}

# A LeaderWorkerSet whose leader and workers both fit nowhere: one finding
# per pod template.
test_leaderworkerset_leader_and_workers if {
	lws := {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "vllm"},
		"spec": {"replicas": 2, "leaderWorkerTemplate": {
			"leaderTemplate": {"spec": {"containers": [{"name": "leader", "image": "vllm:0.6"}], "nodeSelector": {"pool": "tpu"}}},
			"workerTemplate": {"spec": {"containers": [{"name": "worker", "image": "vllm:0.6"}], "nodeName": "gpu-7"}},
		}},
	}
	r := rule.report with input as lws with data.dslint.inventory as _inventory
	r == {
		{
			"path": ["spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "nodeSelector"],
			"message": "leaderworkerset \"vllm\" (spec.leaderWorkerTemplate.leaderTemplate.spec) fits no node of the inventory: node selector pool=tpu blocks 2 nodes (general, infra)",
		},
		{
			"path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "nodeName"],
			"message": "leaderworkerset \"vllm\" (spec.leaderWorkerTemplate.workerTemplate.spec) fits no node of the inventory: the pod names node \"gpu-7\" blocks 2 nodes (general, infra)",
		},
	}
}
