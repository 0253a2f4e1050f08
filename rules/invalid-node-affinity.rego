# METADATA
# title: Node selector or node affinity the API server rejects or that can never match
# description: |
#   nodeSelector and node affinity are checked by the API server when the
#   workload is applied (ValidateNodeSelector, ValidatePreferredSchedulingTerms):
#   a bad one fails the deploy, or, in a Deployment's pod template, leaves the
#   rollout stuck. Some mistakes pass validation and fail later, silently: an
#   empty node selector term {} matches no node, a Gt or Lt value that is not
#   an integer never matches, and an invalid label value in a preference makes
#   the scheduler fail to score nodes. This rule reports each of them at the
#   offending field: required nodeSelectorTerms that are empty or missing, an
#   empty term, In or NotIn without values, Exists or DoesNotExist with
#   values, Gt or Lt without exactly one integer value, an unknown operator
#   (operators are case-sensitive: "in" is rejected), matchFields on anything
#   but metadata.name, with an operator other than In or NotIn, or without
#   exactly one node name, label keys and values that are not valid labels, a
#   preference weight outside 1-100, values of the wrong type (true instead of
#   "true"), and requiredDuringSchedulingIgnoredDuringExecution written as a
#   list (the shape of the preferred form) instead of a mapping with
#   nodeSelectorTerms.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
#     description: Assigning Pods to Nodes, node affinity
#   - ref: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set
#     description: Labels, syntax and character set
#   - ref: https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#NodeAffinity
#     description: Pod API reference, NodeAffinity
# custom:
#   severity: error
#   intent: |
#     Fires on every nodeSelector or node-affinity field the API server
#     rejects, and on those it accepts that never match (an empty term, a
#     non-integer Gt/Lt value), at the offending field. A value YAML reads as a
#     boolean or number is quoted as written. Stays quiet for valid
#     constraints, however unusual, and for fragments; contradictions between
#     valid requirements are conflicting-node-constraints'.
#   remediation: |
#     Give In and NotIn at least one value, Exists and DoesNotExist none, Gt and
#     Lt exactly one integer; write operators exactly as In, NotIn, Exists,
#     DoesNotExist, Gt or Lt. Use matchFields only for metadata.name with In or
#     NotIn and one node name. Quote label values that look like booleans or
#     numbers. Write requiredDuringSchedulingIgnoredDuringExecution as a
#     mapping with nodeSelectorTerms, and give every preference a weight from 1
#     to 100.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: trainer
#     spec:
#       selector: {matchLabels: {app: trainer}}
#       template:
#         metadata: {labels: {app: trainer}}
#         spec:
#           containers: [{name: main, image: trainer:1.0}]
#           affinity:
#             nodeAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 nodeSelectorTerms:
#                   - matchExpressions:
#                       - key: nvidia.com/gpu.product
#                         operator: in
#                         values: [A100]
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: trainer
#     spec:
#       selector: {matchLabels: {app: trainer}}
#       template:
#         metadata: {labels: {app: trainer}}
#         spec:
#           containers: [{name: main, image: trainer:1.0}]
#           affinity:
#             nodeAffinity:
#               requiredDuringSchedulingIgnoredDuringExecution:
#                 nodeSelectorTerms:
#                   - matchExpressions:
#                       - key: nvidia.com/gpu.product
#                         operator: In
#                         values: [A100]
package dslint.rules["invalid-node-affinity"]

import data.dslint.lib.k8s
import data.dslint.lib.labels
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat

_operator_list := "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\" or \"Lt\""

# The findings are _report's. Many objects have neither a nodeSelector nor
# node affinity: each body below reads one of them where one kind of workload
# keeps its pod spec (a Pod, a PodTemplate, a CronJob, the other kinds:
# k8s.pod_spec_path), so that OPA's rule index skips the rule for those
# objects without evaluating anything. Almost all of the others are valid,
# and one cheap check clears the plain ones (sat.plain_node_constraints).
report contains finding if {
	_ = input.spec.nodeSelector
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.template.spec.nodeSelector
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.spec.jobTemplate.spec.template.spec.nodeSelector
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.spec.template.spec.nodeSelector
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.spec.affinity.nodeAffinity
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.template.spec.affinity.nodeAffinity
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.spec.jobTemplate.spec.template.spec.affinity.nodeAffinity
	not sat.plain_node_constraints
	some finding in _report
}

