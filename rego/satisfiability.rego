# METADATA
# description: |
#   Whether some node could meet a pod's node constraints, decided from the
#   manifest alone (no node inventory). nodeSelector and one required node
#   selector term (terms are ORed) become constraints per label key, nodeName
#   and matchFields constraints on the node name; a key is satisfiable when
#   the label's absence or some label value meets all its constraints. The
#   decision is exact for the upstream semantics (apimachinery labels
#   Requirement.Matches): In and NotIn compare strings, NotIn and DoesNotExist
#   hold for a missing label, Gt and Lt compare the label read with
#   strconv.ParseInt (leading zeros allowed; a label value is never negative,
#   at most 63 characters), and a term that is empty or does not pass
#   validation and parsing matches no node.
package dslint.lib.satisfiability

import data.dslint.lib.labels
import data.dslint.lib.nodes

operators := ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]

_max_int := 9223372036854775807

# 63 zeros: every zero-padded decimal form of a label value is a prefix of
# these followed by the number.
_zeros := "000000000000000000000000000000000000000000000000000000000000000"

# --- well-formed terms -----------------------------------------------------------

# values(req) are the values of a requirement ([] when absent or null); it
# is undefined when values is not a list.
values(req) := [] if {
	is_object(req)
	object.get(req, "values", null) == null
}

values(req) := vs if {
	vs := req.values
	is_array(vs)
}

# requirements(term, name) is the list term[name] (matchExpressions or
# matchFields), [] when absent or null, undefined when it is not a list.
requirements(term, name) := [] if {
	is_object(term)
	object.get(term, name, null) == null
}

requirements(term, name) := rs if {
	rs := term[name]
	is_array(rs)
}

# requirement_valid(req) is true when a matchExpressions requirement passes
# API validation (ValidateNodeSelectorRequirement) and parses for the
# scheduler (labels.NewRequirement): a valid label key, a known operator with
# the right number of values, label values, and an integer for Gt and Lt.
requirement_valid(req) if {
	is_object(req)
	labels.valid_key(req.key)
	vs := values(req)
	_count_fits(req.operator, vs)
	every v in vs {
		labels.valid_value(v)
	}
}

_count_fits(op, vs) if {
	op in {"In", "NotIn"}
	count(vs) > 0
}

_count_fits(op, vs) if {
	op in {"Exists", "DoesNotExist"}
	count(vs) == 0
}

_count_fits(op, vs) if {
	op in {"Gt", "Lt"}
	count(vs) == 1
	labels.parses_int64(vs[0])
}

# field_requirement_valid(req) is true for a valid matchFields requirement:
# key metadata.name, operator In or NotIn, exactly one value, a node name.
field_requirement_valid(req) if {
	is_object(req)
	req.key == "metadata.name"
	req.operator in {"In", "NotIn"}
	vs := values(req)
	count(vs) == 1
	valid_node_name(vs[0])
}

# valid_node_name(s) is true for a DNS-1123 subdomain (ValidateNodeName).
valid_node_name(s) if {
	is_string(s)
	count(s) <= 253
	regex.match(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, s)
}

# term_empty(term) is true for a term with no requirement at all (null, {},
# or empty lists): the API server accepts it and it matches no node.
term_empty(null)

term_empty(term) if {
	is_object(term)
	_none(object.get(term, "matchExpressions", null))
	_none(object.get(term, "matchFields", null))
}

_none(null)

_none([])

# term_valid(term) is true for a non-empty term whose requirements all pass
# validation and parse: only such a term can match a node.
term_valid(term) if {
	is_object(term)
	not term_empty(term)
	every req in requirements(term, "matchExpressions") {
		requirement_valid(req)
	}
	every req in requirements(term, "matchFields") {
		field_requirement_valid(req)
	}
}

# --- constraints -------------------------------------------------------------------

# label_constraints(spec, term) maps each label key that the nodeSelector or
# the term constrains to its constraints, the nodeSelector's first and then
# the term's in order. A constraint is {"op", "values", "origin"}; origin is
# {"in": "nodeSelector"} or {"in": "matchExpressions", "index": j}. A
# nodeSelector entry is the constraint In [value]; entries that are not valid
# label keys and values are left out (invalid-node-affinity reports them).
label_constraints(spec, term) := {key: cs |
	selector := _selector(spec)
	exprs := requirements(term, "matchExpressions")
	keys := object.keys(selector) | {r.key | some r in exprs}
	some key in keys
	cs := array.concat(
		[c | v := selector[key]; c := {"op": "In", "values": [v], "origin": {"in": "nodeSelector"}}],
		[c | some j, r in exprs; r.key == key; c := {"op": r.operator, "values": values(r), "origin": {"in": "matchExpressions", "index": j}}],
	)
}

