package dslint.rules["hostport-conflict_test"]

import data.dslint.rules["hostport-conflict"] as rule

# _ds(name, spec) is a DaemonSet whose containers run the image name:1.
_ds(name, spec) := {
	"apiVersion": "apps/v1",
	"kind": "DaemonSet",
	"metadata": {"name": name, "namespace": "ops"},
	"spec": {"template": {"spec": _images(spec, concat("", [name, ":1"]))}},
}

_images(spec, image) := object.union(spec, {"containers": [object.union(c, {"image": image}) | some c in spec.containers]}) if {
	is_array(spec.containers)
} else := spec

_deploy(name, spec) := object.union(_ds(name, spec), {"kind": "Deployment"})

_port(p) := {"containers": [{"name": "c", "image": "i", "ports": [p]}]}

_path := ["spec", "template", "spec", "containers", 0, "ports", 0]

# --- facts --------------------------------------------------------------------------

test_facts_of_an_explicit_host_port if {
	fs := rule.facts with input as _ds("a", _port({"containerPort": 8080, "hostPort": 9100}))
	fs == {{
		"group": "9100/TCP",
		"path": _path,
		"hostPort": 9100,
		"protocol": "TCP",
		"hostIP": "",
		"daemonset": true,
		"nodes": ["generic", [{}]],
		"label": "daemonset \"a\" in namespace \"ops\"",
		"workload": ["DaemonSet", "ops", "a", "a:1"],
		"eligible": null,
	}}
}

test_host_network_makes_container_ports_host_ports if {
	fs := rule.facts with input as _ds("a", object.union(_port({"containerPort": 9100, "protocol": "UDP"}), {"hostNetwork": true}))
	fs == {{
		"group": "9100/UDP",
		"path": _path,
		"hostPort": 9100,
		"protocol": "UDP",
		"hostIP": "",
		"daemonset": true,
		"nodes": ["generic", [{}]],
		"label": "daemonset \"a\" in namespace \"ops\"",
		"workload": ["DaemonSet", "ops", "a", "a:1"],
		"eligible": null,
	}}
}

test_no_fact_without_host_port if {
	rule.facts == set() with input as _ds("a", _port({"containerPort": 9100}))
	rule.facts == set() with input as _ds("a", _port({"containerPort": 9100, "hostPort": 0}))
	rule.facts == set() with input as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}
}

# --- findings ------------------------------------------------------------------------

# _groups builds aggregate's input from objects, as the engine does (the
# tests give each object one port, so the object index is the fact id),
# each object written in its own file, <index>.yaml, its port on line 20.
_groups(objs) := {"hostport-conflict": {f.group: [g | some g in recorded; g.group == f.group] | some f in recorded}} if {
	recorded := [f |
		some i, obj in objs
		fs := rule.facts with input as obj
		some f0 in fs
		f := object.union(f0, {"id": i, "object": sprintf("o%d", [i]), "file": sprintf("%d.yaml", [i]), "line": 20})
	]
}

_findings(objs) := found if {
	found := rule.aggregate with input as {"groups": _groups(objs)}
}

_ds_msg := "the other pods stay Pending there or the DaemonSet misses those nodes"

_other_msg := "its pods stay Pending wherever the DaemonSet already runs"

# _hit(fact, port, workload, others, consequence) is the finding about the
# fact: its port ("80/TCP", "80/TCP on 10.0.0.1") taken by workload is also
# used by the others, on the same nodes.
_hit(fact, port, workload, others, consequence) := {"fact": fact, "message": sprintf("hostPort %s of %s is also used by %s on the same nodes: only one pod per node can bind it, so %s", [port, workload, others, consequence])}

# _ops(kind, name, i) names the workload of the object with index i, in
# namespace ops, as another workload's message names it.
_ops(kind, name, i) := sprintf("%s \"%s\" in namespace \"ops\" (%d.yaml:20)", [kind, name, i])

