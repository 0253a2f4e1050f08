# ValidateDaemonSetSpec (reference §4.4): selector presence, emptiness,
# validity and match against the template labels (with extensions/v1beta1
# defaulting), restartPolicy and activeDeadlineSeconds.
package dslint.rules["invalid-daemonset_test"]

import data.dslint.rules["invalid-daemonset"] as rule

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

_silent(obj) if rule.report == set() with input as obj

# --- the messages ---------------------------------------------------------------

# _no_selector(note) is the finding about the DaemonSet "node-exporter"
# without a selector; note follows "spec.selector".
_no_selector(note) := {
	"path": _sel_path,
	"message": sprintf("daemonset \"node-exporter\" has no spec.selector%s: a missing selector matches no pods, so the API server rejects the daemonset (\"`selector` does not match template `labels`\"); add spec.selector.matchLabels with the template's labels", [note]),
}

_v1beta1_note := " (extensions/v1beta1 defaults it from the template's labels, but the template has none)"

# _empty(shown, example) is the finding about an empty selector.
_empty(shown, example) := {
	"path": _sel_path,
	"message": sprintf("empty selector %s is invalid for daemonset: it would select every pod in the namespace; select the template's labels, for example matchLabels: %s", [shown, example]),
}

_some_label := "{app: <name>} (and the same label on the template)"

# _mismatch(requirements) is the finding about template labels that do not
# match the selector.
_mismatch(requirements) := {
	"path": _labels_path,
	"message": sprintf("`selector` does not match template `labels`: the selector requires %s; label the template to match the selector", [requirements]),
}

_name_problem := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

_value_problem := "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

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
	rule.report == {_no_selector("")} with input as _without_selector("apps/v1", _template(_labels))
}

test_missing_selector_apps_v1beta2_is_not_defaulted if {
	rule.report == {_no_selector("")} with input as _without_selector("apps/v1beta2", _template(_labels))
}

test_null_selector_is_missing if {
	rule.report == {_no_selector("")} with input as _with_selector(null)
}

# extensions/v1beta1 defaulted the selector from the template's labels.
test_missing_selector_extensions_v1beta1_is_defaulted if {
	_silent(_without_selector("extensions/v1beta1", _template(_labels)))
}

test_missing_selector_extensions_v1beta1_without_labels if {
	r := rule.report with input as _without_selector("extensions/v1beta1", {"spec": {"containers": [{"name": "c", "image": "busybox:1.36"}]}})
	r == {_no_selector(_v1beta1_note)}
}

test_missing_selector_extensions_v1beta1_null_labels if {
	rule.report == {_no_selector(_v1beta1_note)} with input as _without_selector("extensions/v1beta1", _template(null))
}

# Empty (non-nil) template labels default to an empty selector.
test_missing_selector_extensions_v1beta1_empty_labels if {
	r := rule.report with input as _without_selector("extensions/v1beta1", _template({}))
	r == {_empty("(defaulted from the template labels {})", _some_label)}
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
	_silent(_without_selector("apps/v1", {"spec": {"restartPolicy": "OnFailure", "containers": [{"name": "c"}]}}))
	_silent(_v1({"selector": {}, "template": {"spec": {"containers": [{"name": "c"}]}}}))
}

# --- empty selector -------------------------------------------------------------

test_empty_selector if {
	rule.report == {_empty("{}", "{\"app\":\"node-exporter\"}")} with input as _with_selector({})
}

test_empty_match_labels_and_expressions if {
	r := rule.report with input as _with_selector({"matchLabels": {}, "matchExpressions": []})
	r == {_empty("{\"matchExpressions\":[],\"matchLabels\":{}}", "{\"app\":\"node-exporter\"}")}
}

test_empty_selector_extensions_v1beta1_is_not_defaulted if {
	rule.report == {_empty("{}", "{\"app\":\"node-exporter\"}")} with input as _ds("extensions/v1beta1", {"selector": {}})
}

test_empty_selector_without_template_labels_suggests_a_label if {
	rule.report == {_empty("{}", _some_label)} with input as _v1({"selector": {}, "template": _template(null)})
}

# --- selector does not match the template labels ---------------------------------

test_match_labels_value_differs if {
	r := rule.report with input as _v1({"template": _template({"app": "exporter"})})
	r == {{
		"path": _labels_path,
		"message": "`selector` does not match template `labels`: the selector requires app=\"node-exporter\" (the template has app=\"exporter\"); label the template to match the selector",
	}}
}

test_match_labels_label_absent if {
	r := rule.report with input as _v1({"selector": {"matchLabels": {"app": "node-exporter", "tier": "monitoring"}}})
	r == {_mismatch("tier=\"monitoring\" (the template has no \"tier\" label)")}
}

