# METADATA
# title: DaemonSet the API server rejects
# description: |
#   The API server validates a DaemonSet's spec (ValidateDaemonSetSpec) before
#   it stores it; an invalid one fails the deploy, and a change to one stuck
#   in a GitOps loop never reaches the nodes. This rule reports what that
#   validation rejects beyond the pod template's own fields, at the offending
#   field: a missing selector (apps/v1 and apps/v1beta2 never default it; a
#   missing selector matches no pod, so it "does not match template labels"),
#   an empty selector {}, a selector that does not match the template's
#   labels (matchLabels and matchExpressions with In, NotIn, Exists and
#   DoesNotExist, evaluated as the API server does), a selector that is not a
#   valid label selector (unknown operator, In/NotIn without values,
#   Exists/DoesNotExist with values, invalid label keys or values), a
#   template restartPolicy other than Always, and activeDeadlineSeconds in
#   the template. extensions/v1beta1 defaulted a missing selector to the
#   template's labels, so a v1beta1 DaemonSet without one is only reported
#   when its template has no labels either. A Kustomize patch (a pod template
#   without containers, or with a container without an image) leaves the
#   selector and labels to its base: they are not reported missing there.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#required-fields
#     description: DaemonSet, required fields (pod selector, restart policy)
#   - ref: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
#     description: Label selectors
# custom:
#   severity: error
#   intent: |
#     Fires on what the API server's DaemonSet validation rejects beyond the
#     pod template's own fields: a missing or empty selector, a selector that
#     does not match the template labels or is not a valid selector, a
#     restartPolicy other than Always, activeDeadlineSeconds. Stays quiet for
#     extensions/v1beta1 DaemonSets whose template labels default the
#     selector, and for fragments (a patch or test assertion without
#     containers), which leave the selector to their base.
#   remediation: |
#     Give the DaemonSet a spec.selector whose matchLabels (and
#     matchExpressions) hold for spec.template.metadata.labels, for example
#     matchLabels: {app: <name>} with the same label on the template. Leave
#     restartPolicy out of the pod template (it defaults to Always) and remove
#     activeDeadlineSeconds: a DaemonSet's pods run until the DaemonSet is
#     deleted or the node stops qualifying. The selector cannot be changed
#     later, so get it right on creation.
#   bad: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: node-exporter
#     spec:
#       selector: {matchLabels: {app: node-exporter}}
#       template:
#         metadata: {labels: {app: exporter}}
#         spec:
#           containers: [{name: exporter, image: quay.io/prometheus/node-exporter:v1.8.1}]
#   good: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: node-exporter
#     spec:
#       selector: {matchLabels: {app: node-exporter}}
#       template:
#         metadata: {labels: {app: node-exporter}}
#         spec:
#           containers: [{name: exporter, image: quay.io/prometheus/node-exporter:v1.8.1}]
package dslint.rules["invalid-daemonset"]

import data.dslint.lib.k8s
import data.dslint.lib.labels
import data.dslint.lib.nodeaffinity
import data.dslint.lib.result

# The checks (_problems) are about a DaemonSet of apps or extensions with a
# pod template that can be applied (k8s.is_workload): other kinds are
# skipped on input.kind. The selector and the template labels are the
# DaemonSet's own fields, read from input; the pod template's fields are its
# pod's (k8s.pods).
report contains finding if {
	input.kind == "DaemonSet"
	k8s.is_workload
	some finding in _problems
}

# --- selector: missing, empty ------------------------------------------------

# A missing (or null) selector is nil: LabelSelectorAsSelector turns it into
# labels.Nothing(), which matches no labels, so upstream reports "`selector`
# does not match template `labels`". extensions/v1beta1 first defaulted it to
# the template's labels when those are set.
_problems contains result.fail(_selector_path, msg) if {
	_selector == null
	msg := sprintf("daemonset %q has no spec.selector%s: a missing selector matches no pods, so the API server rejects the daemonset (\"`selector` does not match template `labels`\"); add spec.selector.matchLabels with the template's labels", [k8s.name, _v1beta1_note])
}

_problems contains result.fail(_selector_path, msg) if {
	is_object(_selector)
	_selector_size == 0
	msg := sprintf("empty selector %s is invalid for daemonset: it would select every pod in the namespace; select the template's labels, for example matchLabels: %s", [
		_show_selector,
		_example_labels,
	])
}

