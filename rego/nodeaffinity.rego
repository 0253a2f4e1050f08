# METADATA
# description: |
#   Node selectors and required node affinity with the exact upstream
#   semantics (component-helpers scheduling/corev1/nodeaffinity and
#   apimachinery labels, v0.36): nodeSelectorTerms are ORed and an empty list
#   matches no node; the requirements of a term (matchExpressions and
#   matchFields) are ANDed; a term with no requirements matches nothing; a
#   term that fails to parse (labels.NewRequirement) matches nothing while the
#   other terms still can (the lazy-error selector the scheduler uses);
#   matchFields read metadata.name only and are skipped for a node without a
#   name. Missing or null fields read as the zero values of the Go structs;
#   a value of the wrong JSON type never matches.
package dslint.lib.nodeaffinity

import data.dslint.lib.labels
import data.dslint.lib.nodes

# --- matchExpressions (labels.NewRequirement / Requirement.Matches) --------

# requirement_parses(req) is true when labels.NewRequirement accepts the
# matchExpression req (after the node operator is mapped to a selector
# operator): a valid label key; a case-sensitive operator In, NotIn, Exists,
# DoesNotExist, Gt or Lt; at least one value for In/NotIn, none for
# Exists/DoesNotExist, exactly one that strconv.ParseInt accepts for Gt/Lt;
# and every value a valid label value (so "-1" and "+5" fail for Gt/Lt too).
requirement_parses(req) if {
	labels.valid_key(_string(req, "key"))
	vals := _array(req, "values")
	_arity_ok(_string(req, "operator"), vals)
	every v in vals {
		labels.valid_value(v)
	}
}

_arity_ok(op, vals) if {
	op in {"In", "NotIn"}
	count(vals) > 0
}

_arity_ok(op, vals) if {
	op in {"Exists", "DoesNotExist"}
	count(vals) == 0
}

_arity_ok(op, vals) if {
	op in {"Gt", "Lt"}
	count(vals) == 1
	labels.parses_int64(vals[0])
}

# requirement_matches(req, node_labels) is Requirement.Matches on a label map:
# In needs the label with one of the values; NotIn holds when the label is
# absent or has none of the values; Exists and DoesNotExist test presence;
# Gt and Lt need the label, both it and the single value parsing with
# strconv.ParseInt (leading zeros and "+" allowed), and label > or < value.
# It does not check that req parses: term_matches does.
requirement_matches(req, node_labels) if {
	_string(req, "operator") == "In"
	_label_in_values(req, node_labels)
}

requirement_matches(req, node_labels) if {
	_string(req, "operator") == "NotIn"
	not _label_in_values(req, node_labels)
}

requirement_matches(req, node_labels) if {
	_string(req, "operator") == "Exists"
	_has_label(node_labels, _string(req, "key"))
}

requirement_matches(req, node_labels) if {
	_string(req, "operator") == "DoesNotExist"
	key := _string(req, "key")
	not _has_label(node_labels, key)
}

requirement_matches(req, node_labels) if {
	_string(req, "operator") == "Gt"
	[label, value] := _int_operands(req, node_labels)
	label > value
}

requirement_matches(req, node_labels) if {
	_string(req, "operator") == "Lt"
	[label, value] := _int_operands(req, node_labels)
	label < value
}

# _int_operands is [label, value] as integers for Gt/Lt, undefined when the
# label is absent or either side does not parse.
_int_operands(req, node_labels) := [labels.int_value(label), labels.int_value(vals[0])] if {
	label := _label(node_labels, _string(req, "key"))
	labels.parses_int64(label)
	vals := _array(req, "values")
	count(vals) == 1
	labels.parses_int64(vals[0])
}

# _label_in_values is true when the node has the label and its value is one of
# the requirement's values. (A helper, because OPA hoists calls nested in a
# negated expression out of the negation: "not f(x) in y" fails, rather than
# holds, when f(x) is undefined; open-policy-agent/opa#7558.)
_label_in_values(req, node_labels) if _label(node_labels, _string(req, "key")) in _array(req, "values")

# _label is the value of label key on the node, undefined when absent.
_label(node_labels, key) := node_labels[key] if is_object(node_labels)

# _has_label is true when the node has label key, whatever its value.
_has_label(node_labels, key) if {
	is_object(node_labels)
	key in object.keys(node_labels)
}

# --- matchFields (fields selectors on metadata.name) ------------------------

# field_requirement_parses(req) is true when a matchFields entry parses: In
# or NotIn with exactly one value. Neither the key nor the value is checked.
field_requirement_parses(req) if {
	is_string(_string(req, "key"))
	_string(req, "operator") in {"In", "NotIn"}
	vals := _array(req, "values")
	count(vals) == 1
	is_string(vals[0])
}

# field_requirement_matches(req, node_name) compares the node's field req
# names with its single value: metadata.name is node_name, any other key
# reads as "". In means equal, NotIn means not equal.
field_requirement_matches(req, node_name) if {
	_string(req, "operator") == "In"
	_array(req, "values")[0] == _node_field(_string(req, "key"), node_name)
}

field_requirement_matches(req, node_name) if {
	_string(req, "operator") == "NotIn"
	_array(req, "values")[0] != _node_field(_string(req, "key"), node_name)
}

_node_field("metadata.name", node_name) := node_name

_node_field(key, _) := "" if key != "metadata.name"

# --- terms, selectors, pods -------------------------------------------------