test_daemonset_and_deployment_on_the_same_port if {
	_findings([
		_ds("exporter", _port({"containerPort": 1, "hostPort": 9100})),
		_deploy("web", _port({"containerPort": 2, "hostPort": 9100})),
	]) == {
		_hit(0, "9100/TCP", "daemonset \"exporter\" in namespace \"ops\"", _ops("deployment", "web", 1), _ds_msg),
		_hit(1, "9100/TCP", "deployment \"web\" in namespace \"ops\"", _ops("daemonset", "exporter", 0), _other_msg),
	}
}

test_message_names_the_other_workload if {
	fs := rule.aggregate with input as {"groups": _groups([
		_ds("exporter", _port({"containerPort": 1, "hostPort": 9100})),
		_deploy("web", _port({"containerPort": 2, "hostPort": 9100})),
	])}
	fs == {
		{"fact": 0, "message": "hostPort 9100/TCP of daemonset \"exporter\" in namespace \"ops\" is also used by deployment \"web\" in namespace \"ops\" (1.yaml:20) on the same nodes: only one pod per node can bind it, so the other pods stay Pending there or the DaemonSet misses those nodes"},
		{"fact": 1, "message": "hostPort 9100/TCP of deployment \"web\" in namespace \"ops\" is also used by daemonset \"exporter\" in namespace \"ops\" (0.yaml:20) on the same nodes: only one pod per node can bind it, so its pods stay Pending wherever the DaemonSet already runs"},
	}
}

test_two_deployments_do_not_conflict if {
	# the scheduler places them on different nodes
	_findings([
		_deploy("a", _port({"containerPort": 1, "hostPort": 80})),
		_deploy("b", _port({"containerPort": 1, "hostPort": 80})),
	]) == set()
}

test_other_protocol_or_port_does_not_conflict if {
	_findings([
		_ds("a", _port({"containerPort": 1, "hostPort": 53, "protocol": "UDP"})),
		_ds("b", _port({"containerPort": 1, "hostPort": 53})),
		_ds("c", _port({"containerPort": 1, "hostPort": 54, "protocol": "UDP"})),
	]) == set()
}

test_host_ips if {
	_findings([
		_ds("a", _port({"containerPort": 1, "hostPort": 80, "hostIP": "10.0.0.1"})),
		_ds("b", _port({"containerPort": 1, "hostPort": 80, "hostIP": "10.0.0.2"})),
	]) == set()
	_findings([
		_ds("a", _port({"containerPort": 1, "hostPort": 80, "hostIP": "10.0.0.1"})),
		_ds("b", _port({"containerPort": 1, "hostPort": 80, "hostIP": "0.0.0.0"})),
	]) == {
		_hit(0, "80/TCP on 10.0.0.1", "daemonset \"a\" in namespace \"ops\"", _ops("daemonset", "b", 1), _ds_msg),
		_hit(1, "80/TCP on 0.0.0.0", "daemonset \"b\" in namespace \"ops\"", _ops("daemonset", "a", 0), _ds_msg),
	}
}

test_constraints if {
	gpu := {"nodeSelector": {"pool": "gpu"}}
	web := {"nodeSelector": {"pool": "web"}}
	_findings([
		_ds("a", object.union(_port({"containerPort": 1, "hostPort": 80}), gpu)),
		_deploy("b", object.union(_port({"containerPort": 1, "hostPort": 80}), web)),
	]) == set()
	_findings([
		_ds("a", object.union(_port({"containerPort": 1, "hostPort": 80}), gpu)),
		_deploy("b", object.union(_port({"containerPort": 1, "hostPort": 80}), gpu)),
	]) == {
		_hit(0, "80/TCP", "daemonset \"a\" in namespace \"ops\"", _ops("deployment", "b", 1), _ds_msg),
		_hit(1, "80/TCP", "deployment \"b\" in namespace \"ops\"", _ops("daemonset", "a", 0), _other_msg),
	}
}

test_one_object_never_conflicts_with_itself if {
	two := {"containers": [
		{"name": "a", "image": "i", "ports": [{"containerPort": 1, "hostPort": 80}]},
		{"name": "b", "image": "i", "ports": [{"containerPort": 2, "hostPort": 80}]},
	]}
	fs := rule.facts with input as _ds("a", two)
	count(fs) == 2
	items := [object.union(f, {"id": i, "object": "same"}) | some i, f in [g | some g in fs]]
	rule.aggregate == set() with input as {"groups": {"hostport-conflict": {"80/TCP": items}}}
}