_selector(spec) := {k: v |
	some k, v in nodes.node_selector(spec)
	labels.valid_key(k)
	labels.valid_value(v)
}

# field_constraints(spec, term) are the constraints on the node name:
# nodeName first ({"in": "nodeName"}), then the term's matchFields.
field_constraints(spec, term) := array.concat(
	[c | n := nodes.node_name(spec); n != ""; c := {"op": "In", "values": [n], "origin": {"in": "nodeName"}}],
	[c | some j, r in requirements(term, "matchFields"); is_object(r); c := {"op": r.operator, "values": values(r), "origin": {"in": "matchFields", "index": j}}],
)

# --- deciding -----------------------------------------------------------------------

# satisfiable_constraints(cs) is true when some node could meet every
# constraint of cs on one label (or on the node name): the label absent, or
# a value that every constraint admits.
satisfiable_constraints(cs) if {
	every c in cs {
		c.op in {"NotIn", "DoesNotExist"}
	}
}

satisfiable_constraints(cs) if {
	not _has(cs, "DoesNotExist")
	_some_value(cs)
}

_has(cs, op) if {
	some c in cs
	c.op == op
}

_bounded(cs) if _has(cs, "Gt")

_bounded(cs) if _has(cs, "Lt")

# With In: a value every In lists, no NotIn lists, within Gt and Lt.
_some_value(cs) if {
	_has(cs, "In")
	some v in intersection({{v | some v in c.values} | some c in cs; c.op == "In"})
	not v in _excluded(cs)
	_in_range(v, cs)
}

# Without In or bounds: infinitely many values, NotIn lists finitely many.
_some_value(cs) if {
	not _has(cs, "In")
	not _bounded(cs)
}

# Without In but with Gt or Lt: an integer within the bounds written in a
# form NotIn does not list.
_some_value(cs) if {
	not _has(cs, "In")
	_bounded(cs)
	_free_integer(_low(cs), _high(cs), _excluded(cs))
}

_excluded(cs) := {v | some c in cs; c.op == "NotIn"; some v in c.values}

_in_range(_, cs) if not _bounded(cs)

_in_range(v, cs) if {
	_bounded(cs)
	labels.parses_int64(v)
	n := labels.int_value(v)
	n >= _low(cs)
	n <= _high(cs)
}

# The smallest and largest integer a label value may hold under Gt and Lt.
_low(cs) := max({0} | {n | some c in cs; c.op == "Gt"; n := labels.int_value(c.values[0]) + 1})

_high(cs) := min({_max_int} | {n | some c in cs; c.op == "Lt"; n := labels.int_value(c.values[0]) - 1})

# Each integer has several label forms ("5", "05", ...): with more integers
# in range than excluded strings one is surely free, otherwise try them.
_free_integer(lo, hi, excluded) if {
	lo <= hi
	hi - lo >= count(excluded)
}

_free_integer(lo, hi, excluded) if {
	lo <= hi
	hi - lo < count(excluded)
	some n in numbers.range(lo, hi)
	s := sprintf("%d", [n])
	some pad in numbers.range(0, 63 - count(s))
	not concat("", [substring(_zeros, 0, pad), s]) in excluded
}

# term_satisfiable(spec, term) is true when some node could meet the
# nodeName, the nodeSelector and this required term together.
term_satisfiable(spec, term) if {
	term_valid(term)
	satisfiable_constraints(field_constraints(spec, term))
	every _, cs in label_constraints(spec, term) {
		satisfiable_constraints(cs)
	}
}

# satisfiable(spec) is true when some node could meet all node constraints of
# the pod spec: without required node affinity, the nodeSelector alone
# always can; with it, one of its terms must (a plainly satisfiable one, the
# common case, is found without the exact check).
satisfiable(spec) if not nodes.required(spec)

satisfiable(spec) if count(plainly_satisfiable_terms(spec)) > 0

satisfiable(spec) if {
	some term in nodes.required_terms(spec)
	term_satisfiable(spec, term)
}

# --- explaining ---------------------------------------------------------------------

# first_failure(cs) is the index of the constraint that completes the
# contradiction in an unsatisfiable list: the constraints before it can hold
# together, with it they cannot.
first_failure(cs) := min({n |
	some n in numbers.range(0, count(cs) - 1)
	not satisfiable_constraints(array.slice(cs, 0, n + 1))
})

# conflicts(spec, term) are the contradictions of a valid term (with the
# nodeName and nodeSelector), one per label key or the node name:
# {"key", "at": origin of the completing requirement, "constraints": the
# constraints up to it}. Empty for a satisfiable or an invalid term.
conflicts(spec, term) := {c |
	term_valid(term)
	some [key, cs] in _constraint_lists(spec, term)
	not satisfiable_constraints(cs)
	n := first_failure(cs)
	c := {"key": key, "at": cs[n].origin, "constraints": array.slice(cs, 0, n + 1)}
}

