package dslint.rules["toleration-without-node-selector_test"]

import data.dslint.rules["toleration-without-node-selector"] as rule
import data.dslint.test.inventory as testinv

_gpu := {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}

_dedicated := {"key": "dedicated", "operator": "Equal", "value": "ml", "effect": "NoSchedule"}

# _deployment(spec) is a Deployment whose pod spec is spec plus a container.
_deployment(spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "trainer", "namespace": "ml"},
	"spec": {
		"selector": {"matchLabels": {"app": "trainer"}},
		"template": {
			"metadata": {"labels": {"app": "trainer"}},
			"spec": object.union({"containers": [{"name": "main", "image": "trainer:1.0"}]}, spec),
		},
	},
}

_daemonset(spec) := object.union(_deployment(spec), {"kind": "DaemonSet", "metadata": {"name": "gpu-exporter"}})

_tpl_path(i) := ["spec", "template", "spec", "tolerations", i]

_required(terms) := {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}

_in(key, values) := {"key": key, "operator": "In", "values": values}

_none := "has no node constraint"

_generic := "its node constraint does not keep it on a pool (it selects by generic labels such as OS, architecture or zone, or one required term does)"

# _message(workload, taint, why) is the message for a workload that
# tolerates a dedicated taint without a constraint that pins it (why).
_message(workload, taint, why) := sprintf("%s tolerates the dedicated taint %q but %s: its pods can land on every other node too; add a nodeSelector or required node affinity for the dedicated nodes", [workload, taint, why])

# _trainer(i, taint, why) is the finding for toleration i of the Deployment.
_trainer(i, taint, why) := {"path": _tpl_path(i), "message": _message("deployment \"trainer\"", taint, why)}

_gpu_taint := "nvidia.com/gpu:NoSchedule"

_silent(obj) if rule.report == set() with input as obj

# --- fires ------------------------------------------------------------------------

test_keyed_exists_toleration_without_constraint if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": "deployment \"trainer\" tolerates the dedicated taint \"nvidia.com/gpu:NoSchedule\" but has no node constraint: its pods can land on every other node too; add a nodeSelector or required node affinity for the dedicated nodes",
	}} with input as _deployment({"tolerations": [_gpu]})
}

test_keyed_equal_toleration_shows_value if {
	rule.report == {_trainer(0, "dedicated=ml:NoSchedule", _none)} with input as _deployment({"tolerations": [_dedicated]})
}

test_key_only_toleration_without_operator_or_effect if {
	rule.report == {_trainer(0, "dedicated=ml", _none)} with input as _deployment({"tolerations": [{"key": "dedicated", "value": "ml"}]})
}