test_one_workload_in_two_files_is_not_a_conflict if {
	# e.g. regional variants of the same DaemonSet manifest
	_findings([
		_ds("aws-node", _port({"containerPort": 1, "hostPort": 61678})),
		_ds("aws-node", _port({"containerPort": 1, "hostPort": 61678})),
	]) == set()
}

# The message lists three others, sorted, and counts the rest.
test_many_others_are_counted if {
	ds := [_ds(n, _port({"containerPort": 1, "hostPort": 80})) | some n in ["e", "b", "d", "a", "c"]]
	a := _ops("daemonset", "a", 3)
	b := _ops("daemonset", "b", 1)
	c := _ops("daemonset", "c", 4)
	d := _ops("daemonset", "d", 2)
	_findings(ds) == {
		_hit(0, "80/TCP", "daemonset \"e\" in namespace \"ops\"", sprintf("%s, %s, %s and 1 more", [a, b, c]), _ds_msg),
		_hit(1, "80/TCP", "daemonset \"b\" in namespace \"ops\"", sprintf("%s, %s, %s and 1 more", [a, c, d]), _ds_msg),
		_hit(2, "80/TCP", "daemonset \"d\" in namespace \"ops\"", sprintf("%s, %s, %s and 1 more", [a, b, c]), _ds_msg),
		_hit(3, "80/TCP", "daemonset \"a\" in namespace \"ops\"", sprintf("%s, %s, %s and 1 more", [b, c, d]), _ds_msg),
		_hit(4, "80/TCP", "daemonset \"c\" in namespace \"ops\"", sprintf("%s, %s, %s and 1 more", [a, b, d]), _ds_msg),
	}
}

# Two ports of one workload name it once in another's message, where it
# first takes the port, and never collide with each other.
test_a_workload_with_two_facts if {
	two := {"containers": [
		{"name": "a", "image": "i", "ports": [{"containerPort": 1, "hostPort": 80}]},
		{"name": "b", "image": "i", "ports": [{"containerPort": 2, "hostPort": 80}]},
	]}
	recorded := [object.union(f, {"id": i, "object": o, "file": sprintf("%s.yaml", [o]), "line": 20 - i}) |
		some [obj, o, i0] in [[_ds("a", two), "o0", 0], [_deploy("web", _port({"containerPort": 3, "hostPort": 80})), "o1", 10]]
		fs := rule.facts with input as obj
		some k, f in [g | some g in fs]
		i := i0 + k
	]
	found := rule.aggregate with input as {"groups": {"hostport-conflict": {"80/TCP": recorded}}}
	web := "deployment \"web\" in namespace \"ops\" (o1.yaml:10)"
	found == {
		_hit(0, "80/TCP", "daemonset \"a\" in namespace \"ops\"", web, _ds_msg),
		_hit(1, "80/TCP", "daemonset \"a\" in namespace \"ops\"", web, _ds_msg),
		_hit(10, "80/TCP", "deployment \"web\" in namespace \"ops\"", "daemonset \"a\" in namespace \"ops\" (o0.yaml:19)", _other_msg),
	}
}

_names(others) := concat(", ", [rule._named(e) | some e in others]) if count(others) <= 3

_names(others) := sprintf("%s and %d more", [concat(", ", [rule._named(e) | some e in array.slice(others, 0, 3)]), count(others) - 3]) if count(others) > 3

_ipd(name, kind, ip, selector) := object.union(_ds(name, object.union(_port({"containerPort": 1, "hostPort": 80, "hostIP": ip}), selector)), {"kind": kind})

_ip_note("") := ""

_ip_note(ip) := sprintf(" on %s", [ip]) if ip != ""

_consequence(true) := _ds_msg

_consequence(false) := _other_msg