_constraint_lists(spec, term) := array.concat(
	[[key, cs] | some key, cs in label_constraints(spec, term)],
	[["metadata.name", field_constraints(spec, term)]],
)

# first_conflict(spec, term) is the conflict whose completing requirement
# comes first in the term (matchExpressions before matchFields).
first_conflict(spec, term) := c if {
	cs := conflicts(spec, term)
	first := min({_order(x.at) | some x in cs})
	some c in cs
	_order(c.at) == first
}

_order(origin) := origin.index if origin["in"] == "matchExpressions"

_order(origin) := 1000000 + origin.index if origin["in"] == "matchFields"

_order(origin) := -1 if origin["in"] in {"nodeSelector", "nodeName"}

# describe(key, c) renders one constraint the way it is written.
describe(key, c) := sprintf("nodeSelector %s=%q", [key, c.values[0]]) if c.origin["in"] == "nodeSelector"

describe(_, c) := sprintf("nodeName %q", [c.values[0]]) if c.origin["in"] == "nodeName"

describe(key, c) := sprintf("%s %s %v", [key, c.op, c.values]) if {
	c.origin["in"] in {"matchExpressions", "matchFields"}
	c.op in {"In", "NotIn"}
}

describe(key, c) := sprintf("%s %s", [key, c.op]) if {
	c.origin["in"] == "matchExpressions"
	c.op in {"Exists", "DoesNotExist"}
}

describe(key, c) := sprintf("%s %s %q", [key, c.op, c.values[0]]) if {
	c.origin["in"] == "matchExpressions"
	c.op in {"Gt", "Lt"}
}

# --- selected labels ------------------------------------------------------------------

# alternatives(spec) are the label constraints of each way a node can be
# chosen: the nodeSelector alone when there is no required node affinity,
# else the nodeSelector with each satisfiable required term.
alternatives(spec) := [label_constraints(spec, {})] if not nodes.required(spec)

alternatives(spec) := [label_constraints(spec, term) |
	some term in nodes.required_terms(spec)
	term_satisfiable(spec, term)
] if nodes.required(spec)

# never_selects(spec, key, value) is true when the pod can be scheduled
# somewhere, but never on a node labelled key=value. What surely selects
# key=value (_surely_selects) needs no exact check.
never_selects(spec, key, value) if {
	not _surely_selects(spec, key, value)
	alts := alternatives(spec)
	count(alts) > 0
	every alt in alts {
		not satisfiable_constraints(array.concat(object.get(alt, key, []), [{"op": "In", "values": [value]}]))
	}
}

# --- the common case, cheaply --------------------------------------------------------

# plain_node_constraints(spec) is true when the nodeSelector and the node
# affinity of the pod spec are absent or in the plain form almost every
# manifest uses: every key a valid label key (one without a prefix written
# as a DNS subdomain), every value a valid label value, no key, value or
# prefix longer than 63 characters; requirements only under matchExpressions,
# with operator In or NotIn and values, or Exists or DoesNotExist without;
# required terms that are not empty; preferences with a weight from 1 to 100.
# Such constraints hold nothing invalid (every term passes term_valid, and
# invalid-node-affinity finds nothing), and no term matches fields. Anything
# else (Gt, Lt, matchFields, unusual fields or keys) is not plain and goes
# through the exact checks.
#
# It is one check over the text of both, so the common case costs a handful
# of expressions: sprintf renders them as Rego does, keys sorted and strings
# quoted, e.g.
#   [{"kubernetes.io/os": "linux"}, {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": "In", "values": ["gpu"]}]}]}}]
# The first pattern limits each run of characters between quotes and "/" to
# 63: a label value, the name part of a key and (more strictly than the 253
# allowed) its prefix. The second is the grammar of the plain form:
#   text      [selector, affinity]
#   selector  null | {} | {"K": "V", ...}
#   affinity  null | {} | {"preferred...": [P, ...]} |
#             {"required...": {"nodeSelectorTerms": [T, ...]}} | both
#   P         {"preference": T, "weight": 1 to 100}
#   T         {"matchExpressions": [R, ...]}
#   R         {"key": "K", "operator": "In" or "NotIn", "values": ["V", ...]} |
#             {"key": "K", "operator": "Exists" or "DoesNotExist"}
#   K         D or D/N, where D is a DNS subdomain, [a-z0-9]+(-+[a-z0-9]+)*
#             joined by ".", and N is [A-Za-z0-9]+([-_.]+[A-Za-z0-9]+)*
#   V         N or empty
# Lists are matched as items each followed by ", " or the closing bracket,
# which for rendered text is exactly a list. Both patterns are "one-pass"
# (the next character always decides how to go on) and small enough for Go
# to match them in one linear scan, however long the text. The patterns are
# literals, as a rule holding one costs more than matching it; the tests
# (satisfiability_test.rego) hold an example of each form, and of what is
# not plain. Absent constraints are plain without the text.
#
# A fast path for three rules: invalid-node-affinity checks only the pods
# whose constraints are not plain, and satisfiable and never_selects
# (conflicting-node-constraints, toleration-selector-mismatch) first look for
# a plainly satisfiable term. Measured with opa bench on 41 objects of make
# bench's corpus (the least time of each object, the prepared pods aside):
# invalid-node-affinity took 17 us an object with it and 146 us without; the
# other two rules together 41 us with it and 57 us without.
plain_node_constraints(spec) if {
	object.get(spec, "nodeSelector", null) == null
	object.get(spec, ["affinity", "nodeAffinity"], null) == null
}