report contains finding if {
	_ = input.spec.template.spec.affinity.nodeAffinity
	not sat.plain_node_constraints
	some finding in _report
}

# A few more checks clear the rest of the valid ones (_suspect); only
# suspect ones go through the detailed checks (_findings), which say what is
# wrong and where.
_report contains finding if {
	_suspect
	some finding in _findings
}

_suspect if {
	selector := k8s.pod_spec.nodeSelector
	selector != null
	not _plain_selector(selector)
}

_suspect if _node_affinity

# --- nodeSelector -------------------------------------------------------------------

_selector_path := array.concat(k8s.pod_spec_path, ["nodeSelector"])

_findings contains result.fail(_selector_path, msg) if {
	selector := k8s.pod_spec.nodeSelector
	selector != null
	not is_object(selector)
	msg := sprintf("nodeSelector must be a mapping of node label keys to values, not %s%s", [_show(selector), _list_hint(selector)])
}

_list_hint(x) := "; write \"key: value\" pairs without \"- \"" if is_array(x)

_list_hint(x) := "" if not is_array(x)

_findings contains result.fail(array.concat(_selector_path, [key]), msg) if {
	some key, _ in _selector
	problem := labels.key_problem(key)
	msg := sprintf("nodeSelector key %q is not a valid label key: %s", [key, problem])
}

_findings contains result.fail(array.concat(_selector_path, [key]), msg) if {
	some key, value in _selector
	value != null
	not is_string(value)
	msg := sprintf("nodeSelector value %s of %q is not a string (YAML reads it as %s); quote it (\"%s\")", [result.as_written(value), key, result.read_as(value), result.as_written(value)])
}

_findings contains result.fail(array.concat(_selector_path, [key]), msg) if {
	some key, value in _selector
	is_string(value)
	problem := labels.value_problem(value)
	msg := sprintf("nodeSelector value %q of %q is not a valid label value: %s%s", [value, key, problem, _placeholder_note(value)])
}

# Example manifests ship placeholders such as <node-name> or ${NODE}.
_placeholder_note(value) := " (it looks like a placeholder left in the manifest)" if {
	regex.match(`^<[^<>]+>$|\$\{?[A-Za-z_]`, value)
} else := ""

# _selector is the nodeSelector when it is a mapping that is not plainly valid.
_selector := s if {
	s := k8s.pod_spec.nodeSelector
	is_object(s)
	not _plain_selector(s)
}

_plain_selector(s) if {
	is_object(s)
	every key, value in s {
		labels.valid_key(key)
		labels.valid_value(value)
	}
}

# --- required node affinity ------------------------------------------------------------

_affinity_path := array.concat(k8s.pod_spec_path, ["affinity", "nodeAffinity"])

_required_path := array.concat(_affinity_path, ["requiredDuringSchedulingIgnoredDuringExecution"])

_terms_path := array.concat(_required_path, ["nodeSelectorTerms"])

_preferred_path := array.concat(_affinity_path, ["preferredDuringSchedulingIgnoredDuringExecution"])

# _node_affinity is the node affinity when it is not plainly valid; the
# detailed checks of affinity all start from it.
_node_affinity := na if {
	na := k8s.pod_spec.affinity.nodeAffinity
	is_object(na)
	not _plain_affinity(na)
}

_plain_affinity(na) if {
	_plain_required(object.get(na, "requiredDuringSchedulingIgnoredDuringExecution", null))
	_plain_preferred(object.get(na, "preferredDuringSchedulingIgnoredDuringExecution", null))
}

_plain_required(null)

_plain_required(r) if {
	terms := r.nodeSelectorTerms
	is_array(terms)
	count(terms) > 0
	every term in terms {
		sat.term_valid(term)
		not _has_any(term, _requirement_fields)
	}
}

_plain_preferred(null)