test_noexecute_dedicated_toleration if {
	rule.report == {_trainer(0, "dedicated:NoExecute", _none)} with input as _deployment({"tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}]})
}

test_empty_node_selector_is_no_constraint if {
	rule.report == {_trainer(0, _gpu_taint, _none)} with input as _deployment({"nodeSelector": {}, "tolerations": [_gpu]})
}

test_only_dedicated_tolerations_are_reported if {
	rule.report == {_trainer(1, _gpu_taint, _none), _trainer(3, "dedicated=ml:NoSchedule", _none)} with input as _deployment({"tolerations": [
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30},
		_gpu,
		{"operator": "Exists", "effect": "NoSchedule"},
		_dedicated,
	]})
}

# --- generic-only constraints do not pin ---------------------------------------------

test_node_selector_on_os_only if {
	rule.report == {_trainer(0, _gpu_taint, _generic)} with input as _deployment({"nodeSelector": {"kubernetes.io/os": "linux"}, "tolerations": [_gpu]})
}

test_node_selector_on_zone_only if {
	rule.report == {_trainer(0, _gpu_taint, _generic)} with input as _deployment({"nodeSelector": {"topology.kubernetes.io/zone": "eu-west-1a"}, "tolerations": [_gpu]})
}

test_node_selector_on_instance_type_and_arch if {
	rule.report == {_trainer(0, _gpu_taint, _generic)} with input as _deployment({
		"nodeSelector": {"node.kubernetes.io/instance-type": "p4d.24xlarge", "kubernetes.io/arch": "amd64"},
		"tolerations": [_gpu],
	})
}

test_required_affinity_on_generic_labels_only if {
	rule.report == {_trainer(0, _gpu_taint, _generic)} with input as _deployment({
		"affinity": _required([{"matchExpressions": [_in("topology.kubernetes.io/zone", ["a", "b"]), _in("kubernetes.io/os", ["linux"])]}]),
		"tolerations": [_gpu],
	})
}

# Terms are ORed: one generic-only term lets pods onto every node.
test_required_affinity_with_one_generic_only_term if {
	rule.report == {_trainer(0, _gpu_taint, _generic)} with input as _deployment({
		"affinity": _required([
			{"matchExpressions": [_in("nvidia.com/gpu.present", ["true"])]},
			{"matchExpressions": [_in("kubernetes.io/os", ["linux"])]},
		]),
		"tolerations": [_gpu],
	})
}

# NotIn / DoesNotExist keep pods off some nodes, not on the dedicated ones.
test_required_affinity_with_exclusions_only if {
	rule.report == {_trainer(0, _gpu_taint, _generic)} with input as _deployment({
		"affinity": _required([{"matchExpressions": [
			{"key": "pool", "operator": "NotIn", "values": ["batch"]},
			{"key": "spot", "operator": "DoesNotExist"},
		]}]),
		"tolerations": [_gpu],
	})
}

# --- silent -------------------------------------------------------------------------

test_node_selector_on_pool_label if {
	_silent(_deployment({"nodeSelector": {"nvidia.com/gpu.present": "true"}, "tolerations": [_gpu]}))
}

test_node_selector_mixing_generic_and_pool_labels if {
	_silent(_deployment({"nodeSelector": {"kubernetes.io/os": "linux", "pool": "ml"}, "tolerations": [_dedicated]}))
}

test_node_name if {
	_silent(_deployment({"nodeName": "gpu-node-1", "tolerations": [_gpu]}))
}

test_required_affinity_every_term_pins if {
	_silent(_deployment({
		"affinity": _required([
			{"matchExpressions": [_in("nvidia.com/gpu.product", ["A100"])]},
			{"matchExpressions": [{"key": "dedicated", "operator": "Exists"}]},
			{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["gpu-node-9"]}]},
		]),
		"tolerations": [_gpu],
	}))
}

test_required_term_with_generic_and_pool_requirements_pins if {
	_silent(_deployment({
		"affinity": _required([{"matchExpressions": [_in("kubernetes.io/os", ["linux"]), _in("dedicated", ["ml"])]}]),
		"tolerations": [_dedicated],
	}))
}

test_generic_node_selector_with_pinning_affinity if {
	_silent(_deployment({
		"nodeSelector": {"kubernetes.io/os": "linux"},
		"affinity": _required([{"matchExpressions": [_in("dedicated", ["ml"])]}]),
		"tolerations": [_dedicated],
	}))
}