test_template_without_labels if {
	rule.report == {_mismatch("app=\"node-exporter\" (the template has no \"app\" label)")} with input as _v1({"template": {"spec": {"containers": _c}}})
}

test_template_labels_not_a_mapping if {
	rule.report == {_mismatch("app=\"node-exporter\" (the template has no \"app\" label)")} with input as _v1({"template": _template(["app"])})
}

test_every_mismatch_is_listed if {
	r := rule.report with input as _v1({
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
	r == {_mismatch(concat(", ", sort([
		"app=\"node-exporter\" (the template has app=\"exporter\")",
		"tier in (monitoring, infra) (the template has tier=\"web\")",
		"track notin (canary) (the template has track=\"canary\")",
		"the label \"team\" (the template has no \"team\" label)",
		"no label \"legacy\" (the template has legacy=\"true\")",
	])))}
}

test_in_with_absent_label if {
	r := rule.report with input as _v1({
		"selector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["infra"]}]},
	})
	r == {_mismatch("tier in (infra) (the template has no \"tier\" label)")}
}

# A mismatch in an extensions/v1beta1 DaemonSet with an explicit selector.
test_mismatch_extensions_v1beta1 if {
	r := rule.report with input as _ds("extensions/v1beta1", {"template": _template({"name": "fluentd"})})
	r == {_mismatch("app=\"node-exporter\" (the template has no \"app\" label)")}
}

# --- invalid selector -------------------------------------------------------------

# An invalid selector fails LabelSelectorAsSelector: upstream skips the match
# check, and so does the rule.
test_unknown_operator_no_match_check if {
	r := rule.report with input as _with_selector({"matchExpressions": [{"key": "app", "operator": "in", "values": ["x"]}]})
	r == {{
		"path": ["spec", "selector", "matchExpressions", 0, "operator"],
		"message": "selector operator \"in\" is not valid: use \"In\", \"NotIn\", \"Exists\" or \"DoesNotExist\" (did you mean \"In\"?)",
	}}
}

test_missing_operator if {
	r := rule.report with input as _with_selector({"matchExpressions": [{"key": "app", "values": ["node-exporter"]}]})
	r == {{
		"path": ["spec", "selector", "matchExpressions", 0, "operator"],
		"message": "selector operator \"\" is not valid: use \"In\", \"NotIn\", \"Exists\" or \"DoesNotExist\"",
	}}
}

test_in_without_values if {
	r := rule.report with input as _with_selector({"matchExpressions": [{"key": "app", "operator": "NotIn"}]})
	r == {{
		"path": ["spec", "selector", "matchExpressions", 0, "values"],
		"message": "selector expression on \"app\" with operator \"NotIn\" needs values",
	}}
}

test_exists_with_values if {
	r := rule.report with input as _with_selector({"matchExpressions": [{"key": "app", "operator": "Exists", "values": ["node-exporter"]}]})
	r == {{
		"path": ["spec", "selector", "matchExpressions", 0, "values"],
		"message": "selector expression on \"app\" with operator \"Exists\" must not have values",
	}}
}

test_invalid_expression_key_and_value if {
	r := rule.report with input as _with_selector({"matchExpressions": [{"key": "-app", "operator": "In", "values": ["node exporter"]}]})
	r == {
		{
			"path": ["spec", "selector", "matchExpressions", 0, "key"],
			"message": sprintf("selector expression key \"-app\" is not a valid label key: %s", [_name_problem]),
		},
		{
			"path": ["spec", "selector", "matchExpressions", 0, "values", 0],
			"message": sprintf("selector expression value \"node exporter\" is not a valid label value: %s", [_value_problem]),
		},
	}
}

test_invalid_match_labels if {
	r := rule.report with input as _v1({
		"selector": {"matchLabels": {"app/x/y": "a", "tier": "has space"}},
		"template": _template({"app/x/y": "a", "tier": "has space"}),
	})
	r == {
		{
			"path": ["spec", "selector", "matchLabels", "app/x/y"],
			"message": "selector matchLabels key \"app/x/y\" is not a valid label key: must not contain more than one \"/\"",
		},
		{
			"path": ["spec", "selector", "matchLabels", "tier"],
			"message": sprintf("selector matchLabels value \"has space\" for \"tier\" is not a valid label value: %s", [_value_problem]),
		},
	}
}

test_non_string_match_label_value if {
	r := rule.report with input as _v1({
		"selector": {"matchLabels": {"enabled": true}},
		"template": _template({"enabled": "true"}),
	})
	r == {{
		"path": ["spec", "selector", "matchLabels", "enabled"],
		"message": "selector matchLabels value true for \"enabled\" is not a valid label value: must be a string",
	}}
}

test_expression_not_a_mapping if {
	r := rule.report with input as _with_selector({"matchExpressions": ["app=node-exporter"]})
	r == {{
		"path": ["spec", "selector", "matchExpressions", 0],
		"message": "selector expression \"app=node-exporter\" must be a mapping with key, operator and values",
	}}
}

# --- restartPolicy and activeDeadlineSeconds ----------------------------------------

_spec_with(fields) := _v1({"template": {"metadata": {"labels": _labels}, "spec": object.union({"containers": [{"name": "c", "image": "x:1"}]}, fields)}})

_restart_policy(shown) := {
	"path": ["spec", "template", "spec", "restartPolicy"],
	"message": sprintf("restartPolicy %s is not supported in a daemonset: only \"Always\" (the default); remove it", [shown]),
}

_deadline(shown) := {
	"path": ["spec", "template", "spec", "activeDeadlineSeconds"],
	"message": sprintf("activeDeadlineSeconds %s in daemonset is not supported: daemon pods run until the daemonset or the node goes away; remove it", [shown]),
}

test_restart_policy_on_failure if {
	rule.report == {_restart_policy("\"OnFailure\"")} with input as _spec_with({"restartPolicy": "OnFailure"})
}

test_restart_policy_never_and_wrong_case if {
	rule.report == {_restart_policy("\"Never\"")} with input as _spec_with({"restartPolicy": "Never"})
	rule.report == {_restart_policy("\"always\"")} with input as _spec_with({"restartPolicy": "always"})
}

test_active_deadline_seconds if {
	rule.report == {_deadline("3600")} with input as _spec_with({"activeDeadlineSeconds": 3600})
}

test_active_deadline_seconds_zero if {
	rule.report == {_deadline("0")} with input as _spec_with({"activeDeadlineSeconds": 0})
}

# Every problem of one DaemonSet is reported at once.
test_all_problems_together if {
	r := rule.report with input as {
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
	r == {
		_mismatch("app=\"fluentd\" (the template has no \"app\" label)"),
		_restart_policy("\"Never\""),
		_deadline("60"),
	}
}

# --- the common shape and its edges -------------------------------------------------

_template_with(fields) := object.union(_template(_labels), {"spec": object.union({"containers": _c}, fields)})

# Each of these leaves the common shape (a selector of matchLabels only, every
# pair on the template, no restartPolicy or activeDeadlineSeconds) and is
# judged like any other.
test_near_the_common_shape if {
	_silent(_with_selector({"matchLabels": _labels, "other": 1}))
	_silent(_with_selector({"matchLabels": _labels, "matchExpressions": []}))
	_silent(_v1({"template": _template_with({"restartPolicy": null})}))
	_silent(_v1({"template": _template_with({"restartPolicy": ""})}))
	_silent(_v1({"template": _template_with({"activeDeadlineSeconds": null})}))
	_silent(_v1({"template": object.union(_template({"app": "node-exporter", "tier": "x"}), {})}))
	rule.report == {_mismatch("app=\"node-exporter\" (the template has app=5)")} with input as _v1({"template": _template({"app": 5})})
	r := rule.report with input as _with_selector({"matchLabels": {"app": "bad value"}})
	r == {{
		"path": ["spec", "selector", "matchLabels", "app"],
		"message": sprintf("selector matchLabels value \"bad value\" for \"app\" is not a valid label value: %s", [_value_problem]),
	}}
	rule.report == {_restart_policy("false")} with input as _v1({"template": _template_with({"restartPolicy": false})})
	rule.report == {_deadline("0")} with input as _v1({"template": _template_with({"activeDeadlineSeconds": 0})})
}

test_match_labels_that_are_not_a_mapping if {
	rule.report == {_empty("{\"matchLabels\":[\"app\"]}", "{\"app\":\"node-exporter\"}")} with input as _with_selector({"matchLabels": ["app"]})
	rule.report == {_empty("{\"matchLabels\":{}}", "{\"app\":\"node-exporter\"}")} with input as _with_selector({"matchLabels": {}})
	_silent(_with_selector({"matchLabels": null, "matchExpressions": [{"key": "app", "operator": "In", "values": ["node-exporter"]}]}))
}

# --- custom resources ------------------------------------------------------------------

# The rule is about the built-in DaemonSet: a custom resource of kind
# DaemonSet (OpenKruise's Advanced DaemonSet) and the pods of a RayCluster
# or a JobSet are not its business.
test_custom_resources_are_not_checked if {
	_silent(object.union(_without_selector("apps/v1", _template(_labels)), {"apiVersion": "apps.kruise.io/v1alpha1"}))
	_silent({
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray"},
		"spec": {"workerGroupSpecs": [{"template": {"spec": {"containers": _c, "restartPolicy": "Never", "activeDeadlineSeconds": 60}}}]},
	})
	_silent({
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "train"},
		"spec": {"replicatedJobs": [{"name": "w", "template": {"spec": {"template": {"spec": {"containers": _c, "restartPolicy": "Never"}}}}}]},
	})
}