_plain_preferred(items) if {
	is_array(items)
	every item in items {
		_weight_ok(item.weight)
		not _has_any(item, {"matchExpressions", "matchFields", "nodeSelectorTerms"})
		_plain_preference(object.get(item, "preference", null))
	}
}

_plain_preference(null)

_plain_preference(p) if {
	exprs := sat.requirements(p, "matchExpressions")
	fields := sat.requirements(p, "matchFields")
	every req in exprs {
		sat.requirement_valid(req)
	}
	every req in fields {
		sat.field_requirement_valid(req)
	}
}

_required := r if {
	r := _node_affinity.requiredDuringSchedulingIgnoredDuringExecution
	r != null
}

# The list form belongs to preferredDuringSchedulingIgnoredDuringExecution;
# it is a common copy-and-paste slip (it even sat in a Kubernetes docs example).
_findings contains result.fail(_required_path, msg) if {
	is_array(_required)
	msg := sprintf("requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not a list: the API server rejects the pod%s", [_preferred_hint(_required)])
}

_preferred_hint(items) := "; list items with weight and preference belong under preferredDuringSchedulingIgnoredDuringExecution" if {
	some item in items
	is_object(item)
	_has_any(item, {"weight", "preference"})
} else := "; write it as nodeSelectorTerms: [{matchExpressions: [...]}]"

_findings contains result.fail(_required_path, msg) if {
	required := _required
	not is_array(required)
	not is_object(required)
	msg := sprintf("requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not %s", [_show(required)])
}

_findings contains result.fail(_terms_path, msg) if {
	is_object(_required)
	object.get(_required, "nodeSelectorTerms", null) in {null, []}
	msg := "required node affinity must have at least one node selector term: the API server rejects an empty nodeSelectorTerms (and it would match no node)"
}

_findings contains result.fail(_terms_path, msg) if {
	terms := _required.nodeSelectorTerms
	terms != null
	not is_array(terms)
	msg := sprintf("nodeSelectorTerms must be a list of node selector terms, not %s; write \"- matchExpressions: ...\"", [_show(terms)])
}

_terms := ts if {
	ts := _required.nodeSelectorTerms
	is_array(ts)
}

_findings contains result.fail(array.concat(_terms_path, [i]), msg) if {
	some i, term in _terms
	term != null
	not is_object(term)
	msg := sprintf("node selector term must be a mapping with matchExpressions or matchFields, not %s", [_show(term)])
}

_requirement_fields := {"key", "operator", "values"}

# A requirement written straight into the term instead of under
# matchExpressions: the API server rejects the unknown fields (strict field
# validation) or drops them, leaving an empty term.
_findings contains result.fail(array.concat(_terms_path, [i]), msg) if {
	some i, term in _terms
	is_object(term)
	_has_any(term, _requirement_fields)
	msg := sprintf("node selector term has %s directly: put the requirement under matchExpressions (as written, the API server rejects the unknown fields or drops them, leaving a term that matches no node)", [_fields_of(term, _requirement_fields)])
}

_findings contains result.fail(array.concat(_terms_path, [i]), msg) if {
	some i, term in _terms
	sat.term_empty(term)
	not _has_any(term, _requirement_fields)
	msg := sprintf("node selector term is empty and matches no node: the API server accepts it, %s", [_empty_term_effect])
}

_empty_term_effect := "but with no other term no node can run these pods; add matchExpressions or matchFields" if count(_terms) == 1

_empty_term_effect := "and as terms are ORed it adds nothing; remove it" if count(_terms) > 1

# --- preferred node affinity -------------------------------------------------------------

_findings contains result.fail(_preferred_path, msg) if {
	preferred := _node_affinity.preferredDuringSchedulingIgnoredDuringExecution
	preferred != null
	not is_array(preferred)
	msg := sprintf("preferredDuringSchedulingIgnoredDuringExecution must be a list of weighted preferences (weight and preference), not %s%s", [_show(preferred), _required_hint(preferred)])
}

_required_hint(x) := "; nodeSelectorTerms belong under requiredDuringSchedulingIgnoredDuringExecution" if {
	is_object(x)
	"nodeSelectorTerms" in object.keys(x)
} else := ""