test_system_taints_are_not_dedicated if {
	_silent(_deployment({"tolerations": [
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
		{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
		{"key": "node-role.kubernetes.io/master", "effect": "NoSchedule"},
		{"key": "node.cloudprovider.kubernetes.io/uninitialized", "value": "true", "effect": "NoSchedule"},
		{"key": "node.kubernetes.io/out-of-service", "operator": "Exists", "effect": "NoExecute"},
	]}))
}

test_custom_system_taints_from_config if {
	rule.report == set() with input as _deployment({"tolerations": [
		{"key": "example.com/maintenance", "operator": "Exists"},
		{"key": "dedicated", "operator": "Exists"},
	]})
		with data.dslint.config as {"systemTaints": ["example.com/", "dedicated"]}
}

# An entry without a trailing "/" is an exact key, not a prefix; the
# configured list replaces the default one.
test_custom_system_taints_replace_the_defaults if {
	r := rule.report with input as _deployment({"tolerations": [
		{"key": "dedicated-gpu", "operator": "Exists"},
		{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
		{"key": "example.com/maintenance", "operator": "Exists"},
	]})
		with data.dslint.config as {"systemTaints": ["example.com/", "dedicated"]}
	r == {_trainer(0, "dedicated-gpu", _none), _trainer(1, "node.kubernetes.io/not-ready:NoExecute", _none)}
}

test_prefernoschedule_is_not_reported if {
	_silent(_deployment({"tolerations": [{"key": "spot", "operator": "Exists", "effect": "PreferNoSchedule"}]}))
}

test_wildcard_is_not_reported_here if {
	_silent(_deployment({"tolerations": [{"operator": "Exists"}]}))
	_silent(_deployment({"tolerations": [{"key": "", "operator": "Exists", "effect": "NoSchedule"}]}))
}

# Tolerations that match nothing are invalid-toleration's business.
test_unmatchable_operators_are_not_reported if {
	_silent(_deployment({"tolerations": [{"key": "dedicated", "operator": "exists"}]}))
	_silent(_deployment({"tolerations": [{"key": "sla", "operator": "Gt", "value": "5"}]}))
}

test_no_tolerations if {
	_silent(_deployment({}))
}

# --- DaemonSets and kinds -----------------------------------------------------------------

test_daemonset_is_info if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _message("daemonset \"gpu-exporter\"", _gpu_taint, _none),
		"severity": "info",
	}} with input as _daemonset({"tolerations": [_gpu]})
}

test_daemonset_with_pool_selector_is_silent if {
	_silent(_daemonset({"nodeSelector": {"nvidia.com/gpu.present": "true"}, "tolerations": [_gpu]}))
}

test_pod if {
	rule.report == {{
		"path": ["spec", "tolerations", 0],
		"message": _message("pod \"notebook\"", "dedicated=ml:NoSchedule", _none),
	}} with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "notebook"},
		"spec": {"containers": [{"name": "nb", "image": "jupyter"}], "tolerations": [_dedicated]},
	}
}

test_cronjob_path if {
	rule.report == {{
		"path": ["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0],
		"message": _message("cronjob \"retrain\"", _gpu_taint, _none),
	}} with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "retrain"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}], "tolerations": [_gpu]}}}}},
	}
}

test_podtemplate_path if {
	rule.report == {{
		"path": ["template", "spec", "tolerations", 0],
		"message": _message("podtemplate \"gpu-template\"", _gpu_taint, _none),
	}} with input as {
		"apiVersion": "v1",
		"kind": "PodTemplate",
		"metadata": {"name": "gpu-template"},
		"template": {"spec": {"containers": [{"name": "c", "image": "i"}], "tolerations": [_gpu]}},
	}
}

test_custom_resource_is_not_checked if {
	_silent(object.union(_deployment({"tolerations": [_gpu]}), {"apiVersion": "example.com/v1"}))
}

# A key that is absent, null or empty is no dedicated taint; an operator or
# effect that is null is absent (Equal, every effect).
test_null_fields if {
	_silent(_deployment({"tolerations": [
		{"key": null, "operator": "Exists"},
		{"key": "", "operator": "Exists"},
		"nvidia.com/gpu",
	]}))
	rule.report == {_trainer(0, "dedicated=ml", _none)} with input as _deployment({"tolerations": [{"key": "dedicated", "operator": null, "value": "ml", "effect": null}]})
}

# An entry that contains "/" without ending in it is still an exact key.
test_custom_exact_system_taint_with_a_slash if {
	r := rule.report with input as _deployment({"tolerations": [
		{"key": "example.com/maintenance", "operator": "Exists"},
		{"key": "example.com/maintenance-window", "operator": "Exists"},
	]})
		with data.dslint.config as {"systemTaints": ["example.com/maintenance"]}
	r == {_trainer(1, "example.com/maintenance-window", _none)}
}

