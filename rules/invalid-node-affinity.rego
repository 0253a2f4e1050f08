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
#   fixable: true
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
#     to 100. dslint fix quotes a nodeSelector value or a requirement's value
#     that YAML reads as a boolean or number; the other problems have more
#     than one repair and are left to you.
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
import data.dslint.lib.nodes
import data.dslint.lib.result
import data.dslint.lib.satisfiability as sat

# Only a pod whose node constraints are not all in the plain form that
# almost every manifest uses (sat.plain_node_constraints) can hold a
# mistake: _pods are those pods. Each check (_problems) is about one field
# of their pod specs and reports at it; a _problem function says what is
# wrong with the field, one definition per kind of mistake.
_pods := [pod | some pod in k8s.pods; not sat.plain_node_constraints(pod.spec)]

# Most objects have no such pod, and then the checks are not looked at:
# evaluating the sixteen checks for every object doubled the rule's cost
# (opa bench on 41 objects of make bench's corpus, the least time of each:
# 34 us an object instead of 17).
report contains finding if {
	count(_pods) > 0
	some finding in _problems
}

# --- nodeSelector -------------------------------------------------------------------

_problems contains result.fail(k8s.pod_path(pod, ["nodeSelector"]), msg) if {
	some pod in _pods
	selector := pod.spec.nodeSelector
	selector != null
	not is_object(selector)
	msg := sprintf("nodeSelector must be a mapping of node label keys to values, not %s%s", [_show(selector), _list_hint(selector)])
}

_problems contains result.fail(k8s.pod_path(pod, ["nodeSelector", key]), msg) if {
	some pod in _pods
	some key, _ in nodes.node_selector(pod.spec)
	not labels.valid_key(key)
	msg := sprintf("nodeSelector key %q is not a valid label key: %s", [key, labels.key_problem(key)])
}

_problems contains _quoted(result.fail(k8s.pod_path(pod, ["nodeSelector", key]), msg), value) if {
	some pod in _pods
	some key, value in nodes.node_selector(pod.spec)
	msg := _selector_value_problem(key, value)
}

# --- required node affinity ------------------------------------------------------------

_problems contains result.fail(k8s.pod_path(pod, _required_field), msg) if {
	some pod in _pods
	msg := _required_problem(_required(pod))
}

_problems contains result.fail(k8s.pod_path(pod, _terms_field), msg) if {
	some pod in _pods
	required := _required(pod)
	is_object(required)
	msg := _terms_problem(object.get(required, "nodeSelectorTerms", null))
}

_problems contains result.fail(k8s.pod_path(pod, array.concat(_terms_field, [i])), msg) if {
	some pod in _pods
	terms := _terms(pod)
	some i, term in terms
	msg := _term_problem(term, terms)
}

# --- preferred node affinity -------------------------------------------------------------

_problems contains result.fail(k8s.pod_path(pod, _preferred_field), msg) if {
	some pod in _pods
	preferred := _node_affinity(pod).preferredDuringSchedulingIgnoredDuringExecution
	preferred != null
	not is_array(preferred)
	msg := sprintf("preferredDuringSchedulingIgnoredDuringExecution must be a list of weighted preferences (weight and preference), not %s%s", [_show(preferred), _required_hint(preferred)])
}

_problems contains result.fail(k8s.pod_path(pod, array.concat(_preferred_field, [k])), msg) if {
	some pod in _pods
	some k, item in _preferred(pod)
	msg := _item_problem(item)
}

_problems contains result.fail(k8s.pod_path(pod, array.concat(_preferred_field, [k, "weight"])), msg) if {
	some pod in _pods
	some k, item in _preferred(pod)
	is_object(item)
	msg := _weight_problem(object.get(item, "weight", null))
}

_problems contains result.fail(k8s.pod_path(pod, array.concat(_preferred_field, [k, "preference"])), msg) if {
	some pod in _pods
	some k, item in _preferred(pod)
	preference := item.preference
	preference != null
	not is_object(preference)
	msg := sprintf("preference must be a mapping with matchExpressions or matchFields, not %s", [_show(preference)])
}

# --- requirements ----------------------------------------------------------------------------

_problems contains result.fail(k8s.pod_path(pod, array.concat(t.field, [name])), msg) if {
	some pod in _pods
	some t in _selector_terms(pod)
	some name in ["matchExpressions", "matchFields"]
	list := t.term[name]
	list != null
	not is_array(list)
	msg := sprintf("%s must be a list of requirements, not %s; write \"- key: ...\"", [name, _show(list)])
}

