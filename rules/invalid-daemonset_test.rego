# ValidateDaemonSetSpec (reference §4.4): selector presence, emptiness,
# validity and match against the template labels (with extensions/v1beta1
# defaulting), restartPolicy and activeDeadlineSeconds.
package dslint.rules["invalid-daemonset"]

_labels := {"app": "node-exporter"}

# _ds(api, spec) is a DaemonSet of apiVersion api whose spec is a valid spec
# with spec's top-level fields replacing the defaults (no deep merge).
_ds(api, spec) := {
	"apiVersion": api,
	"kind": "DaemonSet",
	"metadata": {"name": "node-exporter", "namespace": "monitoring"},
	"spec": object.union(object.remove(_default_spec, object.keys(spec)), spec),
}

_default_spec := {
	"selector": {"matchLabels": _labels},
	"template": {
		"metadata": {"labels": _labels},
		"spec": {"containers": [{"name": "exporter", "image": "node-exporter:v1.8.1"}]},
	},
}

_v1(spec) := _ds("apps/v1", spec)

_c := [{"name": "c", "image": "x:1"}]

# _without_selector(api, template) is a DaemonSet with no spec.selector.
_without_selector(api, template) := {
	"apiVersion": api,
	"kind": "DaemonSet",
	"metadata": {"name": "node-exporter"},
	"spec": {"template": template},
}

_template(labels) := {
	"metadata": {"labels": labels},
	"spec": {"containers": [{"name": "exporter", "image": "node-exporter:v1.8.1"}]},
}

_with_selector(sel) := _v1({"selector": sel})

_sel_path := ["spec", "selector"]

_labels_path := ["spec", "template", "metadata", "labels"]

# _one(r, path) is the message of r's only finding, which must be at path
# with the rule's default severity.
_one(r, path) := f.message if {
	count(r) == 1
	some f in r
	f.path == path
	not "severity" in object.keys(f)
}

_silent(obj) if count(report) == 0 with input as obj

# --- valid ----------------------------------------------------------------------

test_valid_daemonset_is_silent if {
	_silent(_v1({}))
	_silent(_ds("apps/v1beta2", {}))
	_silent(_ds("extensions/v1beta1", {}))
}

test_restart_policy_always_or_empty_is_silent if {
	_silent(_v1({"template": {"metadata": {"labels": _labels}, "spec": {"containers": _c, "restartPolicy": "Always"}}}))
	_silent(_v1({"template": {"metadata": {"labels": _labels}, "spec": {"containers": _c, "restartPolicy": ""}}}))
	_silent(_v1({"template": {"metadata": {"labels": _labels}, "spec": {"containers": _c, "restartPolicy": null}}}))
}

test_null_active_deadline_is_silent if {
	_silent(_v1({"template": {"metadata": {"labels": _labels}, "spec": {"containers": _c, "activeDeadlineSeconds": null}}}))
}

test_other_kinds_and_groups_are_silent if {
	_silent(object.union(_v1({"selector": {}}), {"kind": "Deployment"}))
	_silent(object.union(_v1({"selector": {}}), {"apiVersion": "example.com/v1"}))
	_silent({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"restartPolicy": "Never", "activeDeadlineSeconds": 5}})
}

# Extra template labels are fine: the selector needs only its own.
test_selector_subset_of_labels_is_silent if {
	_silent(_v1({"template": _template({"app": "node-exporter", "tier": "monitoring"})}))
}

test_matching_expressions_are_silent if {
	_silent(_v1({
		"selector": {
			"matchLabels": {"app": "node-exporter"},
			"matchExpressions": [
				{"key": "app", "operator": "In", "values": ["node-exporter", "exporter"]},
				{"key": "tier", "operator": "NotIn", "values": ["frontend"]},
				{"key": "app", "operator": "Exists"},
				{"key": "canary", "operator": "DoesNotExist"},
				{"key": "tier", "operator": "DoesNotExist", "values": []},
			],
		},
		"template": _template({"app": "node-exporter"}),
	}))
}

# NotIn matches a template without the label at all.
test_notin_matches_absent_label if {
	_silent(_v1({
		"selector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["node-exporter"]}, {"key": "track", "operator": "NotIn", "values": ["canary"]}]},
		"template": _template({"app": "node-exporter"}),
	}))
}

# --- missing selector -----------------------------------------------------------

test_missing_selector_apps_v1 if {
	msg := _one(report, _sel_path) with input as _without_selector("apps/v1", _template(_labels))
	contains(msg, "daemonset \"node-exporter\" has no spec.selector: a missing selector matches no pods")
	contains(msg, "\"`selector` does not match template `labels`\"")
	not contains(msg, "v1beta1")
}

