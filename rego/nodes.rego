# METADATA
# description: |
#   Node constraints of a pod spec: nodeName, nodeSelector and required node
#   affinity (terms ORed, requirements within a term ANDed, an empty term
#   matching no node), and whether they pin pods to a dedicated pool or only
#   to generic properties every node has (OS, architecture, zone, instance
#   type).
package dslint.lib.nodes

# is_generic_label is true for a node label that says nothing about a pool:
# labels every node carries (constraining on them alone does not keep pods
# off any particular pool), written as literals, which cost nothing to
# build.
is_generic_label(key) if key in {
	"kubernetes.io/os",
	"kubernetes.io/arch",
	"beta.kubernetes.io/os",
	"beta.kubernetes.io/arch",
	"node.kubernetes.io/instance-type",
	"beta.kubernetes.io/instance-type",
}

is_generic_label(key) if strings.any_prefix_match(key, ["topology.kubernetes.io/", "failure-domain.beta.kubernetes.io/"])

# node_name is the pod's spec.nodeName, "" when unset.
node_name(spec) := n if {
	n := spec.nodeName
	is_string(n)
} else := ""

# node_selector is the pod's spec.nodeSelector, {} when unset.
node_selector(spec) := s if {
	s := spec.nodeSelector
	is_object(s)
} else := {}

# required is the required node affinity (a NodeSelector), undefined when unset.
required(spec) := r if {
	r := spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
	r != null
}

# required_terms are the nodeSelectorTerms of the required node affinity
# (a null affinity has none).
required_terms(spec) := ts if {
	ts := spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
	is_array(ts)
} else := []

# has_constraint is true when the pod spec restricts nodes at all: a
# nodeName, a nodeSelector that is not empty, or a required affinity. (The
# first two read the fields as node_name and node_selector do, without the
# calls.)
has_constraint(spec) if {
	name := spec.nodeName
	is_string(name)
	name != ""
}

has_constraint(spec) if {
	selector := spec.nodeSelector
	is_object(selector)
	count(selector) > 0
}

has_constraint(spec) if required(spec)

# pins_pool is true when the constraint keeps pods on particular nodes: a
# nodeName, a nodeSelector on a label that is not generic, or a required
# affinity whose every term does so (terms are ORed, so one generic term lets
# pods onto every node).
pins_pool(spec) if {
	name := spec.nodeName
	is_string(name)
	name != ""
}

pins_pool(spec) if {
	selector := spec.nodeSelector
	is_object(selector)
	some key, _ in selector
	not is_generic_label(key)
}

pins_pool(spec) if {
	terms := required_terms(spec)
	count(terms) > 0
	every term in terms {
		_term_pins(term)
	}
}

# A request or limit of an extended resource (nvidia.com/gpu, amd.com/gpu,
# google.com/tpu, any vendor's) keeps pods on the nodes that advertise it:
# the scheduler's NodeResourcesFit filter (reference §10.3) rejects every
# other node. That is the GPU pattern Kubernetes itself completes: the
# ExtendedResourceToleration admission plugin adds the toleration of the
# resource's taint, and nothing else.
pins_pool(spec) if count(extended_resources(spec)) > 0

# A claim of dynamic resource allocation (spec.resourceClaims) keeps pods on
# the nodes where the claimed devices are: the DynamicResources filter
# rejects every other node, as NodeResourcesFit does for an extended
# resource.
pins_pool(spec) if count(_list(object.get(spec, "resourceClaims", []))) > 0

# extended_resources(spec) are the names of the extended resources the
# pod's containers or init containers request or limit (a quantity of 0
# asks for nothing). Extended resources have a domain prefix outside
# kubernetes.io (IsExtendedResourceName); cpu, memory, hugepages-* and
# ephemeral-storage are native.
extended_resources(spec) := {name |
	some field in ["containers", "initContainers"]
	some c in _list(spec[field])
	some kind in ["requests", "limits"]
	some name, quantity in c.resources[kind]
	is_extended_resource(name)
	not quantity in {0, "0"}
}

# is_extended_resource(name) mirrors IsExtendedResourceName: a name with a
# domain prefix that is not kubernetes.io's, and not a "requests." quota name.
is_extended_resource(name) if {
	contains(name, "/")
	not contains(name, "kubernetes.io/")
	not startswith(name, "requests.")
}

# A term pins when one of its requirements admits only nodes with a specific
# non-generic label (In, Exists, Gt, Lt) or a specific node name.
_term_pins(term) if {
	some req in _list(term.matchExpressions)
	req.operator in {"In", "Exists", "Gt", "Lt"}
	not is_generic_label(req.key)
}

_term_pins(term) if {
	some req in _list(term.matchFields)
	req.key == "metadata.name"
	req.operator == "In"
}

# An empty term matches no node at all.
_term_pins(term) if {
	count(_list(object.get(term, "matchExpressions", []))) == 0
	count(_list(object.get(term, "matchFields", []))) == 0
}

# expressions(term) maps the index of each matchExpressions entry of a
# node selector term to it: only mappings, keeping their indexes (a term
# or list that is not one has none).
expressions(term) := {j: e |
	is_object(term)
	some j, e in _list(object.get(term, "matchExpressions", []))
	is_object(e)
}

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)