# CriticalAddonsOnly grants cluster add-ons access to nodes reserved for
# them; it does not dedicate a pool, so it is a system taint by default.
test_critical_addons_only_is_not_dedicated if {
	_silent(_deployment({"tolerations": [{"key": "CriticalAddonsOnly", "operator": "Exists"}]}))
}

test_system_taint_entries_are_exact_or_prefixes if {
	rule.report == {_trainer(0, "CriticalAddonsOnlyX", _none)} with input as _deployment({"tolerations": [{"key": "CriticalAddonsOnlyX", "operator": "Exists"}]})
	rule.report == {_trainer(0, "node.kubernetes.iox/a", _none)} with input as _deployment({"tolerations": [{"key": "node.kubernetes.iox/a", "operator": "Exists"}]})
	_silent(_deployment({"tolerations": [{"key": "node.kubernetes.io/anything", "operator": "Exists"}]}))
}

_cluster := testinv.indexed({"pools": [
	testinv.pool("gpu", {"pool": "gpu"}, [{"key": "nvidia.com/gpu", "effect": "NoSchedule"}], ["gpu-1", "gpu-2"]),
	testinv.pool("general", {"pool": "general"}, [], ["g-1", "g-2", "g-3"]),
]})

_job(spec) := {
	"apiVersion": "batch/v1",
	"kind": "Job",
	"metadata": {"name": "train"},
	"spec": {"template": {"spec": object.union({"containers": [{"name": "t", "image": "t"}]}, spec)}},
}

_gpu_toleration := {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}

# _train is the finding for the Job's GPU toleration without an inventory.
_train := {"path": ["spec", "template", "spec", "tolerations", 0], "message": _message("job \"train\"", _gpu_taint, _none)}

test_inventory_spill_onto_untainted_pool if {
	r := rule.report with input as _job({"tolerations": [_gpu_toleration]}) with data.dslint.inventory as _cluster
	r == {{
		"path": ["spec", "template", "spec", "tolerations", 0],
		"message": "job \"train\" tolerates the dedicated taint \"nvidia.com/gpu:NoSchedule\" but can land on 3 nodes that carry none of the dedicated taints it tolerates (general): its pods spill onto them; add a nodeSelector or required node affinity for the dedicated nodes",
	}}
}

test_inventory_pinned_does_not_fire if {
	w := _job({"nodeSelector": {"pool": "gpu"}, "tolerations": [_gpu_toleration]})
	rule.report == set() with input as w with data.dslint.inventory as _cluster
}

test_inventory_shared_label_selector_fires_where_static_does_not if {
	# a nodeSelector on a label both pools share pins nothing
	inv := testinv.indexed({"pools": [
		testinv.pool("gpu", {"pool": "gpu", "team": "ml"}, [{"key": "nvidia.com/gpu", "effect": "NoSchedule"}], ["gpu-1"]),
		testinv.pool("general", {"pool": "general", "team": "ml"}, [], ["g-1"]),
	]})
	w := _job({"nodeSelector": {"team": "ml"}, "tolerations": [_gpu_toleration]})
	_silent(w)
	rule.report == {{
		"path": ["spec", "template", "spec", "tolerations", 0],
		"message": "job \"train\" tolerates the dedicated taint \"nvidia.com/gpu:NoSchedule\" but can land on 1 nodes that carry none of the dedicated taints it tolerates (general): its pods spill onto them; add a nodeSelector or required node affinity for the dedicated nodes",
	}} with input as w with data.dslint.inventory as inv
}