test_missing_selector_apps_v1beta2_is_not_defaulted if {
	msg := _one(report, _sel_path) with input as _without_selector("apps/v1beta2", _template(_labels))
	contains(msg, "has no spec.selector")
}

test_null_selector_is_missing if {
	msg := _one(report, _sel_path) with input as _with_selector(null)
	contains(msg, "has no spec.selector")
}

# extensions/v1beta1 defaulted the selector from the template's labels.
test_missing_selector_extensions_v1beta1_is_defaulted if {
	_silent(_without_selector("extensions/v1beta1", _template(_labels)))
}

test_missing_selector_extensions_v1beta1_without_labels if {
	msg := _one(report, _sel_path) with input as _without_selector("extensions/v1beta1", {"spec": {"containers": [{"name": "c", "image": "busybox:1.36"}]}})
	contains(msg, "has no spec.selector (extensions/v1beta1 defaults it from the template's labels, but the template has none)")
}

test_missing_selector_extensions_v1beta1_null_labels if {
	msg := _one(report, _sel_path) with input as _without_selector("extensions/v1beta1", _template(null))
	contains(msg, "has no spec.selector (extensions/v1beta1")
}

# Empty (non-nil) template labels default to an empty selector.
test_missing_selector_extensions_v1beta1_empty_labels if {
	msg := _one(report, _sel_path) with input as _without_selector("extensions/v1beta1", _template({}))
	contains(msg, "empty selector (defaulted from the template labels {}) is invalid for daemonset")
}

# --- Kustomize patches ------------------------------------------------------------

# A patch leaves the selector and labels to its base.
test_patch_without_image_is_silent if {
	_silent(_without_selector("apps/v1", {"spec": {"containers": [{"name": "node-exporter", "resources": {"limits": {"cpu": "600m"}}}]}}))
}

test_patch_without_containers_is_silent if {
	_silent(_without_selector("apps/v1", {"spec": {"tolerations": [{"operator": "Exists"}]}}))
	_silent({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "x", "labels": {"team": "a"}}})
}

test_patch_with_selector_but_no_labels_is_silent if {
	_silent(_v1({"template": {"spec": {"containers": [{"name": "exporter", "image": ""}]}}}))
	_silent(_v1({"template": {"spec": {"initContainers": [{"name": "init"}], "containers": [{"name": "exporter", "image": "x:1"}]}}}))
}

# A patch (a container without an image) is skipped as a whole (SPEC §3):
# what it sets is checked once it is merged into its base.
test_patch_is_skipped_whole if {
	count(report) == 0 with input as _without_selector("apps/v1", {"spec": {"restartPolicy": "OnFailure", "containers": [{"name": "c"}]}})
	count(report) == 0 with input as _v1({"selector": {}, "template": {"spec": {"containers": [{"name": "c"}]}}})
}

# --- empty selector -------------------------------------------------------------

test_empty_selector if {
	msg := _one(report, _sel_path) with input as _with_selector({})
	contains(msg, "empty selector {} is invalid for daemonset: it would select every pod in the namespace")
	contains(msg, "for example matchLabels: {\"app\":\"node-exporter\"}")
}

test_empty_match_labels_and_expressions if {
	msg := _one(report, _sel_path) with input as _with_selector({"matchLabels": {}, "matchExpressions": []})
	contains(msg, "empty selector {\"matchExpressions\":[],\"matchLabels\":{}} is invalid for daemonset")
}

test_empty_selector_extensions_v1beta1_is_not_defaulted if {
	msg := _one(report, _sel_path) with input as _ds("extensions/v1beta1", {"selector": {}})
	contains(msg, "empty selector {} is invalid")
}

test_empty_selector_without_template_labels_suggests_a_label if {
	msg := _one(report, _sel_path) with input as _v1({"selector": {}, "template": _template(null)})
	contains(msg, "for example matchLabels: {app: <name>} (and the same label on the template)")
}

# --- selector does not match the template labels ---------------------------------

test_match_labels_value_differs if {
	msg := _one(report, _labels_path) with input as _v1({"template": _template({"app": "exporter"})})
	msg == "`selector` does not match template `labels`: the selector requires app=\"node-exporter\" (the template has app=\"exporter\"); label the template to match the selector"
}

test_match_labels_label_absent if {
	msg := _one(report, _labels_path) with input as _v1({"selector": {"matchLabels": {"app": "node-exporter", "tier": "monitoring"}}})
	contains(msg, "the selector requires tier=\"monitoring\" (the template has no \"tier\" label);")
	not contains(msg, "app=")
}

