package dslint.rules["wildcard-toleration_test"]

import data.dslint.rules["wildcard-toleration"] as rule

_deployment(tols) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "web"},
	"spec": {
		"selector": {"matchLabels": {"app": "web"}},
		"template": {
			"metadata": {"labels": {"app": "web"}},
			"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}], "tolerations": tols},
		},
	},
}

_daemonset(api, tols) := {
	"apiVersion": api,
	"kind": "DaemonSet",
	"metadata": {"name": "node-agent"},
	"spec": {
		"selector": {"matchLabels": {"app": "agent"}},
		"template": {
			"metadata": {"labels": {"app": "agent"}},
			"spec": {"containers": [{"name": "agent", "image": "agent:1"}], "tolerations": tols},
		},
	},
}

_tpl_path(i) := ["spec", "template", "spec", "tolerations", i]

_every_taint(workload) := sprintf("toleration with operator \"Exists\" and no key tolerates every taint: %s can land on any node, dedicated pools and control plane included, and is never evicted from not-ready or unreachable nodes", [workload])

_every_noschedule_taint(workload) := sprintf("toleration with operator \"Exists\" and no key tolerates every taint with effect NoSchedule: %s can land on any node, dedicated pools and control plane included", [workload])

_every_noexecute_taint(workload) := sprintf("toleration with operator \"Exists\" and no key tolerates every NoExecute taint: %s is never evicted from not-ready or unreachable nodes; set tolerationSeconds, or name the taint it is meant for", [workload])

test_deployment_wildcard_is_a_warning if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_taint("deployment \"web\""),
	}} with input as _deployment([{"operator": "Exists"}])
}

test_daemonset_wildcard_is_info if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": "toleration with operator \"Exists\" and no key tolerates every taint: daemonset \"node-agent\" can land on any node, dedicated pools and control plane included",
		"severity": "info",
	}} with input as _daemonset("apps/v1", [{"operator": "Exists"}])
}

test_extensions_v1beta1_daemonset_wildcard_is_info if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_noschedule_taint("daemonset \"node-agent\""),
		"severity": "info",
	}} with input as _daemonset("extensions/v1beta1", [{"operator": "Exists", "effect": "NoSchedule"}])
}

# A NoExecute wildcard cannot pass a NoSchedule taint: the concern is
# eviction only.
test_message_with_noexecute if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_noexecute_taint("deployment \"web\""),
	}} with input as _deployment([{"operator": "Exists", "effect": "NoExecute"}])
}

test_message_with_noschedule if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_noschedule_taint("deployment \"web\""),
	}} with input as _deployment([{"operator": "Exists", "effect": "NoSchedule"}])
}

# PreferNoSchedule never blocks a pod: tolerating all of it changes nothing.
test_prefernoschedule_is_silent if {
	rule.report == set() with input as _deployment([{"operator": "Exists", "effect": "PreferNoSchedule"}])
}

# With tolerationSeconds the taint-eviction controller evicts the pod after
# that many seconds (reference §2.3): a bounded delay, nothing to report.
test_noexecute_with_toleration_seconds_is_silent if {
	rule.report == set() with input as _deployment([{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}])
}

test_noschedule_and_timed_noexecute_is_not_never_evicted if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": "toleration with operator \"Exists\" and no key tolerates every taint: deployment \"web\" can land on any node, dedicated pools and control plane included",
	}} with input as _deployment([{"operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}])
}

# The DaemonSet controller adds not-ready and unreachable tolerations to
# every DaemonSet pod: no eviction claim for a DaemonSet.
test_daemonset_message_makes_no_eviction_claim if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": "toleration with operator \"Exists\" and no key tolerates every taint: daemonset \"node-agent\" can land on any node, dedicated pools and control plane included",
		"severity": "info",
	}} with input as _daemonset("apps/v1", [{"operator": "Exists"}])
	rule.report == set() with input as _daemonset("apps/v1", [{"operator": "Exists", "effect": "NoExecute"}])
}

# A node constraint that pins the pods limits where they land.
test_pinned_workload_lands_only_where_selected if {
	d := _deployment([{"operator": "Exists", "effect": "NoSchedule"}])
	rule.report == {{
		"path": _tpl_path(0),
		"message": "toleration with operator \"Exists\" and no key tolerates every taint with effect NoSchedule: deployment \"web\" can land on any node its node constraint selects, whatever taints those nodes carry",
	}} with input as json.patch(d, [{"op": "add", "path": "/spec/template/spec/nodeSelector", "value": {"pool": "infra"}}])
}

# Network and bootstrap components (hostNetwork) must run on nodes that are
# not ready yet: the rule only informs.
test_host_network_deployment_is_info if {
	d := _deployment([{"operator": "Exists"}])
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_taint("deployment \"web\""),
		"severity": "info",
	}} with input as json.patch(d, [{"op": "add", "path": "/spec/template/spec/hostNetwork", "value": true}])
}