_problems contains result.fail(k8s.pod_path(pod, r.field), msg) if {
	some pod in _pods
	some r in _requirements(pod)
	not is_object(r.req)
	msg := sprintf("requirement must be a mapping with key, operator and values, not %s", [_show(r.req)])
}

# The checks of the key, operator and values of a requirement: matchFields
# (r.fields) select the node by name, matchExpressions by its labels.
_problems contains result.fail(k8s.pod_path(pod, array.concat(r.field, ["key"])), msg) if {
	some pod in _pods
	some r in _requirements(pod)
	is_object(r.req)
	msg := _key_problem(r.fields, object.get(r.req, "key", null))
}

_problems contains result.fail(k8s.pod_path(pod, array.concat(r.field, ["operator"])), msg) if {
	some pod in _pods
	some r in _requirements(pod)
	is_object(r.req)
	msg := _operator_problem(r.fields, object.get(r.req, "operator", null))
}

_problems contains result.fail(k8s.pod_path(pod, array.concat(r.field, ["values"])), msg) if {
	some pod in _pods
	some r in _requirements(pod)
	is_object(r.req)
	msg := _values_problem(r.fields, r.req)
}

_problems contains _quoted(result.fail(k8s.pod_path(pod, array.concat(r.field, ["values", k])), msg), value) if {
	some pod in _pods
	some r in _requirements(pod)
	values := sat.values(r.req)
	some k, value in values
	msg := _value_problem(r, values, value)
}

# --- nodeSelector: what the checks read and say -----------------------------------

_list_hint(x) := "; write \"key: value\" pairs without \"- \"" if is_array(x)

_list_hint(x) := "" if not is_array(x)

_selector_value_problem(key, value) := msg if {
	value != null
	not is_string(value)
	msg := sprintf("nodeSelector value %s of %q is not a string (YAML reads it as %s); quote it (\"%s\")", [result.as_written(value), key, result.read_as(value), result.as_written(value)])
} else := msg if {
	is_string(value)
	not labels.valid_value(value)
	msg := sprintf("nodeSelector value %q of %q is not a valid label value: %s%s", [value, key, labels.value_problem(value), _placeholder_note(value)])
}

# Example manifests ship placeholders such as <node-name> or ${NODE}.
_placeholder_note(value) := " (it looks like a placeholder left in the manifest)" if {
	regex.match(`^<[^<>]+>$|\$\{?[A-Za-z_]`, value)
} else := ""

# --- required node affinity: what the checks read and say -------------------------

_affinity_field := ["affinity", "nodeAffinity"]

_required_field := array.concat(_affinity_field, ["requiredDuringSchedulingIgnoredDuringExecution"])

_terms_field := array.concat(_required_field, ["nodeSelectorTerms"])

_preferred_field := array.concat(_affinity_field, ["preferredDuringSchedulingIgnoredDuringExecution"])

# _node_affinity(pod) is the pod's node affinity when it is a mapping; the
# checks of affinity all start from it.
_node_affinity(pod) := na if {
	na := pod.spec.affinity.nodeAffinity
	is_object(na)
}

_required(pod) := r if {
	r := _node_affinity(pod).requiredDuringSchedulingIgnoredDuringExecution
	r != null
}

# The list form belongs to preferredDuringSchedulingIgnoredDuringExecution;
# it is a common copy-and-paste slip (it even sat in a Kubernetes docs example).
_required_problem(required) := sprintf("requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not a list: the API server rejects the pod%s", [_preferred_hint(required)]) if {
	is_array(required)
} else := sprintf("requiredDuringSchedulingIgnoredDuringExecution must be a mapping with nodeSelectorTerms, not %s", [_show(required)]) if {
	not is_object(required)
}

_preferred_hint(items) := "; list items with weight and preference belong under preferredDuringSchedulingIgnoredDuringExecution" if {
	some item in items
	is_object(item)
	_has_any(item, {"weight", "preference"})
} else := "; write it as nodeSelectorTerms: [{matchExpressions: [...]}]"

_terms_problem(terms) := "required node affinity must have at least one node selector term: the API server rejects an empty nodeSelectorTerms (and it would match no node)" if {
	terms in {null, []}
} else := sprintf("nodeSelectorTerms must be a list of node selector terms, not %s; write \"- matchExpressions: ...\"", [_show(terms)]) if {
	not is_array(terms)
}