# term_matches(term, node) is true when the NodeSelectorTerm selects the Node
# object: the term has at least one requirement, every requirement parses,
# every matchExpression matches the node's labels, and every matchField
# matches its name (matchFields are skipped when the node has no name).
term_matches(term, node) if {
	exprs := _array(term, "matchExpressions")
	fields := _array(term, "matchFields")
	count(exprs) + count(fields) > 0
	_term_parses(exprs, fields)
	_fields_match(fields, node)
	every req in exprs {
		requirement_matches(req, node_labels(node))
	}
}

_term_parses(exprs, fields) if {
	every req in exprs {
		requirement_parses(req)
	}
	every req in fields {
		field_requirement_parses(req)
	}
}

# _fields_match is true when the term has no matchFields, the node has no
# name (extractNodeFields then yields no fields and the scheduler skips
# them), or every matchField matches the name.
_fields_match(fields, _) if count(fields) == 0

_fields_match(_, node) if node_name(node) == ""

_fields_match(fields, node) if {
	name := node_name(node)
	name != ""
	every req in fields {
		field_requirement_matches(req, name)
	}
}

# node_selector_matches(ns, node) is LazyErrorNodeSelector.Match with the
# error ignored: some term of the NodeSelector matches the node. An absent,
# null or empty nodeSelectorTerms matches no node.
node_selector_matches(ns, node) if {
	some term in _array(ns, "nodeSelectorTerms")
	term_matches(term, node)
}

# pod_matches_node(pod_spec, node) is GetRequiredNodeAffinity(pod).Match:
# every spec.nodeSelector entry is a node label with exactly that value (an
# absent or empty map places no constraint), and the required node affinity,
# when set and not null, matches.
pod_matches_node(pod_spec, node) if {
	required := required_node_affinity(pod_spec)
	selector_matches(required, node)
	affinity_matches(required, node)
}

# required_node_affinity(pod_spec) is the pod's node constraint made ready
# for matching many nodes, the way GetRequiredNodeAffinity prepares it once
# per pod: {"selector": the nodeSelector} and, when the pod has a required
# node affinity, "terms": the nodeSelectorTerms that have a requirement and
# parse, each as {"exprs", "fields"} (the others match no node).
required_node_affinity(pod_spec) := {"selector": nodes.node_selector(pod_spec), "terms": _parsed_terms(nodes.required(pod_spec))} if {
	_requires_affinity(pod_spec)
} else := {"selector": nodes.node_selector(pod_spec)}

_parsed_terms(ns) := [{"exprs": [_prepared(req) | some req in exprs], "fields": fields} |
	some term in _array(ns, "nodeSelectorTerms")
	exprs := _array(term, "matchExpressions")
	fields := _array(term, "matchFields")
	count(exprs) + count(fields) > 0
	_term_parses(exprs, fields)
]

# _prepared is a matchExpression that parses, with its fields read once and
# its values as a set.
_prepared(req) := {
	"key": _string(req, "key"),
	"operator": _string(req, "operator"),
	"values": _array(req, "values"),
	"set": {v | some v in _array(req, "values")},
}

# selector_matches(required, node) is the nodeSelector half of the match,
# affinity_matches(required, node) the required-affinity half.
selector_matches(required, node) if _selector_matches(required.selector, node_labels(node))

affinity_matches(required, _) if not required.terms

affinity_matches(required, node) if {
	labels := node_labels(node)
	some term in required.terms
	every req in term.exprs {
		_prepared_matches(req.operator, req, labels)
	}
	_fields_match(term.fields, node)
}

# _prepared_matches is requirement_matches on a prepared requirement, one
# body per operator (the first argument), for the many nodes of a cluster.
_prepared_matches("In", req, labels) if labels[req.key] in req.set

_prepared_matches("NotIn", req, labels) if not _labelled_in(req, labels)

_prepared_matches("Exists", req, labels) if _ = labels[req.key]

_prepared_matches("DoesNotExist", req, labels) if not _has_key(req, labels)

_prepared_matches("Gt", req, labels) if requirement_matches(req, labels)

_prepared_matches("Lt", req, labels) if requirement_matches(req, labels)

_labelled_in(req, labels) if labels[req.key] in req.set

_has_key(req, labels) if _ = labels[req.key]

_selector_matches(selector, node_labels) if {
	every key, value in selector {
		_label(node_labels, key) == value
	}
}

_requires_affinity(pod_spec) if nodes.required(pod_spec) != null

# node_labels(node) is the Node object's metadata.labels, {} when unset.
node_labels(node) := ls if {
	ls := _field(_field(node, "metadata"), "labels")
	is_object(ls)
} else := {}

# node_name(node) is the Node object's metadata.name, "" when unset; it is
# undefined for a name that is not a string, so such a node matches no term
# with matchFields.
node_name(node) := _string(_field(node, "metadata"), "name")

# --- JSON as the Go structs decode it ---------------------------------------

# _string(x, name) is the field of object x, "" when absent or null;
# undefined when it is not a string.
_string(x, name) := v if {
	v := _field(x, name)
	is_string(v)
} else := "" if {
	_field(x, name) == null
}

# _array(x, name) is the list field of object x, [] when absent or null;
# undefined when it is not an array.
_array(x, name) := v if {
	v := _field(x, name)
	is_array(v)
} else := [] if {
	_field(x, name) == null
}

_field(x, name) := object.get(x, name, null) if is_object(x)

_field(x, _) := null if not is_object(x)