# --- selector: valid label selector -------------------------------------------

_problems contains result.fail(array.concat(_selector_path, ["matchLabels", key]), msg) if {
	some key, _ in _match_labels
	not labels.valid_key(key)
	problem := labels.key_problem(key)
	msg := sprintf("selector matchLabels key %q is not a valid label key: %s", [key, problem])
}

_problems contains result.fail(array.concat(_selector_path, ["matchLabels", key]), msg) if {
	some key, value in _match_labels
	not labels.valid_value(value)
	problem := labels.value_problem(value)
	msg := sprintf("selector matchLabels value %s for %q is not a valid label value: %s", [_show(value), key, problem])
}

_problems contains result.fail(array.concat(_selector_path, ["matchExpressions", i]), msg) if {
	some i, expr in _match_expressions
	not is_object(expr)
	msg := sprintf("selector expression %s must be a mapping with key, operator and values", [_show(expr)])
}

_problems contains result.fail(_expr_path(i, "operator"), msg) if {
	some i, expr in _expressions
	op := object.get(expr, "operator", "")
	not op in _operators
	msg := sprintf("selector operator %s is not valid: use \"In\", \"NotIn\", \"Exists\" or \"DoesNotExist\"%s", [_show(op), _did_you_mean(op)])
}

_problems contains result.fail(_expr_path(i, "values"), msg) if {
	some i, expr in _expressions
	op := expr.operator
	op in {"In", "NotIn"}
	count(_values(expr)) == 0
	msg := sprintf("selector expression on %s with operator %q needs values", [_show(object.get(expr, "key", "")), op])
}

_problems contains result.fail(_expr_path(i, "values"), msg) if {
	some i, expr in _expressions
	op := expr.operator
	op in {"Exists", "DoesNotExist"}
	count(_values(expr)) > 0
	msg := sprintf("selector expression on %s with operator %q must not have values", [_show(object.get(expr, "key", "")), op])
}

_problems contains result.fail(_expr_path(i, "key"), msg) if {
	some i, expr in _expressions
	key := object.get(expr, "key", "")
	not labels.valid_key(key)
	problem := labels.key_problem(key)
	msg := sprintf("selector expression key %s is not a valid label key: %s", [_show(key), problem])
}

_problems contains result.fail(array.concat(_expr_path(i, "values"), [j]), msg) if {
	some i, expr in _expressions
	some j, value in _values(expr)
	not labels.valid_value(value)
	problem := labels.value_problem(value)
	msg := sprintf("selector expression value %s is not a valid label value: %s", [_show(value), problem])
}

# --- selector: matches the template's labels ------------------------------------

_problems contains result.fail(_labels_path, msg) if {
	_valid_selector
	_selector_size > 0
	reasons := [r | some r in _mismatches]
	count(reasons) > 0
	msg := sprintf("`selector` does not match template `labels`: the selector requires %s; label the template to match the selector", [concat(", ", reasons)])
}

# --- template spec --------------------------------------------------------------

_problems contains result.fail(k8s.pod_path(pod, ["restartPolicy"]), msg) if {
	some pod in k8s.pods
	policy := pod.spec.restartPolicy
	policy != null
	not policy in {"", "Always"}
	msg := sprintf("restartPolicy %s is not supported in a daemonset: only \"Always\" (the default); remove it", [_show(policy)])
}

_problems contains result.fail(k8s.pod_path(pod, ["activeDeadlineSeconds"]), msg) if {
	some pod in k8s.pods
	seconds := pod.spec.activeDeadlineSeconds
	seconds != null
	msg := sprintf("activeDeadlineSeconds %s in daemonset is not supported: daemon pods run until the daemonset or the node goes away; remove it", [_show(seconds)])
}

_selector_path := ["spec", "selector"]

_labels_path := ["spec", "template", "metadata", "labels"]

# --- selector: missing, empty: what the checks read ---------------------------

default _v1beta1_note := ""

_v1beta1_note := " (extensions/v1beta1 defaults it from the template's labels, but the template has none)" if {
	input.apiVersion == "extensions/v1beta1"
}

# The selector as the API server sees it after defaulting: null when nil.
default _selector := null