_preferred := ps if {
	ps := _node_affinity.preferredDuringSchedulingIgnoredDuringExecution
	is_array(ps)
}

_findings contains result.fail(array.concat(_preferred_path, [k]), msg) if {
	some k, item in _preferred
	not is_object(item)
	msg := sprintf("preferred scheduling term must be a mapping with weight and preference, not %s", [_show(item)])
}

_findings contains result.fail(array.concat(_preferred_path, [k, "weight"]), msg) if {
	some k, item in _preferred
	is_object(item)
	object.get(item, "weight", null) == null
	msg := "preferred scheduling term needs a weight from 1 to 100: without one the weight is 0, which the API server rejects"
}

_findings contains result.fail(array.concat(_preferred_path, [k, "weight"]), msg) if {
	some k, item in _preferred
	weight := item.weight
	is_number(weight)
	not _weight_ok(weight)
	msg := sprintf("preference weight %v must be in the range 1-100", [weight])
}

_findings contains result.fail(array.concat(_preferred_path, [k, "weight"]), msg) if {
	some k, item in _preferred
	weight := item.weight
	weight != null
	not is_number(weight)
	msg := sprintf("preference weight %s must be an integer from 1 to 100; remove the quotes", [_show(weight)])
}

_weight_ok(w) if {
	is_number(w)
	w == floor(w)
	w >= 1
	w <= 100
}

_findings contains result.fail(array.concat(_preferred_path, [k]), msg) if {
	some k, item in _preferred
	is_object(item)
	_has_any(item, {"matchExpressions", "matchFields", "nodeSelectorTerms"})
	msg := sprintf("preferred scheduling term has %s directly: put matchExpressions or matchFields under preference", [_fields_of(item, {"matchExpressions", "matchFields", "nodeSelectorTerms"})])
}

_findings contains result.fail(array.concat(_preferred_path, [k, "preference"]), msg) if {
	some k, item in _preferred
	preference := item.preference
	preference != null
	not is_object(preference)
	msg := sprintf("preference must be a mapping with matchExpressions or matchFields, not %s", [_show(preference)])
}

# --- requirement lists ---------------------------------------------------------------------

# _selector_terms are the node selector terms of the required affinity and
# of every preference, with their paths.
_selector_terms contains {"path": array.concat(_terms_path, [i]), "term": term, "preferred": false} if {
	some i, term in _terms
	is_object(term)
}

_selector_terms contains {"path": array.concat(_preferred_path, [k, "preference"]), "term": term, "preferred": true} if {
	some k, item in _preferred
	term := item.preference
	is_object(term)
}

_findings contains result.fail(array.concat(t.path, [name]), msg) if {
	some t in _selector_terms
	some name in ["matchExpressions", "matchFields"]
	list := t.term[name]
	list != null
	not is_array(list)
	msg := sprintf("%s must be a list of requirements, not %s; write \"- key: ...\"", [name, _show(list)])
}

# _requirements are the requirements of every selector term: {"path", "req",
# "fields": true for matchFields, "preferred": true inside a preference}.
_requirements contains {"path": array.concat(t.path, [name, j]), "req": req, "fields": _is_fields[name], "preferred": t.preferred} if {
	some t in _selector_terms
	some name in ["matchExpressions", "matchFields"]
	some j, req in sat.requirements(t.term, name)
}

_findings contains result.fail(r.path, msg) if {
	some r in _requirements
	not is_object(r.req)
	msg := sprintf("requirement must be a mapping with key, operator and values, not %s", [_show(r.req)])
}

_findings contains result.fail(array.concat(r.path, ["values"]), msg) if {
	some r in _requirements
	values := r.req.values
	values != null
	not is_array(values)
	msg := sprintf("values must be a list, not %s%s", [_show(values), _values_hint(values)])
}

_values_hint(v) := sprintf("; write values: [%q]", [v]) if is_string(v)

_values_hint(v) := "" if not is_string(v)