test_explicit_empty_key_is_a_wildcard if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_taint("deployment \"web\""),
	}} with input as _deployment([{"key": "", "operator": "Exists"}])
}

test_keyed_exists_is_not_a_wildcard if {
	rule.report == set() with input as _deployment([{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}])
	rule.report == set() with input as _deployment([{"key": "dedicated", "operator": "Exists"}])
}

# Only the exact operator "Exists" tolerates every key; the rest is
# invalid-toleration's business.
test_other_operators_without_key_are_not_wildcards if {
	rule.report == set() with input as _deployment([{"operator": "exists"}])
	rule.report == set() with input as _deployment([{"operator": "Equal"}])
	rule.report == set() with input as _deployment([{}])
	rule.report == set() with input as _deployment([{"value": "b"}])
}

test_wildcard_among_other_tolerations_has_its_index if {
	rule.report == {{
		"path": _tpl_path(1),
		"message": _every_noexecute_taint("deployment \"web\""),
	}} with input as _deployment([
		{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
		{"operator": "Exists", "effect": "NoExecute"},
	])
}

# Two wildcards are one intent: one finding, at the first, their effects
# added up.
test_two_wildcards_are_one_finding if {
	rule.report == {{
		"path": _tpl_path(0),
		"message": _every_taint("deployment \"web\""),
	}} with input as _deployment([{"operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists", "effect": "NoExecute"}])
}

# A rejected toleration is invalid-toleration's alone.
test_invalid_wildcard_is_left_to_invalid_toleration if {
	rule.report == set() with input as _deployment([{"operator": "Exists", "value": "x"}])
}

test_pod_path_and_kind if {
	rule.report == {{
		"path": ["spec", "tolerations", 0],
		"message": _every_taint("pod \"debug\""),
	}} with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "debug"},
		"spec": {"containers": [{"name": "sh", "image": "busybox"}], "tolerations": [{"operator": "Exists"}]},
	}
}

test_cronjob_path if {
	rule.report == {{
		"path": ["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0],
		"message": _every_taint("cronjob \"cleanup\""),
	}} with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "cleanup"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}], "tolerations": [{"operator": "Exists"}]}}}}},
	}
}

test_non_workload_is_not_checked if {
	rule.report == set() with input as object.union(_deployment([{"operator": "Exists"}]), {"apiVersion": "example.com/v1"})
	rule.report == set() with input as object.union(_daemonset("apps/v1", [{"operator": "Exists"}]), {"apiVersion": "example.com/v1"})
}

# --- custom resources -----------------------------------------------------------------

_spec(tols) := {"containers": [{"name": "ray", "image": "rayproject/ray:2.9"}], "tolerations": tols}

# Each pod template of a custom resource is judged on its own, and the
# message says which one: one finding per pod template with a wildcard.
test_raycluster_worker_groups if {
	rule.report == {
		{
			"path": ["spec", "workerGroupSpecs", 0, "template", "spec", "tolerations", 1],
			"message": _every_taint("raycluster \"ray\" (spec.workerGroupSpecs[0].template.spec)"),
		},
		{
			"path": ["spec", "workerGroupSpecs", 2, "template", "spec", "tolerations", 0],
			"message": _every_noexecute_taint("raycluster \"ray\" (spec.workerGroupSpecs[2].template.spec)"),
		},
	} with input as {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {
			"headGroupSpec": {"template": {"spec": _spec([])}},
			"workerGroupSpecs": [
				{"replicas": 2, "template": {"spec": _spec([{"key": "gpu", "operator": "Exists"}, {"operator": "Exists"}])}},
				{"replicas": 2, "template": {"spec": _spec([{"key": "gpu", "operator": "Exists"}])}},
				{"replicas": 2, "template": {"spec": _spec([{"operator": "Exists", "effect": "NoExecute"}])}},
			],
		},
	}
}

# A pod template with hostNetwork only informs, wherever it is.
test_leaderworkerset_worker_with_host_network_is_info if {
	rule.report == {{
		"path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "tolerations", 0],
		"message": _every_noschedule_taint("leaderworkerset \"vllm\" (spec.leaderWorkerTemplate.workerTemplate.spec)"),
		"severity": "info",
	}} with input as {
		"apiVersion": "leaderworkerset.x-k8s.io/v1",
		"kind": "LeaderWorkerSet",
		"metadata": {"name": "vllm"},
		"spec": {"replicas": 2, "leaderWorkerTemplate": {
			"leaderTemplate": {"spec": _spec([])},
			"workerTemplate": {"spec": object.union(_spec([{"operator": "Exists", "effect": "NoSchedule"}]), {"hostNetwork": true})},
		}},
	}
}