plain_node_constraints(spec) if {
	text := sprintf("%v", [[
		object.get(spec, "nodeSelector", null),
		object.get(spec, ["affinity", "nodeAffinity"], null),
	]])
	regex.match(`^[^"/]{0,63}(?:["/][^"/]{0,63})*$`, text)
	regex.match(`^\[(?:null|\{(?:\}|(?:"[a-z0-9]+(?:-+[a-z0-9]+)*(?:\.[a-z0-9]+(?:-+[a-z0-9]+)*)*(?:/[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?": "(?:[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?"(?:, |\}))+)), (?:null|\{(?:\}|"(?:preferredDuringSchedulingIgnoredDuringExecution": \[(?:\{"preference": \{"matchExpressions": \[(?:\{"key": "[a-z0-9]+(?:-+[a-z0-9]+)*(?:\.[a-z0-9]+(?:-+[a-z0-9]+)*)*(?:/[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?", "operator": "(?:(?:In|NotIn)", "values": \[(?:"(?:[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?"(?:, |\]))+|(?:Exists|DoesNotExist)")\}(?:, |\]))+\}, "weight": (?:1(?:00?|[1-9])?|[2-9][0-9]?)\}(?:, |\]))+(?:\}|, "requiredDuringSchedulingIgnoredDuringExecution": \{"nodeSelectorTerms": \[(?:\{"matchExpressions": \[(?:\{"key": "[a-z0-9]+(?:-+[a-z0-9]+)*(?:\.[a-z0-9]+(?:-+[a-z0-9]+)*)*(?:/[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?", "operator": "(?:(?:In|NotIn)", "values": \[(?:"(?:[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?"(?:, |\]))+|(?:Exists|DoesNotExist)")\}(?:, |\]))+\}(?:, |\]))+\}\})|requiredDuringSchedulingIgnoredDuringExecution": \{"nodeSelectorTerms": \[(?:\{"matchExpressions": \[(?:\{"key": "[a-z0-9]+(?:-+[a-z0-9]+)*(?:\.[a-z0-9]+(?:-+[a-z0-9]+)*)*(?:/[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?", "operator": "(?:(?:In|NotIn)", "values": \[(?:"(?:[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*)?"(?:, |\]))+|(?:Exists|DoesNotExist)")\}(?:, |\]))+\}(?:, |\]))+\}\})))\]$`, text)
}

# plainly_satisfiable_terms(spec) are the indexes of the required node
# selector terms of the pod spec that surely match some node: with
# plain_node_constraints every term is valid and has no matchFields, so a
# term whose keys are all different and none in the nodeSelector puts one
# satisfiable constraint on each label (In with values, NotIn, Exists or
# DoesNotExist), and term_satisfiable holds for it.
plainly_satisfiable_terms(spec) := {i |
	plain_node_constraints(spec)
	selector_keys := object.keys(nodes.node_selector(spec))
	some i, term in spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
	exprs := term.matchExpressions
	keys := {r.key | some r in exprs}
	count(keys) == count(exprs)
	count(keys & selector_keys) == 0
}

# _surely_selects(spec, key, value) is true when some node the constraint
# admits surely has the label key=value, so never_selects does not hold: a
# valid nodeSelector entry key=value (every alternative requires it, and
# the nodeSelector alone is satisfiable), or a plainly satisfiable term that
# requires key In values including value (its keys are not in the
# nodeSelector, so its alternative admits key=value).
_surely_selects(spec, key, value) if {
	nodes.node_selector(spec)[key] == value
	labels.valid_key(key)
	labels.valid_value(value)
}

_surely_selects(spec, key, value) if {
	some i in plainly_satisfiable_terms(spec)
	some req in nodes.required_terms(spec)[i].matchExpressions
	req.key == key
	req.operator == "In"
	value in req.values
}