_findings contains result.fail(array.concat(r.path, ["values", k]), msg) if {
	some r in _requirements
	some k, value in sat.values(r.req)
	not is_string(value)
	msg := sprintf("value %s is not a string (YAML reads it as %s); quote it (\"%s\")", [result.as_written(value), result.read_as(value), result.as_written(value)])
}

_is_fields := {"matchExpressions": false, "matchFields": true}

# --- matchExpressions ------------------------------------------------------------------------

_expressions contains r if {
	some r in _requirements
	not r.fields
	is_object(r.req)
}

_findings contains result.fail(array.concat(r.path, ["key"]), msg) if {
	some r in _expressions
	object.get(r.req, "key", null) in {null, ""}
	msg := "node affinity requirement needs a key: the node label to match"
}

_findings contains result.fail(array.concat(r.path, ["key"]), msg) if {
	some r in _expressions
	key := r.req.key
	not key in {null, ""}
	problem := labels.key_problem(key)
	msg := sprintf("node affinity key %s is not a valid label key: %s", [_show(key), problem])
}

_findings contains result.fail(array.concat(r.path, ["operator"]), msg) if {
	some r in _expressions
	object.get(r.req, "operator", null) in {null, ""}
	msg := sprintf("node affinity requirement needs an operator: %s", [_operator_list])
}

_findings contains result.fail(array.concat(r.path, ["operator"]), msg) if {
	some r in _expressions
	op := r.req.operator
	not op in {null, ""}
	not op in sat.operators
	msg := sprintf("node affinity operator %s is not a valid selector operator: use %s%s", [_show(op), _operator_list, _did_you_mean(op, sat.operators)])
}

_findings contains result.fail(array.concat(r.path, ["values"]), msg) if {
	some r in _expressions
	op := r.req.operator
	op in {"In", "NotIn"}
	count(sat.values(r.req)) == 0
	msg := sprintf("values must be specified when operator is %q: list the label values to %s", [op, _in_purpose[op]])
}

_in_purpose := {"In": "match", "NotIn": "exclude"}

_findings contains result.fail(array.concat(r.path, ["values"]), msg) if {
	some r in _expressions
	op := r.req.operator
	op in {"Exists", "DoesNotExist"}
	count(sat.values(r.req)) > 0
	msg := sprintf("values must be empty when operator is %q: %s", [op, _exists_hint[op]])
}

_exists_hint := {
	"Exists": "it matches any value of the label; remove the values, or use operator \"In\" to match only them",
	"DoesNotExist": "it matches nodes without the label; remove the values, or use operator \"NotIn\" to exclude only them",
}

_findings contains result.fail(array.concat(r.path, ["values"]), msg) if {
	some r in _expressions
	op := r.req.operator
	op in {"Gt", "Lt"}
	n := count(sat.values(r.req))
	n != 1
	msg := sprintf("operator %q needs exactly one value, the integer to compare the label with, not %d", [op, n])
}

# The API server never checks that a Gt/Lt value is an integer.
_findings contains result.fail(array.concat(r.path, ["values", 0]), msg) if {
	some r in _expressions
	op := r.req.operator
	op in {"Gt", "Lt"}
	[value] := sat.values(r.req)
	labels.valid_value(value)
	not labels.parses_int64(value)
	msg := sprintf("value %q of operator %q is not an integer: the API server accepts it, but %s", [value, op, _silent_failure(r.preferred)])
}

_findings contains result.fail(array.concat(r.path, ["values", k]), msg) if {
	some r in _expressions
	some k, value in sat.values(r.req)
	is_string(value)
	problem := labels.value_problem(value)
	msg := sprintf("node affinity value %q is not a valid label value: %s%s%s", [value, problem, _placeholder_note(value), _preference_note(r.preferred)])
}

_silent_failure(false) := "the requirement never matches, so its node selector term matches no node"

_silent_failure(true) := "the scheduler then fails to score nodes with this preference, and the pod is not scheduled while more than one node fits"

# Preferences may hold invalid label values as far as the API server is
# concerned; the scheduler then fails on them.
_preference_note(false) := ""

_preference_note(true) := sprintf(" (the API server accepts it in a preference, but %s)", [_silent_failure(true)])