test_template_without_labels if {
	msg := _one(report, _labels_path) with input as _v1({"template": {"spec": {"containers": _c}}})
	contains(msg, "requires app=\"node-exporter\" (the template has no \"app\" label)")
}

test_template_labels_not_a_mapping if {
	msg := _one(report, _labels_path) with input as _v1({"template": _template(["app"])})
	contains(msg, "has no \"app\" label")
}

test_every_mismatch_is_listed if {
	msg := _one(report, _labels_path) with input as _v1({
		"selector": {
			"matchLabels": {"app": "node-exporter"},
			"matchExpressions": [
				{"key": "tier", "operator": "In", "values": ["monitoring", "infra"]},
				{"key": "track", "operator": "NotIn", "values": ["canary"]},
				{"key": "team", "operator": "Exists"},
				{"key": "legacy", "operator": "DoesNotExist"},
			],
		},
		"template": _template({"app": "exporter", "tier": "web", "track": "canary", "legacy": "true"}),
	})
	contains(msg, "app=\"node-exporter\" (the template has app=\"exporter\")")
	contains(msg, "tier in (monitoring, infra) (the template has tier=\"web\")")
	contains(msg, "track notin (canary) (the template has track=\"canary\")")
	contains(msg, "the label \"team\" (the template has no \"team\" label)")
	contains(msg, "no label \"legacy\" (the template has legacy=\"true\")")
}

test_in_with_absent_label if {
	msg := _one(report, _labels_path) with input as _v1({
		"selector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["infra"]}]},
	})
	contains(msg, "the selector requires tier in (infra) (the template has no \"tier\" label)")
}

# A mismatch in an extensions/v1beta1 DaemonSet with an explicit selector.
test_mismatch_extensions_v1beta1 if {
	msg := _one(report, _labels_path) with input as _ds("extensions/v1beta1", {"template": _template({"name": "fluentd"})})
	contains(msg, "has no \"app\" label")
}

# --- invalid selector -------------------------------------------------------------

# An invalid selector fails LabelSelectorAsSelector: upstream skips the match
# check, and so does the rule.
test_unknown_operator_no_match_check if {
	msg := _one(report, ["spec", "selector", "matchExpressions", 0, "operator"]) with input as _with_selector({"matchExpressions": [{"key": "app", "operator": "in", "values": ["x"]}]})
	contains(msg, "selector operator \"in\" is not valid: use \"In\", \"NotIn\", \"Exists\" or \"DoesNotExist\" (did you mean \"In\"?)")
}

test_missing_operator if {
	msg := _one(report, ["spec", "selector", "matchExpressions", 0, "operator"]) with input as _with_selector({"matchExpressions": [{"key": "app", "values": ["node-exporter"]}]})
	contains(msg, "selector operator \"\" is not valid")
	not contains(msg, "did you mean")
}

test_in_without_values if {
	msg := _one(report, ["spec", "selector", "matchExpressions", 0, "values"]) with input as _with_selector({"matchExpressions": [{"key": "app", "operator": "NotIn"}]})
	contains(msg, "selector expression on \"app\" with operator \"NotIn\" needs values")
}

test_exists_with_values if {
	msg := _one(report, ["spec", "selector", "matchExpressions", 0, "values"]) with input as _with_selector({"matchExpressions": [{"key": "app", "operator": "Exists", "values": ["node-exporter"]}]})
	contains(msg, "selector expression on \"app\" with operator \"Exists\" must not have values")
}

test_invalid_expression_key_and_value if {
	r := report with input as _with_selector({"matchExpressions": [{"key": "-app", "operator": "In", "values": ["node exporter"]}]})
	count(r) == 2
	some f1 in r
	f1.path == ["spec", "selector", "matchExpressions", 0, "key"]
	contains(f1.message, "selector expression key \"-app\" is not a valid label key: name part must consist of")
	some f2 in r
	f2.path == ["spec", "selector", "matchExpressions", 0, "values", 0]
	contains(f2.message, "selector expression value \"node exporter\" is not a valid label value")
}

test_invalid_match_labels if {
	r := report with input as _v1({
		"selector": {"matchLabels": {"app/x/y": "a", "tier": "has space"}},
		"template": _template({"app/x/y": "a", "tier": "has space"}),
	})
	count(r) == 2
	some f1 in r
	f1.path == ["spec", "selector", "matchLabels", "app/x/y"]
	contains(f1.message, "selector matchLabels key \"app/x/y\" is not a valid label key: must not contain more than one \"/\"")
	some f2 in r
	f2.path == ["spec", "selector", "matchLabels", "tier"]
	contains(f2.message, "selector matchLabels value \"has space\" for \"tier\" is not a valid label value")
}