_terms(pod) := ts if {
	ts := _required(pod).nodeSelectorTerms
	is_array(ts)
}

_requirement_fields := {"key", "operator", "values"}

# A requirement written straight into the term instead of under
# matchExpressions: the API server rejects the unknown fields (strict field
# validation) or drops them, leaving an empty term.
_term_problem(term, terms) := sprintf("node selector term has %s directly: put the requirement under matchExpressions (as written, the API server rejects the unknown fields or drops them, leaving a term that matches no node)", [_fields_of(term, _requirement_fields)]) if {
	_has_any(term, _requirement_fields)
} else := sprintf("node selector term is empty and matches no node: the API server accepts it, %s", [_empty_term_effect(terms)]) if {
	sat.term_empty(term)
} else := sprintf("node selector term must be a mapping with matchExpressions or matchFields, not %s", [_show(term)]) if {
	not is_object(term)
}

_empty_term_effect(terms) := "but with no other term no node can run these pods; add matchExpressions or matchFields" if count(terms) == 1

_empty_term_effect(terms) := "and as terms are ORed it adds nothing; remove it" if count(terms) > 1

# --- preferred node affinity: what the checks read and say ------------------------

_required_hint(x) := "; nodeSelectorTerms belong under requiredDuringSchedulingIgnoredDuringExecution" if {
	is_object(x)
	"nodeSelectorTerms" in object.keys(x)
} else := ""

_preferred(pod) := ps if {
	ps := _node_affinity(pod).preferredDuringSchedulingIgnoredDuringExecution
	is_array(ps)
}

_preference_fields := {"matchExpressions", "matchFields", "nodeSelectorTerms"}

_item_problem(item) := sprintf("preferred scheduling term must be a mapping with weight and preference, not %s", [_show(item)]) if {
	not is_object(item)
} else := sprintf("preferred scheduling term has %s directly: put matchExpressions or matchFields under preference", [_fields_of(item, _preference_fields)]) if {
	_has_any(item, _preference_fields)
}

_weight_problem(null) := "preferred scheduling term needs a weight from 1 to 100: without one the weight is 0, which the API server rejects"

_weight_problem(weight) := sprintf("preference weight %v must be in the range 1-100", [weight]) if {
	is_number(weight)
	not _weight_ok(weight)
}

_weight_problem(weight) := sprintf("preference weight %s must be an integer from 1 to 100; remove the quotes", [_show(weight)]) if {
	weight != null
	not is_number(weight)
}

_weight_ok(w) if {
	w == floor(w)
	w >= 1
	w <= 100
}

# --- requirements: what the checks read and say -----------------------------------

# _selector_terms(pod) are the node selector terms of the required affinity
# and of every preference, with their fields in the pod spec.
_selector_terms(pod) := {{"field": array.concat(_terms_field, [i]), "term": term, "preferred": false} |
	some i, term in _terms(pod)
	is_object(term)
} | {{"field": array.concat(_preferred_field, [k, "preference"]), "term": term, "preferred": true} |
	some k, item in _preferred(pod)
	term := item.preference
	is_object(term)
}

# _requirements(pod) are the requirements of every selector term of the
# pod: {"field", "req", "fields": true for matchFields, "preferred": true
# inside a preference}.
_requirements(pod) := {{"field": array.concat(t.field, [name, j]), "req": req, "fields": _is_fields[name], "preferred": t.preferred} |
	some t in _selector_terms(pod)
	some name in ["matchExpressions", "matchFields"]
	some j, req in sat.requirements(t.term, name)
}

_is_fields := {"matchExpressions": false, "matchFields": true}

_key_problem(false, key) := "node affinity requirement needs a key: the node label to match" if {
	key in {null, ""}
} else := sprintf("node affinity key %s is not a valid label key: %s", [_show(key), labels.key_problem(key)]) if {
	not labels.valid_key(key)
}

_key_problem(true, key) := "matchFields requirement needs key \"metadata.name\", the only node field" if {
	key in {null, ""}
} else := sprintf("matchFields key %s is not a valid field selector key: the only node field is \"metadata.name\"%s", [_show(key), _label_hint(key)]) if {
	key != "metadata.name"
}

_label_hint(key) := "; select node labels with matchExpressions" if {
	labels.valid_key(key)
	not startswith(key, "metadata.")
} else := ""

_operator_list := "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\" or \"Lt\""

