package dslint.rules["wildcard-toleration"]

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

# _only(r, path) is r's only finding, which must be at path.
_only(r, path) := f if {
	count(r) == 1
	some f in r
	f.path == path
}

test_deployment_wildcard_is_a_warning if {
	r := report with input as _deployment([{"operator": "Exists"}])
	f := _only(r, _tpl_path(0))
	not "severity" in object.keys(f) # the rule's default, warning
	contains(f.message, "toleration with operator \"Exists\" and no key tolerates every taint")
	contains(f.message, "deployment \"web\" can land on any node")
}

test_daemonset_wildcard_is_info if {
	r := report with input as _daemonset("apps/v1", [{"operator": "Exists"}])
	f := _only(r, _tpl_path(0))
	f.severity == "info"
	contains(f.message, "daemonset \"node-agent\"")
}

test_extensions_v1beta1_daemonset_wildcard_is_info if {
	r := report with input as _daemonset("extensions/v1beta1", [{"operator": "Exists", "effect": "NoSchedule"}])
	f := _only(r, _tpl_path(0))
	f.severity == "info"
}

test_message_without_effect if {
	f := _only(report, _tpl_path(0)) with input as _deployment([{"operator": "Exists"}])
	f.message == "toleration with operator \"Exists\" and no key tolerates every taint: deployment \"web\" can land on any node, dedicated pools and control plane included, and is never evicted from not-ready or unreachable nodes"
}

# A NoExecute wildcard cannot pass a NoSchedule taint: the concern is
# eviction only.
test_message_with_noexecute if {
	f := _only(report, _tpl_path(0)) with input as _deployment([{"operator": "Exists", "effect": "NoExecute"}])
	f.message == "toleration with operator \"Exists\" and no key tolerates every NoExecute taint: deployment \"web\" is never evicted from not-ready or unreachable nodes; set tolerationSeconds, or name the taint it is meant for"
	not "severity" in object.keys(f)
}

test_message_with_noschedule if {
	f := _only(report, _tpl_path(0)) with input as _deployment([{"operator": "Exists", "effect": "NoSchedule"}])
	contains(f.message, "tolerates every taint with effect NoSchedule: deployment \"web\" can land on any node,")
	not contains(f.message, "evicted")
}

# PreferNoSchedule never blocks a pod: tolerating all of it changes nothing.
test_prefernoschedule_is_silent if {
	count(report) == 0 with input as _deployment([{"operator": "Exists", "effect": "PreferNoSchedule"}])
}

# With tolerationSeconds the taint-eviction controller evicts the pod after
# that many seconds (reference §2.3): a bounded delay, nothing to report.
test_noexecute_with_toleration_seconds_is_silent if {
	count(report) == 0 with input as _deployment([{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}])
}

test_noschedule_and_timed_noexecute_is_not_never_evicted if {
	r := report with input as _deployment([{"operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}])
	f := _only(r, _tpl_path(0))
	contains(f.message, "tolerates every taint: deployment")
	not contains(f.message, "evicted")
}

# The DaemonSet controller adds not-ready and unreachable tolerations to
# every DaemonSet pod: no eviction claim for a DaemonSet.
test_daemonset_message_makes_no_eviction_claim if {
	f := _only(report, _tpl_path(0)) with input as _daemonset("apps/v1", [{"operator": "Exists"}])
	f.message == "toleration with operator \"Exists\" and no key tolerates every taint: daemonset \"node-agent\" can land on any node, dedicated pools and control plane included"
	count(report) == 0 with input as _daemonset("apps/v1", [{"operator": "Exists", "effect": "NoExecute"}])
}

# A node constraint that pins the pods limits where they land.
test_pinned_workload_lands_only_where_selected if {
	d := _deployment([{"operator": "Exists", "effect": "NoSchedule"}])
	f := _only(report, _tpl_path(0)) with input as json.patch(d, [{"op": "add", "path": "/spec/template/spec/nodeSelector", "value": {"pool": "infra"}}])
	contains(f.message, "can land on any node its node constraint selects, whatever taints those nodes carry")
}

# Network and bootstrap components (hostNetwork) must run on nodes that are
# not ready yet: the rule only informs.
test_host_network_deployment_is_info if {
	d := _deployment([{"operator": "Exists"}])
	f := _only(report, _tpl_path(0)) with input as json.patch(d, [{"op": "add", "path": "/spec/template/spec/hostNetwork", "value": true}])
	f.severity == "info"
}

test_explicit_empty_key_is_a_wildcard if {
	f := _only(report, _tpl_path(0)) with input as _deployment([{"key": "", "operator": "Exists"}])
	contains(f.message, "no key")
}

test_keyed_exists_is_not_a_wildcard if {
	count(report) == 0 with input as _deployment([{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}])
	count(report) == 0 with input as _deployment([{"key": "dedicated", "operator": "Exists"}])
}

# Only the exact operator "Exists" tolerates every key; the rest is
# invalid-toleration's business.
test_other_operators_without_key_are_not_wildcards if {
	count(report) == 0 with input as _deployment([{"operator": "exists"}])
	count(report) == 0 with input as _deployment([{"operator": "Equal"}])
	count(report) == 0 with input as _deployment([{}])
	count(report) == 0 with input as _deployment([{"value": "b"}])
}

test_wildcard_among_other_tolerations_has_its_index if {
	r := report with input as _deployment([
		{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
		{"operator": "Exists", "effect": "NoExecute"},
	])
	_only(r, _tpl_path(1))
}

# Two wildcards are one intent: one finding, at the first, their effects
# added up.
test_two_wildcards_are_one_finding if {
	r := report with input as _deployment([{"operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists", "effect": "NoExecute"}])
	f := _only(r, _tpl_path(0))
	contains(f.message, "tolerates every taint: deployment \"web\" can land on any node, dedicated pools and control plane included, and is never evicted")
}

# A rejected toleration is invalid-toleration's alone.
test_invalid_wildcard_is_left_to_invalid_toleration if {
	count(report) == 0 with input as _deployment([{"operator": "Exists", "value": "x"}])
}

test_pod_path_and_kind if {
	f := _only(report, ["spec", "tolerations", 0]) with input as {
		"apiVersion": "v1",
		"kind": "Pod",
		"metadata": {"name": "debug"},
		"spec": {"containers": [{"name": "sh", "image": "busybox"}], "tolerations": [{"operator": "Exists"}]},
	}
	contains(f.message, "pod \"debug\"")
	not "severity" in object.keys(f)
}

test_cronjob_path if {
	f := _only(report, ["spec", "jobTemplate", "spec", "template", "spec", "tolerations", 0]) with input as {
		"apiVersion": "batch/v1",
		"kind": "CronJob",
		"metadata": {"name": "cleanup"},
		"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}], "tolerations": [{"operator": "Exists"}]}}}}},
	}
	contains(f.message, "cronjob \"cleanup\"")
}

test_non_workload_is_not_checked if {
	count(report) == 0 with input as object.union(_deployment([{"operator": "Exists"}]), {"apiVersion": "example.com/v1"})
	count(report) == 0 with input as object.union(_daemonset("apps/v1", [{"operator": "Exists"}]), {"apiVersion": "example.com/v1"})
}