# The indexed aggregate finds exactly the pairs the rule's pairwise
# definition (_collide) makes, with the same workloads named and counted.
test_aggregate_agrees_with_pairwise_collisions if {
	gpu := {"nodeSelector": {"pool": "gpu"}}
	objs := [
		_ipd("a", "DaemonSet", "", {}),
		_ipd("b", "Deployment", "", {}),
		_ipd("c", "DaemonSet", "10.0.0.1", {}),
		_ipd("d", "Deployment", "10.0.0.1", {}),
		_ipd("e", "Deployment", "10.0.0.2", {}),
		_ipd("f", "DaemonSet", "0.0.0.0", gpu),
		_ipd("g", "Deployment", "10.0.0.2", gpu),
		_ipd("h", "StatefulSet", "", gpu),
		_ipd("a", "DaemonSet", "10.0.0.2", {}),
		_ipd("i", "Deployment", "0.0.0.0", {}),
		_ipd("j", "DaemonSet", "", {"nodeSelector": {"kubernetes.io/os": "linux"}}),
		_ipd("k", "DaemonSet", "10.0.0.2", {"nodeSelector": {"kubernetes.io/os": "windows"}}),
		_ipd("l", "Deployment", "", {"nodeSelector": {"beta.kubernetes.io/os": "windows"}}),
		_ipd("m", "Deployment", "10.0.0.1", {"nodeSelector": {"kubernetes.io/arch": "arm64"}}),
		_without_namespace(_ipd("j", "DaemonSet", "10.0.0.1", {})),
		_in_namespace(_ipd("b", "Deployment", "", {}), "other"),
	]
	groups := _groups(objs)
	want := {_hit(a.id, sprintf("80/TCP%s", [_ip_note(a.hostIP)]), a.label, _names(others), _consequence(a.daemonset)) |
		some group in groups["hostport-conflict"]
		some a in group
		others := rule._others([rule._entry(b) | some b in group; rule._collide(a, b)])
		count(others) > 0
	}
	_findings(objs) == want
	count(want) == 16
}

_without_namespace(obj) := json.remove(obj, ["metadata/namespace"])

_in_namespace(obj, ns) := json.patch(obj, [{"op": "add", "path": "/metadata/namespace", "value": ns}])

# A namespace-less base and its rendering into a namespace are one workload:
# a missing namespace matches any.
test_a_base_and_its_namespaced_rendering_are_one_workload if {
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	_findings([_without_namespace(envoy), envoy]) == set()
	_findings([envoy, _without_namespace(envoy)]) == set()
}

# The same workload in two install files of one product is one workload too.
test_one_workload_in_two_install_files if {
	envoy := _in_namespace(_ds("envoy", _port({"containerPort": 8080, "hostPort": 80})), "projectcontour")
	_findings([envoy, envoy, _without_namespace(envoy)]) == set()
}

# Equal names in different namespaces are different workloads.
test_same_name_elsewhere_is_another_workload if {
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	_findings([envoy, _in_namespace(envoy, "edge")]) == {
		{"fact": 0, "message": "hostPort 80/TCP of daemonset \"envoy\" in namespace \"ops\" is also used by daemonset \"envoy\" in namespace \"edge\" (1.yaml:20) on the same nodes: only one pod per node can bind it, so the other pods stay Pending there or the DaemonSet misses those nodes"},
		{"fact": 1, "message": "hostPort 80/TCP of daemonset \"envoy\" in namespace \"edge\" is also used by daemonset \"envoy\" in namespace \"ops\" (0.yaml:20) on the same nodes: only one pod per node can bind it, so the other pods stay Pending there or the DaemonSet misses those nodes"},
	}
}

