# Workloads outside a declared pool's owners that can use its nodes.
package dslint.rules["pool-ownership_test"]

import data.dslint.rules["pool-ownership"] as rule

_gpu := {
	"name": "gpu",
	"labels": {"pool": "gpu"},
	"taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}],
	"owners": {"namespaces": ["ml", "ml-*"]},
}

_edge := {
	"name": "edge",
	"labels": {"pool": "edge"},
	"taints": [{"key": "edge", "effect": "NoSchedule"}, {"key": "edge", "effect": "PreferNoSchedule"}],
	"owners": {"selector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["edge"]}]}},
}

_config := {"pools": [_gpu, _edge]}

_deploy(ns, spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "api", "namespace": ns},
	"spec": {
		"selector": {"matchLabels": {"app": "api"}},
		"template": {
			"metadata": {"labels": {"app": "api"}},
			"spec": object.union({"containers": [{"name": "api", "image": "api:1"}]}, spec),
		},
	},
}

_tolerate_gpu := {"tolerations": [{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]}

test_outsider_that_tolerates_and_can_land if {
	findings := rule.report with input as _deploy("web", _tolerate_gpu) with data.dslint.config as _config
	[f] := [f | some f in findings]
	f.path == ["spec", "template", "spec", "tolerations", 0]
	f.message == `deployment "api" tolerates the taint "dedicated=gpu:NoSchedule" of pool "gpu" and can land on its nodes, but its namespace "web" is not among the pool's owners; only namespaces ml, ml-* may use them: remove the toleration, or add the workload to the pool's owners in .dslint.yaml`
}

test_outsider_that_asks if {
	findings := rule.report with input as _deploy("web", {"nodeSelector": {"pool": "gpu"}}) with data.dslint.config as _config
	[f] := [f | some f in findings]
	f.path == ["spec", "template", "spec", "nodeSelector", "pool"]
	contains(f.message, `asks for the nodes of pool "gpu" (nodeSelector pool=gpu), but its namespace "web" is not among the pool's owners`)
}

test_asking_by_affinity_points_at_the_requirement if {
	spec := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
		{"matchExpressions": [{"key": "pool", "operator": "NotIn", "values": ["gpu"]}]},
		{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}, {"key": "pool", "operator": "In", "values": ["gpu"]}]},
	]}}}}
	findings := rule.report with input as _deploy("web", spec) with data.dslint.config as _config
	[f] := [f | some f in findings]
	f.path == ["spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 1, "matchExpressions", 1, "key"]
	contains(f.message, "(required node affinity on pool)")
}

test_owners_by_glob if {
	findings := rule.report with input as _deploy("ml", _tolerate_gpu) with data.dslint.config as _config
	count(findings) == 0
	findings2 := rule.report with input as _deploy("ml-research", _tolerate_gpu) with data.dslint.config as _config
	count(findings2) == 0
	findings3 := rule.report with input as _deploy("ml2", _tolerate_gpu) with data.dslint.config as _config
	count(findings3) == 1
	findings4 := rule.report with input as _deploy("xml", _tolerate_gpu) with data.dslint.config as _config
	count(findings4) == 1
}

test_owners_by_pod_labels if {
	spec := {"tolerations": [{"key": "edge", "operator": "Exists"}]}
	findings := rule.report with input as _deploy("ml", spec) with data.dslint.config as _config
	[f] := [f | some f in findings]
	contains(f.message, "its pod labels do not match the owners' selector; only pods labelled tier In [\"edge\"] may use them")
	edge := json.patch(_deploy("ml", spec), [{"op": "add", "path": "/spec/template/metadata/labels/tier", "value": "edge"}])
	findings2 := rule.report with input as edge with data.dslint.config as _config
	count(findings2) == 0
}

test_preferred_taints_keep_no_one_off if {
	# The edge pool's PreferNoSchedule taint needs no toleration.
	spec := {"tolerations": [{"key": "edge", "operator": "Exists", "effect": "NoSchedule"}]}
	findings := rule.report with input as _deploy("ml", spec) with data.dslint.config as _config
	count(findings) == 1
}

test_quiet_without_namespace if {
	obj := json.remove(_deploy("web", _tolerate_gpu), ["metadata/namespace"])
	findings := rule.report with input as obj with data.dslint.config as _config
	count(findings) == 0
}

test_quiet_for_daemonsets_and_named_nodes if {
	ds := object.union(_deploy("web", {"tolerations": [{"operator": "Exists"}]}), {"kind": "DaemonSet"})
	findings := rule.report with input as ds with data.dslint.config as _config
	count(findings) == 0
	findings2 := rule.report with input as _deploy("web", object.union(_tolerate_gpu, {"nodeName": "gpu-1"})) with data.dslint.config as _config
	count(findings2) == 0
}

test_quiet_when_the_constraint_excludes_the_pool if {
	findings := rule.report with input as _deploy("web", object.union(_tolerate_gpu, {"nodeSelector": {"pool": "cpu"}})) with data.dslint.config as _config
	count(findings) == 0
	spec := object.union(_tolerate_gpu, {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": "DoesNotExist"}]}]}}}})
	findings2 := rule.report with input as _deploy("web", spec) with data.dslint.config as _config
	count(findings2) == 0
}

test_constraint_on_other_labels_is_taken_to_be_met if {
	spec := object.union(_tolerate_gpu, {"nodeSelector": {"kubernetes.io/arch": "arm64"}})
	findings := rule.report with input as _deploy("web", spec) with data.dslint.config as _config
	count(findings) == 1
}

test_exists_asks_for_every_pool_with_the_key if {
	spec := {"nodeSelector": {"x": "y"}, "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": "Exists"}]}]}}}}
	findings := rule.report with input as _deploy("web", spec) with data.dslint.config as _config
	count(findings) == 2
}

test_wildcard_lands_on_every_pool_it_may if {
	findings := rule.report with input as _deploy("web", {"tolerations": [{"operator": "Exists"}]}) with data.dslint.config as _config
	count(findings) == 2
}

test_quiet_without_owners if {
	obj := _deploy("web", _tolerate_gpu)
	count(rule.report) == 0 with input as obj with data.dslint.config as {"pools": [object.remove(_gpu, ["owners"])]}
	count(rule.report) == 0 with input as obj
}
