# METADATA
# title: Host port taken by two workloads on the same nodes
# description: |
#   A host port can be bound by one pod per node. A DaemonSet runs a pod on
#   every node it may, so any other workload that uses the same host port,
#   protocol and host IP on the same nodes collides with it: the scheduler
#   keeps the second pod Pending on those nodes (node(s) didn't have free
#   ports), or the DaemonSet never gets its pod there. A hostIP of "" or
#   0.0.0.0 collides with every IP. With hostNetwork: true every container port
#   is a host port (the API server sets hostPort to containerPort). With a
#   node inventory, two workloads share nodes when the nodes their pods can
#   land on overlap. Without one, when neither is pinned to a pool (no node
#   constraint, or only generic labels such as kubernetes.io/os and NotIn or
#   DoesNotExist exclusions) and some node can meet both constraints
#   (kubernetes.io/os=linux meets no constraint, not kubernetes.io/os=windows),
#   or when both have the very same constraint. One workload written in
#   several files or forms is one workload, and the message names each other
#   workload once, with the file and line where it is written.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/configuration/overview/#services
#     description: Configuration best practices, hostPort
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/
#     description: DaemonSet
# custom:
#   severity: error
#   intent: |
#     Fires on two different workloads, at least one of them a DaemonSet,
#     that bind the same host port and protocol on overlapping host IPs and
#     can run on one node. Stays quiet about one workload written more than
#     once (alternative install files of a product, such as its DaemonSet
#     and Deployment forms, or a base without a namespace and its rendering
#     into one): facts are about the same workload when the namespaces are
#     equal or one is missing, and the names are equal or the same image
#     binds the port, whatever the kinds. Stays quiet about two workloads neither of which is a
#     DaemonSet: the scheduler places their pods apart. With a node inventory
#     it compares the nodes each workload's pods can land on, taints
#     included. Without one it does not guess where pools are: a workload
#     pinned to a pool (nodeName, or a nodeSelector or required affinity that
#     needs a label that is not generic, kubernetes.io/hostname included)
#     meets only workloads constrained the very same way, while workloads
#     with no constraint, or only generic ones (OS, architecture, zone,
#     region, instance type) and NotIn/DoesNotExist exclusions, meet wherever
#     their generic constraints agree; taints are not considered.
#   remediation: |
#     Give one of the workloads another host port, bind them to different
#     host IPs, or keep them on different nodes with node constraints. Prefer
#     a Service over a host port where you can.
#   bad: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: node-exporter
#     spec:
#       selector: {matchLabels: {app: node-exporter}}
#       template:
#         metadata: {labels: {app: node-exporter}}
#         spec:
#           hostNetwork: true
#           containers:
#             - name: exporter
#               image: quay.io/prometheus/node-exporter:v1.8.2
#               ports: [{containerPort: 9100}]
#     ---
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: custom-metrics
#     spec:
#       selector: {matchLabels: {app: custom-metrics}}
#       template:
#         metadata: {labels: {app: custom-metrics}}
#         spec:
#           containers:
#             - name: metrics
#               image: registry.example.com/metrics:1.0
#               ports: [{containerPort: 8080, hostPort: 9100}]
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
#           hostNetwork: true
#           containers:
#             - name: exporter
#               image: quay.io/prometheus/node-exporter:v1.8.2
#               ports: [{containerPort: 9100}]
#     ---
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: custom-metrics
#     spec:
#       selector: {matchLabels: {app: custom-metrics}}
#       template:
#         metadata: {labels: {app: custom-metrics}}
#         spec:
#           containers:
#             - name: metrics
#               image: registry.example.com/metrics:1.0
#               ports: [{containerPort: 8080, hostPort: 9101}]
package dslint.rules["hostport-conflict"]

import data.dslint.lib.k8s
import data.dslint.lib.nodes
import data.dslint.lib.placement
import data.dslint.lib.satisfiability

# facts: one per host port of each pod of the workload in input, grouped
# by port and protocol so that only candidates meet in aggregate (_fact).
facts contains _fact(pod, i, j, p.hostPort, _owner) if {
	some pod in k8s.pods
	some i, c in pod.spec.containers
	some j, p in c.ports
	is_number(p.hostPort)
	p.hostPort > 0
}

# With hostNetwork the API server defaults an unset (0) hostPort to the
# containerPort.
facts contains _fact(pod, i, j, p.containerPort, _owner) if {
	some pod in k8s.pods
	pod.spec.hostNetwork == true
	some i, c in pod.spec.containers
	some j, p in c.ports
	object.get(p, "hostPort", 0) == 0
	is_number(p.containerPort)
	p.containerPort > 0
}