# A product's DaemonSet and Deployment forms (alternative install files) are
# one workload, whatever the kinds; so are two names whose port is bound by
# the same image (a DaemonSet and its ReplicationController form).
test_alternative_forms_are_one_workload if {
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	_findings([envoy, _deploy("envoy", _port({"containerPort": 8080, "hostPort": 80}))]) == set()
	lb := _ds("ingress-lb", _port({"containerPort": 80, "hostPort": 80}))
	rc := object.union(_with_image(_ds("ingress-controller", _port({"containerPort": 80, "hostPort": 80})), "ingress-lb:1"), {"apiVersion": "v1", "kind": "ReplicationController"})
	_findings([lb, rc]) == set()
	other := _ds("ingress-controller", _port({"containerPort": 80, "hostPort": 80}))
	_findings([lb, other]) == {
		_hit(0, "80/TCP", "daemonset \"ingress-lb\" in namespace \"ops\"", _ops("daemonset", "ingress-controller", 1), _ds_msg),
		_hit(1, "80/TCP", "daemonset \"ingress-controller\" in namespace \"ops\"", _ops("daemonset", "ingress-lb", 0), _ds_msg),
	}
	elsewhere := _in_namespace(_with_image(other, "ingress-lb:1"), "edge")
	_findings([lb, elsewhere]) == {
		_hit(0, "80/TCP", "daemonset \"ingress-lb\" in namespace \"ops\"", "daemonset \"ingress-controller\" in namespace \"edge\" (1.yaml:20)", _ds_msg),
		_hit(1, "80/TCP", "daemonset \"ingress-controller\" in namespace \"edge\"", _ops("daemonset", "ingress-lb", 0), _ds_msg),
	}
}