# Operators are case-sensitive; a few other spellings are common too.
_did_you_mean(op, options) := sprintf(" (did you mean %q?)", [o]) if {
	is_string(op)
	some o in options
	lower(o) == lower(op)
} else := sprintf(" (did you mean %q?)", [o]) if {
	is_string(op)
	o := _operator_aliases[lower(op)]
	o in options
} else := ""

_operator_aliases := {
	"=": "In",
	"==": "In",
	"equal": "In",
	"equals": "In",
	"!=": "NotIn",
	"notequal": "NotIn",
	"notequals": "NotIn",
	"exist": "Exists",
	"notexist": "DoesNotExist",
	"notexists": "DoesNotExist",
	"doesnotexists": "DoesNotExist",
	">": "Gt",
	"greaterthan": "Gt",
	"<": "Lt",
	"lessthan": "Lt",
}

# --- matchFields --------------------------------------------------------------------------

_field_requirements contains r if {
	some r in _requirements
	r.fields
	is_object(r.req)
}

_findings contains result.fail(array.concat(r.path, ["key"]), msg) if {
	some r in _field_requirements
	object.get(r.req, "key", null) in {null, ""}
	msg := "matchFields requirement needs key \"metadata.name\", the only node field"
}

_findings contains result.fail(array.concat(r.path, ["key"]), msg) if {
	some r in _field_requirements
	key := r.req.key
	not key in {null, "", "metadata.name"}
	msg := sprintf("matchFields key %s is not a valid field selector key: the only node field is \"metadata.name\"%s", [_show(key), _label_hint(key)])
}

_label_hint(key) := "; select node labels with matchExpressions" if {
	labels.valid_key(key)
	not startswith(key, "metadata.")
} else := ""

_findings contains result.fail(array.concat(r.path, ["operator"]), msg) if {
	some r in _field_requirements
	object.get(r.req, "operator", null) in {null, ""}
	msg := "matchFields requirement needs operator \"In\" or \"NotIn\""
}

_findings contains result.fail(array.concat(r.path, ["operator"]), msg) if {
	some r in _field_requirements
	op := r.req.operator
	not op in {null, "", "In", "NotIn"}
	msg := sprintf("matchFields operator %s is not supported: use \"In\" or \"NotIn\"%s", [_show(op), _did_you_mean(op, ["In", "NotIn"])])
}

_findings contains result.fail(array.concat(r.path, ["values"]), msg) if {
	some r in _field_requirements
	op := r.req.operator
	op in {"In", "NotIn"}
	n := count(sat.values(r.req))
	n != 1
	msg := sprintf("matchFields needs exactly one value with operator %q, not %d: %s", [op, n, _one_name_hint[op]])
}

_one_name_hint := {
	"In": "to allow several nodes, write one node selector term per node name (terms are ORed)",
	"NotIn": "to exclude several nodes, write one matchFields requirement per node name (requirements are ANDed)",
}

_findings contains result.fail(array.concat(r.path, ["values", k]), msg) if {
	some r in _field_requirements
	r.req.key == "metadata.name"
	some k, value in sat.values(r.req)
	is_string(value)
	not sat.valid_node_name(value)
	msg := sprintf("matchFields value %q is not a valid node name: it must be a lowercase DNS-1123 subdomain (lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character, at most 253 characters)%s", [value, _placeholder_note(value)])
}

# --- helpers ------------------------------------------------------------------------------

_has_any(obj, names) if {
	is_object(obj)
	some name in names
	_ = obj[name]
}

_fields_of(obj, names) := _and(sort([sprintf("%q", [name]) | some name in names; name in object.keys(obj)]))

_and(items) := items[0] if count(items) == 1

_and(items) := concat(" and ", [concat(", ", array.slice(items, 0, count(items) - 1)), items[count(items) - 1]]) if count(items) > 1

_show(x) := sprintf("%q", [x]) if is_string(x)

_show(x) := "a mapping" if is_object(x)

_show(x) := "a list" if is_array(x)

_show(x) := json.marshal(x) if {
	not is_string(x)
	not is_object(x)
	not is_array(x)
}