# _fact(pod, i, j, host_port, owner) is the fact about host_port, bound by
# port j of container i of the pod of owner (_owner).
_fact(pod, i, j, host_port, owner) := {
	"group": sprintf("%d/%s", [host_port, protocol]),
	"path": k8s.pod_path(pod, ["containers", i, "ports", j]),
	"hostPort": host_port,
	"protocol": protocol,
	"hostIP": object.get(p, "hostIP", ""),
	"daemonset": pod.daemonset,
	"nodes": _nodes(pod.spec),
	"label": concat("", [k8s.workload_label(pod), _namespace_note]),
	"workload": array.concat(owner, [_image(pod.spec, i)]),
	"eligible": _eligible(pod),
} if {
	p := pod.spec.containers[i].ports[j]
	protocol := object.get(p, "protocol", "TCP")
}

# _owner is the workload the facts are about: kind, namespace and name.
_owner := [input.kind, _namespace, k8s.name]

# _image(spec, i) is the image of container i, which binds the port.
_image(spec, i) := img if {
	img := spec.containers[i].image
	is_string(img)
} else := ""

# _nodes is what says, without an inventory, which nodes the pods can land
# on. ["generic", alternatives] for pods that are not pinned to a pool
# (nodes.pins_pool: no constraint, or one on generic labels and exclusions
# only) and can land somewhere: each alternative is one way a node can be
# chosen (satisfiability.alternatives), reduced to its generic labels, as
# {label: [constraint]}; such pods share nodes with each other where two
# alternatives can hold on one node. ["exact", constraint] otherwise: pods
# pinned to a pool, or that no node takes, share nodes only with pods
# constrained the very same way.
_nodes(spec) := ["generic", alternatives] if {
	not nodes.pins_pool(spec)
	alternatives := sort({_generic(alt) | some alt in satisfiability.alternatives(spec)})
	count(alternatives) > 0
} else := ["exact", {
	"nodeName": nodes.node_name(spec),
	"nodeSelector": nodes.node_selector(spec),
	"required": object.get(spec, ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"], null),
}]

# _generic(alt) keeps the constraints of an alternative on generic labels,
# without where each was written, and under one name for the labels the
# kubelet sets twice (beta.kubernetes.io/os is kubernetes.io/os). The
# exclusions (NotIn, DoesNotExist) on other labels that a pod not pinned to
# a pool may have hold on every node without that label.
_generic(alt) := {label: cs |
	some key, _ in alt
	nodes.is_generic_label(key)
	label := object.get(_label_aliases, key, key)
	cs := sort({{"op": c.op, "values": sort(c.values)} |
		some other, list in alt
		object.get(_label_aliases, other, other) == label
		some c in list
	})
}

_label_aliases := {
	"beta.kubernetes.io/os": "kubernetes.io/os",
	"beta.kubernetes.io/arch": "kubernetes.io/arch",
	"beta.kubernetes.io/instance-type": "node.kubernetes.io/instance-type",
	"failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
}

# With a node inventory, the nodes the pod can land on; null without.
default _eligible(_) := null

_eligible(pod) := placement.pod_eligible_nodes(pod) if placement.has_inventory

# _namespace is the object's namespace, "" when it has none.
default _namespace := ""

_namespace := ns if {
	ns := input.metadata.namespace
	is_string(ns)
}

default _namespace_note := ""

_namespace_note := sprintf(" in namespace %q", [_namespace]) if _namespace != ""

# aggregate: a host port that another workload of the run also takes on the
# same nodes, when at least one of the two is a DaemonSet. Two facts collide
# (_collide) when they come from different workloads (_same_workload), one
# is a DaemonSet's, their host IPs overlap and their pods can land on the
# same nodes (_share_nodes).
# The message names each other workload once, where it is first written
# (_others).
# Hundreds of facts can share a group, so each fact does not scan its
# group: the facts are indexed once by group, nodes, DaemonSet or not and
# host IP (_bucket); the facts with the same four values collide with the
# same others, listed once for them (_view); and each fact takes its own
# workload away from that list (_excluded).
aggregate contains {"fact": a.id, "message": msg} if {
	not _placed
	some key, group in _meeting
	some a in group
	sig := [key, a.nodes, a.daemonset, a.hostIP]
	view := _views[sig]
	excluded := _excluded(a, key)
	n := count(view) - excluded
	n > 0
	names := [_named(e) |
		some e in array.slice(view, 0, 3 + excluded)
		not _same_workload(a.workload, e[1])
	]
	msg := sprintf("hostPort %d/%s%s of %s is also used by %s on the same nodes: only one pod per node can bind it, so %s", [
		a.hostPort, a.protocol, _ip_note(a.hostIP), a.label, _list(array.slice(names, 0, 3), n), _consequence(a),
	])
}

# With a node inventory, two workloads collide where the nodes their pods
# can land on overlap. Few workloads take host ports, so each fact is
# compared with the others of its group (same port and protocol).
aggregate contains {"fact": a.id, "message": msg} if {
	_placed
	some group in _meeting
	some a in group
	others := _others([_entry(b) |
		some b in group
		not _same_workload(a.workload, b.workload)
		true in {a.daemonset, b.daemonset}
		_ips_overlap(a.hostIP, b.hostIP)
		_nodes_overlap(a.eligible, b.eligible)
	])
	count(others) > 0
	names := [_named(e) | some e in array.slice(others, 0, 3)]
	msg := sprintf("hostPort %d/%s%s of %s is also used by %s on nodes both can land on: only one pod per node can bind it, so %s", [
		a.hostPort, a.protocol, _ip_note(a.hostIP), a.label, _list(names, count(others)), _consequence(a),
	])
}

_run_groups := input.groups["hostport-conflict"]

# The groups with facts that can meet.
_meeting[key] := group if {
	some key, group in _run_groups
	count(group) > 1
}

_placed if {
	some group in _run_groups
	some f in group
	f.eligible != null
}

# Eligible nodes are {"pools": [pool index], "nodes": ["pool/node index"]}
# (placement.pod_eligible_nodes).
_nodes_overlap(a, b) if {
	some p in a.pools
	p in b.pools
}

_nodes_overlap(a, b) if {
	some n in a.nodes
	n in b.nodes
}

_nodes_overlap(a, b) if {
	some n in a.nodes
	split(n, "/")[0] in b.pools
}

_nodes_overlap(a, b) if {
	some n in b.nodes
	split(n, "/")[0] in a.pools
}

# _bucket[[group, nodes, daemonset, hostIP]] holds the facts with these
# values as entries (_entry).
_bucket[[key, f.nodes, f.daemonset, f.hostIP]] contains _entry(f) if {
	some key, group in _meeting
	some f in group
}

# The multi-value rules in full, each built in one pass over the facts: a
# lookup by key into a rule would evaluate the rule again for that key.
_index := {
	"buckets": _bucket,
	"nodes": _node_classes,
	"daemonsets": _dss,
	"ips": _ips,
	"by_name": _by_name,
	"by_image": _by_image,
	"facts": _facts,
}

# The nodes values present per group, and the daemonset values and host
# IPs present per group and nodes value.
_node_classes[key] contains f.nodes if {
	some key, group in _meeting
	some f in group
}

_dss[[key, f.nodes]] contains f.daemonset if {
	some key, group in _meeting
	some f in group
}

_ips[[key, f.nodes]] contains f.hostIP if {
	some key, group in _meeting
	some f in group
}

# _views[[group, nodes, daemonset, hostIP]] lists the workloads that a fact
# with these values collides with, its own included, as _others does.
_views[sig] := _view(sig) if {
	some key, group in _meeting
	some f in group
	sig := [key, f.nodes, f.daemonset, f.hostIP]
}

_view([key, nodes, ds, ip]) := _others([e |
	some other in _sharing_nodes(key, nodes)
	at := [key, other]
	some d in _daemonset_classes(ds, _index.daemonsets[at])
	some i in _ip_classes(ip, _index.ips[at])
	some e in _index.buckets[[key, other, d, i]]
])

# An entry is a fact as the message names it: [label, workload, file, line].
_entry(f) := [f.label, f.workload, object.get(f, "file", ""), object.get(f, "line", 0)]

# _others(entries) are the workloads of the entries, sorted by label, once
# each: where it is first written (several files or forms can write one
# workload, one workload can take a port twice), and not without a namespace
# when the entries name it with one (the base is the same workload as its
# renderings). Entries are grouped by namespace and name, then by namespace
# and image (_same_workload), each by sorting, so that a long list costs no
# pairwise comparison.
_others(entries) := sort([x[1] |
	some i, x in by_image
	_first_key(by_image, i)
	not _named_with_namespace(x[1][1], namespaced)
]) if {
	namespaced := {[w[0], w[2]] | some [_, w, _, _] in entries; w[1] != ""}
	by_name := sort([[[e[1][1], e[1][2]], e] | some e in entries])
	by_image := sort([[[x[1][1][1], _image_key(x[1])], x[1]] |
		some i, x in by_name
		_first_key(by_name, i)
	])
}

_first_key(_, 0)

_first_key(xs, i) if xs[i - 1][0] != xs[i][0]

# Entries without an image are not grouped by it: the entry is its own key.
_image_key(e) := e[1][3] if e[1][3] != ""

_image_key(e) := e if e[1][3] == ""

_named_with_namespace(w, namespaced) if {
	w[1] == ""
	[w[0], w[2]] in namespaced
}

# _named(entry) names the workload and where it is.
_named([label, _, file, line]) := sprintf("%s (%s:%d)", [label, file, line]) if file != ""

_named([label, _, "", _]) := label

# _sharing_nodes(key, nodes) are the nodes values of the group that share
# nodes with nodes.
_sharing_nodes(_, ["exact", c]) := [["exact", c]]

_sharing_nodes(key, ["generic", alts]) := [other |
	some other in _index.nodes[key]
	_share_nodes(["generic", alts], other)
]

# Without an inventory, two workloads share nodes when both are constrained
# the very same way, or neither is pinned to a pool and some node can meet
# both constraints: nodes exist with every combination of generic labels,
# and without the labels exclusions are about.
_share_nodes(x, x)

_share_nodes(["generic", xs], ["generic", ys]) if {
	some x in xs
	some y in ys
	every label in object.keys(x) | object.keys(y) {
		satisfiability.satisfiable_constraints(array.concat(object.get(x, label, []), object.get(y, label, [])))
	}
}

# A DaemonSet's fact collides with any other, another only with a
# DaemonSet's.
_daemonset_classes(true, present) := present

_daemonset_classes(ds, present) := [true | true in present] if ds != true

_ip_classes(ip, present) := present if _any_ip(ip)

_ip_classes(ip, present) := [x | some x in present; _ips_overlap(ip, x)] if not _any_ip(ip)

_any_ip(ip) if ip in {"", "0.0.0.0"}

# _excluded(a, key) is how many workloads of a's view are a's own: the same
# workload written in two files (alternative install files, a base and its
# rendering) is one object once applied, not two (_same_workload). They are
# among the few facts of the group with a's kind and name that a meets.
_excluded(a, key) := count([e |
	some e in _others([_entry(b) |
		some id in (_index.by_name[[key, a.workload[2]]] | object.get(_index.by_image, [[key, a.workload[3]]], set()))
		b := _index.facts[id]
		_meet(a, b)
	])
	_same_workload(a.workload, e[1])
])

_by_name[[key, f.workload[2]]] contains f.id if {
	some key, group in _meeting
	some f in group
}

_by_image[[key, f.workload[3]]] contains f.id if {
	some key, group in _meeting
	some f in group
	f.workload[3] != ""
}

_facts[f.id] := f if {
	some group in _meeting
	some f in group
}

# Two facts are about the same workload when their namespaces are equal, or
# one of them is missing (a manifest without a namespace is installed into
# some namespace, possibly the other's), and they have the same name or the
# port is bound by the same image: one product's alternative install files
# (a DaemonSet and a Deployment of one proxy, the ReplicationController form
# of a DaemonSet under another name) are one workload, whatever their kinds.
_same_workload(x, y) if {
	x[2] == y[2]
	_same_namespace(x[1], y[1])
}

_same_workload(x, y) if {
	x[3] != ""
	x[3] == y[3]
	_same_namespace(x[1], y[1])
}

_same_namespace(x, x)

_same_namespace("", _)

_same_namespace(_, "")

# The pairwise definition the index implements.
_collide(a, b) if {
	not _same_workload(a.workload, b.workload)
	_meet(a, b)
}

# Facts meet when one is a DaemonSet's, and they can take the port on the
# same address of the same nodes.
_meet(a, b) if {
	true in {a.daemonset, b.daemonset}
	_ips_overlap(a.hostIP, b.hostIP)
	_share_nodes(a.nodes, b.nodes)
}

_ips_overlap(x, y) if x == y

_ips_overlap(x, _) if x in {"", "0.0.0.0"}

_ips_overlap(_, y) if y in {"", "0.0.0.0"}

_consequence(a) := "the other pods stay Pending there or the DaemonSet misses those nodes" if a.daemonset

_consequence(a) := "its pods stay Pending wherever the DaemonSet already runs" if not a.daemonset

_ip_note("") := ""

_ip_note(ip) := sprintf(" on %s", [ip]) if ip != ""

# _list(names, n): the first (up to) three of n named workloads, and how
# many more there are.
_list(names, n) := concat(", ", names) if n <= 3

_list(names, n) := sprintf("%s and %d more", [concat(", ", names), n - 3]) if n > 3