_selector := _raw_selector if {
	_raw_selector != null
} else := {"matchLabels": _template_labels} if {
	input.apiVersion == "extensions/v1beta1"
	is_object(_template_labels)
}

_raw_selector := object.get(input, ["spec", "selector"], null)

# Defaulted selectors are not in the file; show what the file says.
_show_selector := json.marshal(_raw_selector) if _raw_selector != null

_show_selector := sprintf("(defaulted from the template labels %s)", [json.marshal(_template_labels)]) if _raw_selector == null

_selector_size := count(_object(object.get(_object(_selector), "matchLabels", {}))) + count(_array(object.get(_object(_selector), "matchExpressions", [])))

default _example_labels := "{app: <name>} (and the same label on the template)"

_example_labels := json.marshal(_template_labels) if {
	is_object(_template_labels)
	count(_template_labels) > 0
}

# --- selector: valid label selector: what the checks read ---------------------

_operators := {"In", "NotIn", "Exists", "DoesNotExist"}

_match_labels := _object(object.get(_selector, "matchLabels", {})) if is_object(_selector)

_match_expressions := _array(object.get(_selector, "matchExpressions", [])) if is_object(_selector)

# _expressions are the selector's expressions that are mappings.
_expressions[i] := expr if {
	some i, expr in _match_expressions
	is_object(expr)
}

_expr_path(i, name) := array.concat(_selector_path, ["matchExpressions", i, name])

_values(expr) := _array(object.get(expr, "values", []))

# _valid_selector is true when LabelSelectorAsSelector would succeed: every
# requirement has a known operator, the right number of values, and valid
# label keys and values. Upstream only checks the match when it does.
_valid_selector if {
	is_object(_selector)
	every key, value in _match_labels {
		labels.valid_key(key)
		labels.valid_value(value)
	}
	every expr in _match_expressions {
		_valid_expression(expr)
	}
}

# A label selector requirement parses like a node selector requirement
# (labels.NewRequirement), without the node-only Gt and Lt.
_valid_expression(expr) if {
	is_object(expr)
	expr.operator in _operators
	nodeaffinity.requirement_parses(expr)
}

# --- selector: matches the template's labels: what the checks read ------------

_template_labels := object.get(input, ["spec", "template", "metadata", "labels"], null)

# Only a valid selector is matched (its keys and values are then strings).
_checked_labels := _match_labels if _valid_selector

_checked_expressions := _match_expressions if _valid_selector

# labels.Set(template.Labels): a missing or non-mapping labels field is empty.
_label_set := _object(_template_labels)

# A matchLabels entry key: value holds when the template has the label key
# with that value. The requirements of matchExpressions match exactly as node
# selector requirements do (labels.Requirement): the library decides, the
# rule only words it.
_mismatches contains sprintf("%s=%q (the template %s)", [key, value, _has(key)]) if {
	some key, value in _checked_labels
	object.get(_label_set, key, null) != value
}

_mismatches contains sprintf("%s (the template %s)", [_requirement_text(expr), _has(expr.key)]) if {
	some expr in _checked_expressions
	not nodeaffinity.requirement_matches(expr, _label_set)
}

_requirement_text(expr) := sprintf("%s in (%s)", [expr.key, concat(", ", expr.values)]) if expr.operator == "In"

_requirement_text(expr) := sprintf("%s notin (%s)", [expr.key, concat(", ", expr.values)]) if expr.operator == "NotIn"

_requirement_text(expr) := sprintf("the label %q", [expr.key]) if expr.operator == "Exists"

_requirement_text(expr) := sprintf("no label %q", [expr.key]) if expr.operator == "DoesNotExist"

_has(key) := sprintf("has %s=%s", [key, _show(_label_set[key])]) if key in object.keys(_label_set)

_has(key) := sprintf("has no %q label", [key]) if not key in object.keys(_label_set)

# --- helpers ------------------------------------------------------------------

_object(x) := x if is_object(x)

_object(x) := {} if not is_object(x)

_array(x) := x if is_array(x)

_array(x) := [] if not is_array(x)

_show(x) := sprintf("%q", [x]) if is_string(x)

_show(x) := json.marshal(x) if not is_string(x)

_did_you_mean(op) := sprintf(" (did you mean %q?)", [o]) if {
	is_string(op)
	some o in _operators
	lower(o) == lower(op)
} else := ""