_operator_problem(false, op) := sprintf("node affinity requirement needs an operator: %s", [_operator_list]) if {
	op in {null, ""}
} else := sprintf("node affinity operator %s is not a valid selector operator: use %s%s", [_show(op), _operator_list, _did_you_mean(op, sat.operators)]) if {
	not op in sat.operators
}

_operator_problem(true, op) := "matchFields requirement needs operator \"In\" or \"NotIn\"" if {
	op in {null, ""}
} else := sprintf("matchFields operator %s is not supported: use \"In\" or \"NotIn\"%s", [_show(op), _did_you_mean(op, ["In", "NotIn"])]) if {
	not op in {"In", "NotIn"}
}

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

_values_problem(_, req) := sprintf("values must be a list, not %s%s", [_show(values), _values_hint(values)]) if {
	values := req.values
	values != null
	not is_array(values)
}

_values_problem(false, req) := sprintf("values must be specified when operator is %q: list the label values to %s", [op, _in_purpose[op]]) if {
	op := req.operator
	op in {"In", "NotIn"}
	count(sat.values(req)) == 0
}

_values_problem(false, req) := sprintf("values must be empty when operator is %q: %s", [op, _exists_hint[op]]) if {
	op := req.operator
	op in {"Exists", "DoesNotExist"}
	count(sat.values(req)) > 0
}

_values_problem(false, req) := sprintf("operator %q needs exactly one value, the integer to compare the label with, not %d", [op, n]) if {
	op := req.operator
	op in {"Gt", "Lt"}
	n := count(sat.values(req))
	n != 1
}

_values_problem(true, req) := sprintf("matchFields needs exactly one value with operator %q, not %d: %s", [op, n, _one_name_hint[op]]) if {
	op := req.operator
	op in {"In", "NotIn"}
	n := count(sat.values(req))
	n != 1
}

_values_hint(v) := sprintf("; write values: [%q]", [v]) if is_string(v)

_values_hint(v) := "" if not is_string(v)

_in_purpose := {"In": "match", "NotIn": "exclude"}

_exists_hint := {
	"Exists": "it matches any value of the label; remove the values, or use operator \"In\" to match only them",
	"DoesNotExist": "it matches nodes without the label; remove the values, or use operator \"NotIn\" to exclude only them",
}

_one_name_hint := {
	"In": "to allow several nodes, write one node selector term per node name (terms are ORed)",
	"NotIn": "to exclude several nodes, write one matchFields requirement per node name (requirements are ANDed)",
}

_value_problem(_, _, value) := sprintf("value %s is not a string (YAML reads it as %s); quote it (\"%s\")", [result.as_written(value), result.read_as(value), result.as_written(value)]) if {
	not is_string(value)
}

_value_problem(r, _, value) := sprintf("node affinity value %q is not a valid label value: %s%s%s", [value, labels.value_problem(value), _placeholder_note(value), _preference_note(r.preferred)]) if {
	not r.fields
	is_string(value)
	not labels.valid_value(value)
}

# The API server never checks that a Gt/Lt value is an integer.
_value_problem(r, values, value) := sprintf("value %q of operator %q is not an integer: the API server accepts it, but %s", [value, op, _silent_failure(r.preferred)]) if {
	not r.fields
	count(values) == 1
	op := r.req.operator
	op in {"Gt", "Lt"}
	labels.valid_value(value)
	not labels.parses_int64(value)
}

_value_problem(r, _, value) := sprintf("matchFields value %q is not a valid node name: it must be a lowercase DNS-1123 subdomain (lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character, at most 253 characters)%s", [value, _placeholder_note(value)]) if {
	r.fields
	r.req.key == "metadata.name"
	is_string(value)
	not sat.valid_node_name(value)
}

_silent_failure(false) := "the requirement never matches, so its node selector term matches no node"

_silent_failure(true) := "the scheduler then fails to score nodes with this preference, and the pod is not scheduled while more than one node fits"

# Preferences may hold invalid label values as far as the API server is
# concerned; the scheduler then fails on them.
_preference_note(false) := ""

_preference_note(true) := sprintf(" (the API server accepts it in a preference, but %s)", [_silent_failure(true)])

# --- helpers ------------------------------------------------------------------------------

# _quoted(f, value) is finding f about value with its one right repair when
# YAML read value as a boolean or a number (true, yes, 8): the string as
# written, which the finding's message asks for. A null, a mapping or a list
# has no text to quote, and a string value's problem no one right repair.
_quoted(f, value) := result.with_fix(f, [result.quote(f.path)]) if {
	result.quotable(value)
} else := f

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