# A request or limit of an extended resource keeps the pods on the nodes
# that advertise it: tolerating the resource's taint is the standard pattern
# (ExtendedResourceToleration adds exactly that), with or without an
# inventory. cpu, memory and a zero quantity pin nothing.
test_extended_resource_pins_the_pods if {
	gpu := {"containers": [{"name": "t", "image": "t", "resources": {"limits": {"nvidia.com/gpu": 1}}}], "tolerations": [_gpu_toleration]}
	_silent(_job(gpu))
	rule.report == set() with input as _job(gpu) with data.dslint.inventory as _cluster
	init := {"initContainers": [{"name": "i", "image": "i", "resources": {"requests": {"example.com/fpga": "1"}}}], "tolerations": [_gpu_toleration]}
	_silent(_job(init))
	cpu := {"containers": [{"name": "t", "image": "t", "resources": {"limits": {"cpu": "2", "memory": "1Gi", "ephemeral-storage": "1Gi"}}}], "tolerations": [_gpu_toleration]}
	rule.report == {_train} with input as _job(cpu)
	zero := {"containers": [{"name": "t", "image": "t", "resources": {"limits": {"nvidia.com/gpu": "0"}}}], "tolerations": [_gpu_toleration]}
	rule.report == {_train} with input as _job(zero)
}

# Preferring nodes without the pool's label while tolerating its taint makes
# the pool a last resort on purpose.
test_preferred_away_from_the_pool_is_silent if {
	away := {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {"matchExpressions": [{"key": "nvidia.com/gpu", "operator": "DoesNotExist"}]}}]}}, "tolerations": [_gpu_toleration]}
	_silent(_job(away))
	rule.report == set() with input as _job(away) with data.dslint.inventory as _cluster
	toward := json.patch(away, [{"op": "replace", "path": "/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution/0/preference/matchExpressions/0/operator", "value": "Exists"}])
	rule.report == {_train} with input as _job(toward)
}

# A device plugin tolerates its devices' taint and runs on every node to
# find them: a kubelet plugin, known good.
test_kubelet_plugin_is_silent if {
	plugin := {
		"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "gpu-device-plugin"},
		"spec": {"template": {"spec": {
			"containers": [{"name": "p", "image": "p"}],
			"tolerations": [_gpu_toleration],
			"volumes": [{"name": "dp", "hostPath": {"path": "/var/lib/kubelet/device-plugins"}}],
		}}},
	}
	_silent(plugin)
	rule.report == {{
		"path": ["spec", "template", "spec", "tolerations", 0],
		"message": _message("daemonset \"gpu-device-plugin\"", _gpu_taint, _none),
		"severity": "info",
	}} with input as json.patch(plugin, [{"op": "remove", "path": "/spec/template/spec/volumes"}])
}

# --- custom resources -----------------------------------------------------------------

_worker(spec) := object.union({"containers": [{"name": "w", "image": "trainer:1"}]}, spec)

# Each pod template is judged on its own: the master is pinned by its
# nodeSelector, the worker is not; the message names the template.
test_pytorchjob_replica_specs if {
	rule.report == {{
		"path": ["spec", "pytorchReplicaSpecs", "Worker", "template", "spec", "tolerations", 0],
		"message": _message("pytorchjob \"train\" (spec.pytorchReplicaSpecs.Worker.template.spec)", _gpu_taint, _none),
	}} with input as {
		"apiVersion": "kubeflow.org/v1",
		"kind": "PyTorchJob",
		"metadata": {"name": "train"},
		"spec": {"pytorchReplicaSpecs": {
			"Master": {"replicas": 1, "template": {"spec": _worker({"nodeSelector": {"pool": "gpu"}, "tolerations": [_gpu]})}},
			"Worker": {"replicas": 8, "template": {"spec": _worker({"tolerations": [_gpu]})}},
		}},
	}
}

test_raycluster_worker_group if {
	rule.report == {{
		"path": ["spec", "workerGroupSpecs", 1, "template", "spec", "tolerations", 1],
		"message": _message("raycluster \"ray\" (spec.workerGroupSpecs[1].template.spec)", "dedicated=ml:NoSchedule", _generic),
	}} with input as {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": _worker({})}},
			"workerGroupSpecs": [
				{"replicas": 2, "template": {"spec": _worker({"nodeSelector": {"dedicated": "ml"}, "tolerations": [_dedicated]})}},
				{"replicas": 2, "template": {"spec": _worker({
					"nodeSelector": {"kubernetes.io/arch": "amd64"},
					"tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists"}, _dedicated],
				})}},
			],
		},
	}
}