test_non_string_match_label_value if {
	msg := _one(report, ["spec", "selector", "matchLabels", "enabled"]) with input as _v1({
		"selector": {"matchLabels": {"enabled": true}},
		"template": _template({"enabled": "true"}),
	})
	contains(msg, "selector matchLabels value true for \"enabled\" is not a valid label value: must be a string")
}

test_expression_not_a_mapping if {
	msg := _one(report, ["spec", "selector", "matchExpressions", 0]) with input as _with_selector({"matchExpressions": ["app=node-exporter"]})
	contains(msg, "selector expression \"app=node-exporter\" must be a mapping")
}

# --- restartPolicy and activeDeadlineSeconds ----------------------------------------

_spec_with(fields) := _v1({"template": {"metadata": {"labels": _labels}, "spec": object.union({"containers": [{"name": "c", "image": "x:1"}]}, fields)}})

test_restart_policy_on_failure if {
	msg := _one(report, ["spec", "template", "spec", "restartPolicy"]) with input as _spec_with({"restartPolicy": "OnFailure"})
	msg == "restartPolicy \"OnFailure\" is not supported in a daemonset: only \"Always\" (the default); remove it"
}

test_restart_policy_never_and_wrong_case if {
	_one(report, ["spec", "template", "spec", "restartPolicy"]) with input as _spec_with({"restartPolicy": "Never"})
	msg := _one(report, ["spec", "template", "spec", "restartPolicy"]) with input as _spec_with({"restartPolicy": "always"})
	contains(msg, "restartPolicy \"always\" is not supported")
}

test_active_deadline_seconds if {
	msg := _one(report, ["spec", "template", "spec", "activeDeadlineSeconds"]) with input as _spec_with({"activeDeadlineSeconds": 3600})
	contains(msg, "activeDeadlineSeconds 3600 in daemonset is not supported")
}

test_active_deadline_seconds_zero if {
	msg := _one(report, ["spec", "template", "spec", "activeDeadlineSeconds"]) with input as _spec_with({"activeDeadlineSeconds": 0})
	contains(msg, "activeDeadlineSeconds 0 in daemonset")
}

# Every problem of one DaemonSet is reported at once.
test_all_problems_together if {
	r := report with input as {
		"apiVersion": "extensions/v1beta1",
		"kind": "DaemonSet",
		"metadata": {"name": "fluentd"},
		"spec": {
			"selector": {"matchLabels": {"app": "fluentd"}},
			"template": {
				"metadata": {"labels": {"name": "fluentd"}},
				"spec": {"containers": _c, "restartPolicy": "Never", "activeDeadlineSeconds": 60},
			},
		},
	}
	{f.path | some f in r} == {
		_labels_path,
		["spec", "template", "spec", "restartPolicy"],
		["spec", "template", "spec", "activeDeadlineSeconds"],
	}
	count(r) == 3
}

# --- the plainly fine shortcut and its edges -------------------------------------

_template_with(fields) := object.union(_template(_labels), {"spec": object.union({"containers": _c}, fields)})

# Each of these leaves the common shape (a selector of matchLabels only, every
# pair on the template, no restartPolicy or activeDeadlineSeconds) and is
# still judged in full.
test_near_the_common_shape if {
	_silent(_with_selector({"matchLabels": _labels, "other": 1}))
	_silent(_with_selector({"matchLabels": _labels, "matchExpressions": []}))
	_silent(_v1({"template": _template_with({"restartPolicy": null})}))
	_silent(_v1({"template": _template_with({"restartPolicy": ""})}))
	_silent(_v1({"template": _template_with({"activeDeadlineSeconds": null})}))
	_silent(_v1({"template": object.union(_template({"app": "node-exporter", "tier": "x"}), {})}))
	_one(report, _labels_path) with input as _v1({"template": _template({"app": 5})})
	_one(report, array.concat(_sel_path, ["matchLabels", "app"])) with input as _with_selector({"matchLabels": {"app": "bad value"}})
	_one(report, ["spec", "template", "spec", "restartPolicy"]) with input as _v1({"template": _template_with({"restartPolicy": false})})
	_one(report, ["spec", "template", "spec", "activeDeadlineSeconds"]) with input as _v1({"template": _template_with({"activeDeadlineSeconds": 0})})
}

test_match_labels_that_are_not_a_mapping if {
	_one(report, _sel_path) with input as _with_selector({"matchLabels": ["app"]})
	_one(report, _sel_path) with input as _with_selector({"matchLabels": {}})
	_silent(_with_selector({"matchLabels": null, "matchExpressions": [{"key": "app", "operator": "In", "values": ["node-exporter"]}]}))
}