_with_image(obj, image) := json.patch(obj, [{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": image}])

# With an inventory the identity rule is the same.
test_identity_with_an_inventory if {
	everywhere := {"pools": [0], "nodes": []}
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	groups := {"hostport-conflict": {"80/TCP": [g |
		some i, obj in [envoy, _without_namespace(envoy)]
		fs := rule.facts with input as obj
		some f in fs
		g := object.union(f, {"id": i, "object": sprintf("o%d", [i]), "eligible": everywhere})
	]}}
	rule.aggregate == set() with input as {"groups": groups}
}

_on(obj, scheduling) := json.patch(obj, [{"op": "add", "path": sprintf("/spec/template/spec/%s", [k]), "value": v} | some k, v in scheduling])

_affinity(reqs) := {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": reqs}]}}}

# _pair(name_a, name_b) are the findings about two DaemonSets a and b
# (facts 0 and 1) that take port 9100 on the same nodes.
_pair(a, b) := {
	_hit(0, "9100/TCP", sprintf("daemonset %q in namespace \"ops\"", [a]), _ops("daemonset", b, 1), _ds_msg),
	_hit(1, "9100/TCP", sprintf("daemonset %q in namespace \"ops\"", [b]), _ops("daemonset", a, 0), _ds_msg),
}

# Without an inventory, a workload with no node constraint and one
# constrained by generic labels only share every node of that kind.
test_unconstrained_and_generic_only_share_nodes if {
	exporter := _on(_ds("node-exporter", _port({"containerPort": 1, "hostPort": 9100})), {"nodeSelector": {"kubernetes.io/os": "linux"}})
	agent := _ds("agent", _port({"containerPort": 2, "hostPort": 9100}))
	_findings([exporter, agent]) == {
		{"fact": 0, "message": sprintf("hostPort 9100/TCP of daemonset \"node-exporter\" in namespace \"ops\" is also used by daemonset \"agent\" in namespace \"ops\" (1.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
		{"fact": 1, "message": sprintf("hostPort 9100/TCP of daemonset \"agent\" in namespace \"ops\" is also used by daemonset \"node-exporter\" in namespace \"ops\" (0.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
	}
}

# Generic constraints written differently but compatible share nodes too:
# a selector and an affinity, a zone and an architecture, the beta label and
# the current one.
test_compatible_generic_constraints_share_nodes if {
	port := _port({"containerPort": 1, "hostPort": 9100})
	every other in [
		{"affinity": _affinity([{"key": "kubernetes.io/os", "operator": "In", "values": ["linux", "windows"]}])},
		{"nodeSelector": {"beta.kubernetes.io/os": "linux"}},
		{"nodeSelector": {"topology.kubernetes.io/zone": "eu-west-1a", "kubernetes.io/arch": "amd64"}},
	] {
		_findings([_on(_ds("a", port), {"nodeSelector": {"kubernetes.io/os": "linux"}}), _on(_ds("b", port), other)]) == _pair("a", "b")
	}
}

# Generic constraints that no node meets together keep workloads apart.
test_incompatible_generic_constraints_do_not_share_nodes if {
	port := _port({"containerPort": 1, "hostPort": 9100})
	every pair in [
		[{"nodeSelector": {"kubernetes.io/os": "linux"}}, {"nodeSelector": {"kubernetes.io/os": "windows"}}],
		[{"nodeSelector": {"kubernetes.io/arch": "amd64"}}, {"nodeSelector": {"kubernetes.io/arch": "arm64"}}],
		[{"nodeSelector": {"beta.kubernetes.io/os": "linux"}}, {"nodeSelector": {"kubernetes.io/os": "windows"}}],
		[{"nodeSelector": {"kubernetes.io/os": "linux"}}, {"affinity": _affinity([{"key": "kubernetes.io/os", "operator": "NotIn", "values": ["linux"]}])}],
	] {
		_findings([_on(_ds("a", port), pair[0]), _on(_ds("b", port), pair[1])]) == set()
	}
}

# An affinity that only excludes nodes (NotIn, DoesNotExist) does not pin
# pods to a pool: they share the other nodes with an unconstrained workload.
test_exclusions_do_not_pin if {
	port := _port({"containerPort": 1, "hostPort": 9100})
	not_on_control_plane := {"affinity": _affinity([
		{"key": "node-role.kubernetes.io/control-plane", "operator": "DoesNotExist"},
		{"key": "eks.amazonaws.com/compute-type", "operator": "NotIn", "values": ["fargate"]},
	])}
	_findings([_on(_ds("a", port), not_on_control_plane), _deploy("b", port)]) == {
		{"fact": 0, "message": sprintf("hostPort 9100/TCP of daemonset \"a\" in namespace \"ops\" is also used by deployment \"b\" in namespace \"ops\" (1.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
		{"fact": 1, "message": "hostPort 9100/TCP of deployment \"b\" in namespace \"ops\" is also used by daemonset \"a\" in namespace \"ops\" (0.yaml:20) on the same nodes: only one pod per node can bind it, so its pods stay Pending wherever the DaemonSet already runs"},
	}
}

# ... unless they contradict the rest of the constraint: then no node takes
# the pods at all.
test_contradictory_exclusions_share_no_nodes if {
	port := _port({"containerPort": 1, "hostPort": 9100})
	nowhere := {
		"nodeSelector": {"kubernetes.io/os": "linux"},
		"affinity": _affinity([{"key": "kubernetes.io/os", "operator": "NotIn", "values": ["linux"]}]),
	}
	_findings([_on(_ds("a", port), nowhere), _ds("b", port)]) == set()
}

# A pool, a node name or a hostname is a pool of its own: without an
# inventory, only the very same constraint shares its nodes.
test_pinned_workloads_share_nodes_only_when_equal if {
	port := _port({"containerPort": 1, "hostPort": 9100})
	every pinned in [
		{"nodeSelector": {"pool": "gpu"}},
		{"nodeSelector": {"kubernetes.io/hostname": "node-1"}},
		{"nodeName": "node-1"},
		{"affinity": _affinity([{"key": "pool", "operator": "Exists"}])},
	] {
		_findings([_on(_ds("a", port), pinned), _ds("b", port)]) == set()
		_findings([_on(_ds("a", port), pinned), _on(_ds("b", port), {"nodeSelector": {"kubernetes.io/os": "linux"}})]) == set()
		_findings([_on(_ds("a", port), pinned), _on(_ds("b", port), pinned)]) == _pair("a", "b")
	}
}

# The message names each other workload once, however many files it is
# written in, and where it is first written.
test_each_other_workload_is_named_once if {
	envoy := _in_namespace(_ds("envoy", _port({"containerPort": 8080, "hostPort": 80})), "projectcontour")
	ingress := _ds("ingress", _port({"containerPort": 8080, "hostPort": 80}))
	_findings([envoy, envoy, _without_namespace(envoy), ingress]) == {
		{"fact": 0, "message": sprintf("hostPort 80/TCP of daemonset \"envoy\" in namespace \"projectcontour\" is also used by daemonset \"ingress\" in namespace \"ops\" (3.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
		{"fact": 1, "message": sprintf("hostPort 80/TCP of daemonset \"envoy\" in namespace \"projectcontour\" is also used by daemonset \"ingress\" in namespace \"ops\" (3.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
		{"fact": 2, "message": sprintf("hostPort 80/TCP of daemonset \"envoy\" is also used by daemonset \"ingress\" in namespace \"ops\" (3.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
		{"fact": 3, "message": sprintf("hostPort 80/TCP of daemonset \"ingress\" in namespace \"ops\" is also used by daemonset \"envoy\" in namespace \"projectcontour\" (0.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])},
	}
}

# A base without a namespace is the same workload as each of its renderings,
# which are different workloads: the renderings are named, the base is not.
test_a_base_is_named_through_its_renderings if {
	agent := _ds("agent", _port({"containerPort": 1, "hostPort": 9100}))
	found := _findings([
		_ds("exporter", _port({"containerPort": 2, "hostPort": 9100})),
		_without_namespace(agent),
		_in_namespace(agent, "a"),
		_in_namespace(agent, "b"),
	])
	in_a := "daemonset \"agent\" in namespace \"a\" (2.yaml:20)"
	in_b := "daemonset \"agent\" in namespace \"b\" (3.yaml:20)"
	exporter := _ops("daemonset", "exporter", 0)
	found == {
		_hit(0, "9100/TCP", "daemonset \"exporter\" in namespace \"ops\"", sprintf("%s, %s", [in_a, in_b]), _ds_msg),
		_hit(1, "9100/TCP", "daemonset \"agent\"", exporter, _ds_msg),
		_hit(2, "9100/TCP", "daemonset \"agent\" in namespace \"a\"", sprintf("%s, %s", [in_b, exporter]), _ds_msg),
		_hit(3, "9100/TCP", "daemonset \"agent\" in namespace \"b\"", sprintf("%s, %s", [in_a, exporter]), _ds_msg),
	}
}

# With an inventory too.
test_each_other_workload_is_named_once_with_an_inventory if {
	everywhere := {"pools": [0], "nodes": []}
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	ingress := _ds("ingress", _port({"containerPort": 8080, "hostPort": 80}))
	groups := {"hostport-conflict": {"80/TCP": [g |
		some i, obj in [envoy, _without_namespace(envoy), envoy, ingress]
		fs := rule.facts with input as obj
		some f in fs
		g := object.union(f, {"id": i, "object": sprintf("o%d", [i]), "eligible": everywhere, "file": sprintf("%d.yaml", [i]), "line": 20})
	]}}
	found := rule.aggregate with input as {"groups": groups}
	found == {
		_on_nodes(0, "daemonset \"envoy\" in namespace \"ops\"", _ops("daemonset", "ingress", 3)),
		_on_nodes(1, "daemonset \"envoy\"", _ops("daemonset", "ingress", 3)),
		_on_nodes(2, "daemonset \"envoy\" in namespace \"ops\"", _ops("daemonset", "ingress", 3)),
		_on_nodes(3, "daemonset \"ingress\" in namespace \"ops\"", _ops("daemonset", "envoy", 0)),
	}
}

# _on_nodes(fact, workload, others) is the finding, with an inventory, about
# a DaemonSet's port 80 that others take on nodes both can land on.
_on_nodes(fact, workload, others) := {"fact": fact, "message": sprintf("hostPort 80/TCP of %s is also used by %s on nodes both can land on: only one pod per node can bind it, so %s", [workload, others, _ds_msg])}

# The forms of one workload (a DaemonSet and a Deployment of one proxy) are
# named once in another workload's message.
test_forms_of_one_workload_are_named_once if {
	port := _port({"containerPort": 8080, "hostPort": 80})
	_findings([_ds("envoy", port), _deploy("envoy", port), _ds("ingress", port)]) == {
		_hit(0, "80/TCP", "daemonset \"envoy\" in namespace \"ops\"", _ops("daemonset", "ingress", 2), _ds_msg),
		_hit(1, "80/TCP", "deployment \"envoy\" in namespace \"ops\"", _ops("daemonset", "ingress", 2), _other_msg),
		_hit(2, "80/TCP", "daemonset \"ingress\" in namespace \"ops\"", _ops("daemonset", "envoy", 0), _ds_msg),
	}
}

# --- custom resources: each pod template binds its own ports --------------------------

_exporter := _ds("node-exporter", object.union(_port({"containerPort": 9100}), {"hostNetwork": true}))

# A RayCluster worker group that binds the node exporter's port: the fact
# points into that worker group, and the messages name it.
test_raycluster_worker_group if {
	ray := {
		"apiVersion": "ray.io/v1",
		"kind": "RayCluster",
		"metadata": {"name": "ray", "namespace": "ops"},
		"spec": {
			"headGroupSpec": {"template": {"spec": {"containers": [{"name": "head", "image": "ray:2.9", "ports": [{"containerPort": 6379}]}]}}},
			"workerGroupSpecs": [{"groupName": "gpu", "template": {"spec": {"containers": [{"name": "metrics", "image": "ray:2.9", "ports": [{"containerPort": 8080, "hostPort": 9100}]}]}}}],
		},
	}
	facts := rule.facts with input as ray
	[f.path | some f in facts] == [["spec", "workerGroupSpecs", 0, "template", "spec", "containers", 0, "ports", 0]]
	worker := "raycluster \"ray\" (spec.workerGroupSpecs[0].template.spec) in namespace \"ops\""
	_findings([_exporter, ray]) == {
		_hit(0, "9100/TCP", "daemonset \"node-exporter\" in namespace \"ops\"", sprintf("%s (1.yaml:20)", [worker]), _ds_msg),
		_hit(1, "9100/TCP", worker, _ops("daemonset", "node-exporter", 0), _other_msg),
	}
}

# A JobSet whose replicated job binds it, on nodes an inventory says both can
# land on.
test_jobset_with_an_inventory if {
	jobset := {
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind": "JobSet",
		"metadata": {"name": "train", "namespace": "ops"},
		"spec": {"replicatedJobs": [
			{"name": "driver", "template": {"spec": {"template": {"spec": {"containers": [{"name": "d", "image": "train:1"}]}}}}},
			{"name": "workers", "template": {"spec": {"template": {"spec": {"hostNetwork": true, "containers": [{"name": "w", "image": "train:1", "ports": [{"containerPort": 9100}]}]}}}}},
		]},
	}
	everywhere := {"pools": [0], "nodes": []}
	groups := {"hostport-conflict": {"9100/TCP": [g |
		some i, obj in [_exporter, jobset]
		fs := rule.facts with input as obj
		some f in fs
		g := object.union(f, {"id": i, "object": sprintf("o%d", [i]), "eligible": everywhere, "file": sprintf("%d.yaml", [i]), "line": 20})
	]}}
	[f.path | some f in groups["hostport-conflict"]["9100/TCP"]; f.id == 1] == [["spec", "replicatedJobs", 1, "template", "spec", "template", "spec", "containers", 0, "ports", 0]]
	workers := "jobset \"train\" (spec.replicatedJobs[1].template.spec.template.spec) in namespace \"ops\""
	found := rule.aggregate with input as {"groups": groups}
	found == {
		{"fact": 0, "message": sprintf("hostPort 9100/TCP of daemonset \"node-exporter\" in namespace \"ops\" is also used by %s (1.yaml:20) on nodes both can land on: only one pod per node can bind it, so %s", [workers, _ds_msg])},
		{"fact": 1, "message": sprintf("hostPort 9100/TCP of %s is also used by daemonset \"node-exporter\" in namespace \"ops\" (0.yaml:20) on nodes both can land on: only one pod per node can bind it, so %s", [workers, _other_msg])},
	}
}
