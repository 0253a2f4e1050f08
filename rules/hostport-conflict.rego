# METADATA
# title: Host port taken by two workloads on the same nodes
# description: |
#   A host port can be bound by one pod per node. A DaemonSet runs a pod on
#   every node it may, so any other workload that uses the same host port,
#   protocol and host IP on the same nodes collides with it: the scheduler
#   keeps the second pod Pending on those nodes (node(s) didn't have free
#   ports), or the DaemonSet never gets its pod there. A hostIP of "" or
#   0.0.0.0 collides with every IP. With hostNetwork: true every container port
#   is a host port (the API server sets hostPort to containerPort). Without a
#   node inventory, two workloads are taken to share nodes when neither has a
#   node constraint, or when both have the very same one.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/configuration/overview/#services
#     description: Configuration best practices, hostPort
#   - ref: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/
#     description: DaemonSet
# custom:
#   severity: error
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

# facts: one per host port of the workload in input, grouped by port and
# protocol so that only candidates meet in aggregate.
facts contains {
	"group": sprintf("%d/%s", [port.hostPort, port.protocol]),
	"path": port.path,
	"hostPort": port.hostPort,
	"protocol": port.protocol,
	"hostIP": port.hostIP,
	"daemonset": _daemonset,
	"constraint": _constraint,
	"label": sprintf("%s %q%s", [k8s.kind_label, k8s.name, _namespace_note]),
	"workload": [input.kind, object.get(input, ["metadata", "namespace"], ""), k8s.name],
} if {
	some port in _host_ports
}

_host_ports contains _port_entry(i, j, p, p.hostPort) if {
	some i, c in k8s.pod_spec.containers
	some j, p in c.ports
	is_number(p.hostPort)
	p.hostPort > 0
}

# With hostNetwork the API server defaults an unset (0) hostPort to the
# containerPort.
_host_ports contains _port_entry(i, j, p, p.containerPort) if {
	k8s.pod_spec.hostNetwork == true
	some i, c in k8s.pod_spec.containers
	some j, p in c.ports
	object.get(p, "hostPort", 0) == 0
	is_number(p.containerPort)
	p.containerPort > 0
}

_port_entry(i, j, p, host_port) := {
	"path": array.concat(k8s.pod_spec_path, ["containers", i, "ports", j]),
	"hostPort": host_port,
	"protocol": object.get(p, "protocol", "TCP"),
	"hostIP": object.get(p, "hostIP", ""),
}

default _daemonset := false

_daemonset if k8s.is_daemonset

_constraint := {
	"nodeName": nodes.node_name(k8s.pod_spec),
	"nodeSelector": nodes.node_selector(k8s.pod_spec),
	"required": object.get(k8s.pod_spec, ["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"], null),
}

_namespace_note := sprintf(" in namespace %q", [input.metadata.namespace]) if {
	is_string(input.metadata.namespace)
} else := ""

# aggregate: a host port that another workload of the run also takes on the
# same nodes, when at least one of the two is a DaemonSet.
aggregate contains {"fact": a.id, "message": msg} if {
	some group in input.groups["hostport-conflict"]
	count(group) > 1
	some a in group
	others := [b.label | some b in group; _collide(a, b)]
	count(others) > 0
	msg := sprintf("hostPort %d/%s%s of %s is also used by %s on the same nodes: only one pod per node can bind it, so %s", [
		a.hostPort, a.protocol, _ip_note(a.hostIP), a.label, _list(others), _consequence(a),
	])
}

# The same workload defined in two files (variants of one manifest) is one
# object once applied, not two.
_collide(a, b) if {
	a.object != b.object
	a.workload != b.workload
	true in {a.daemonset, b.daemonset}
	_ips_overlap(a.hostIP, b.hostIP)
	_same_nodes(a.constraint, b.constraint)
}

_ips_overlap(x, y) if x == y

_ips_overlap(x, _) if x in {"", "0.0.0.0"}

_ips_overlap(_, y) if y in {"", "0.0.0.0"}

# Without an inventory, two workloads share nodes when neither is
# constrained, or both are constrained the same way.
_same_nodes(x, y) if x == y

_consequence(a) := "the other pods stay Pending there or the DaemonSet misses those nodes" if a.daemonset

_consequence(a) := "its pods stay Pending wherever the DaemonSet already runs" if not a.daemonset

_ip_note("") := ""

_ip_note(ip) := sprintf(" on %s", [ip]) if ip != ""

_list(xs) := concat(", ", sort(xs)) if count(xs) <= 3

_list(xs) := sprintf("%s and %d more", [concat(", ", array.slice(sort(xs), 0, 3)), count(xs) - 3]) if count(xs) > 3