test_jobset_replicated_job if {
	rule.report == {{
		"path": ["spec", "replicatedJobs", 0, "template", "spec", "template", "spec", "tolerations", 0],
		"message": _message("jobset \"js\" (spec.replicatedJobs[0].template.spec.template.spec)", "google.com/tpu:NoSchedule", _none),
	}} with input as {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "js"},
		"spec": {"replicatedJobs": [{"name": "workers", "replicas": 2, "template": {"spec": {"template": {"spec": _worker({
			"tolerations": [{"key": "google.com/tpu", "operator": "Exists", "effect": "NoSchedule"}],
		})}}}}]},
	}
}

# Each pod template is placed on its own: the RayCluster's head is pinned to
# the GPU pool, its worker group is not and spills.
test_inventory_places_each_pod_template if {
	ray := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": {"nodeSelector": {"pool": "gpu"}, "tolerations": [_gpu_toleration], "containers": [{"name": "h", "image": "h"}]}}},
			"workerGroupSpecs": [{"groupName": "w", "template": {"spec": {"tolerations": [_gpu_toleration], "containers": [{"name": "w", "image": "w"}]}}}],
		},
	}
	rule.report == {{
		"path": ["spec", "workerGroupSpecs", 0, "template", "spec", "tolerations", 0],
		"message": "raycluster \"ray\" (spec.workerGroupSpecs[0].template.spec) tolerates the dedicated taint \"nvidia.com/gpu:NoSchedule\" but can land on 3 nodes that carry none of the dedicated taints it tolerates (general): its pods spill onto them; add a nodeSelector or required node affinity for the dedicated nodes",
	}} with input as ray with data.dslint.inventory as _cluster
}

# --- declared pools (pools: in .dslint.yaml), no inventory --------------------------

_declared := {"pools": [{
	"name": "gpu",
	"labels": {"pool": "gpu"},
	"taints": [{"key": "dedicated", "value": "ml", "effect": "NoSchedule"}],
	"owners": {"namespaces": ["ml"]},
}]}

test_declared_pool_names_the_selector_to_add if {
	r := rule.report with input as _deployment({"tolerations": [_dedicated]}) with data.dslint.config as _declared
	r == {{
		"path": _tpl_path(0),
		"message": "deployment \"trainer\" tolerates the taint \"dedicated=ml:NoSchedule\" of pool \"gpu\" but does not select its nodes: its pods can land on every other node too; add nodeSelector {pool: \"gpu\"}",
	}}
}

test_declared_pool_kept_by_its_label if {
	count(rule.report) == 0 with input as _deployment({"tolerations": [_dedicated], "nodeSelector": {"pool": "gpu"}}) with data.dslint.config as _declared
	spec := {"tolerations": [_dedicated], "affinity": _required([{"matchExpressions": [_in("pool", ["gpu"])]}])}
	count(rule.report) == 0 with input as _deployment(spec) with data.dslint.config as _declared
}

test_declared_pool_other_term_spills if {
	spec := {"tolerations": [_dedicated], "affinity": _required([
		{"matchExpressions": [_in("pool", ["gpu"])]},
		{"matchExpressions": [_in("topology.kubernetes.io/zone", ["a"])]},
	])}
	count(rule.report) == 1 with input as _deployment(spec) with data.dslint.config as _declared
}

test_declared_pool_outsiders_are_pool_ownerships if {
	obj := json.patch(_deployment({"tolerations": [_dedicated]}), [{"op": "replace", "path": "/metadata/namespace", "value": "web"}])
	count(rule.report) == 0 with input as obj with data.dslint.config as _declared
}

test_declared_pool_toleration_not_judged_by_the_heuristic if {
	# The toleration's taint is the pool's, and its pods are kept there by
	# an extended resource: quiet, as without a declaration.
	spec := {"tolerations": [_dedicated], "containers": [{"name": "m", "image": "m", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}
	count(rule.report) == 0 with input as _deployment(spec) with data.dslint.config as _declared
}
