package dslint.rules["hostport-conflict"]

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

test_facts_of_an_explicit_host_port if {
	fs := facts with input as _ds("a", _port({"containerPort": 8080, "hostPort": 9100}))
	count(fs) == 1
	some f in fs
	f.group == "9100/TCP"
	f.path == _path
	f.daemonset == true
	f.hostIP == ""
	f.label == "daemonset \"a\" in namespace \"ops\""
}

test_host_network_makes_container_ports_host_ports if {
	fs := facts with input as _ds("a", object.union(_port({"containerPort": 9100, "protocol": "UDP"}), {"hostNetwork": true}))
	{f.group | some f in fs} == {"9100/UDP"}
}

test_no_fact_without_host_port if {
	count(facts) == 0 with input as _ds("a", _port({"containerPort": 9100}))
	count(facts) == 0 with input as _ds("a", _port({"containerPort": 9100, "hostPort": 0}))
	count(facts) == 0 with input as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}
}

# _groups builds aggregate's input from objects, as the engine does (the
# tests give each object one port, so the object index is the fact id),
# each object written in its own file, <index>.yaml, its port on line 20.
_groups(objs) := {"hostport-conflict": {g: [f | some f in all; f.group == g] | some f in all; g := f.group}} if {
	all := [f |
		some i, obj in objs
		fs := facts with input as obj
		some f0 in fs
		f := object.union(f0, {"id": i, "object": sprintf("o%d", [i]), "file": sprintf("%d.yaml", [i]), "line": 20})
	]
}

_conflicts(objs) := {f.fact | some f in found} if {
	found := aggregate with input as {"groups": _groups(objs)}
}

test_daemonset_and_deployment_on_the_same_port if {
	_conflicts([
		_ds("exporter", _port({"containerPort": 1, "hostPort": 9100})),
		_deploy("web", _port({"containerPort": 2, "hostPort": 9100})),
	]) == {0, 1}
}

test_message_names_the_other_workload if {
	fs := aggregate with input as {"groups": _groups([
		_ds("exporter", _port({"containerPort": 1, "hostPort": 9100})),
		_deploy("web", _port({"containerPort": 2, "hostPort": 9100})),
	])}
	some f in fs
	f.fact == 0
	f.message == "hostPort 9100/TCP of daemonset \"exporter\" in namespace \"ops\" is also used by deployment \"web\" in namespace \"ops\" (1.yaml:20) on the same nodes: only one pod per node can bind it, so the other pods stay Pending there or the DaemonSet misses those nodes"
}

test_two_deployments_do_not_conflict if {
	# the scheduler places them on different nodes
	_conflicts([
		_deploy("a", _port({"containerPort": 1, "hostPort": 80})),
		_deploy("b", _port({"containerPort": 1, "hostPort": 80})),
	]) == set()
}

test_other_protocol_or_port_does_not_conflict if {
	_conflicts([
		_ds("a", _port({"containerPort": 1, "hostPort": 53, "protocol": "UDP"})),
		_ds("b", _port({"containerPort": 1, "hostPort": 53})),
		_ds("c", _port({"containerPort": 1, "hostPort": 54, "protocol": "UDP"})),
	]) == set()
}

test_host_ips if {
	_conflicts([
		_ds("a", _port({"containerPort": 1, "hostPort": 80, "hostIP": "10.0.0.1"})),
		_ds("b", _port({"containerPort": 1, "hostPort": 80, "hostIP": "10.0.0.2"})),
	]) == set()
	_conflicts([
		_ds("a", _port({"containerPort": 1, "hostPort": 80, "hostIP": "10.0.0.1"})),
		_ds("b", _port({"containerPort": 1, "hostPort": 80, "hostIP": "0.0.0.0"})),
	]) == {0, 1}
}

test_constraints if {
	gpu := {"nodeSelector": {"pool": "gpu"}}
	web := {"nodeSelector": {"pool": "web"}}
	_conflicts([
		_ds("a", object.union(_port({"containerPort": 1, "hostPort": 80}), gpu)),
		_deploy("b", object.union(_port({"containerPort": 1, "hostPort": 80}), web)),
	]) == set()
	_conflicts([
		_ds("a", object.union(_port({"containerPort": 1, "hostPort": 80}), gpu)),
		_deploy("b", object.union(_port({"containerPort": 1, "hostPort": 80}), gpu)),
	]) == {0, 1}
}

test_one_object_never_conflicts_with_itself if {
	two := {"containers": [
		{"name": "a", "image": "i", "ports": [{"containerPort": 1, "hostPort": 80}]},
		{"name": "b", "image": "i", "ports": [{"containerPort": 2, "hostPort": 80}]},
	]}
	fs := facts with input as _ds("a", two)
	count(fs) == 2
	items := [object.union(f, {"id": i, "object": "same"}) | some i, f in [g | some g in fs]]
	count(aggregate) == 0 with input as {"groups": {"hostport-conflict": {"80/TCP": items}}}
}

test_one_workload_in_two_files_is_not_a_conflict if {
	# e.g. regional variants of the same DaemonSet manifest
	_conflicts([
		_ds("aws-node", _port({"containerPort": 1, "hostPort": 61678})),
		_ds("aws-node", _port({"containerPort": 1, "hostPort": 61678})),
	]) == set()
}

_messages(objs) := {f.fact: f.message | some f in found} if {
	found := aggregate with input as {"groups": _groups(objs)}
}

# The message lists three others, sorted, and counts the rest.
test_many_others_are_counted if {
	ds := [_ds(n, _port({"containerPort": 1, "hostPort": 80})) | some n in ["e", "b", "d", "a", "c"]]
	msgs := _messages(ds)
	count(msgs) == 5
	msgs[0] == "hostPort 80/TCP of daemonset \"e\" in namespace \"ops\" is also used by daemonset \"a\" in namespace \"ops\" (3.yaml:20), daemonset \"b\" in namespace \"ops\" (1.yaml:20), daemonset \"c\" in namespace \"ops\" (4.yaml:20) and 1 more on the same nodes: only one pod per node can bind it, so the other pods stay Pending there or the DaemonSet misses those nodes"
	msgs[3] == "hostPort 80/TCP of daemonset \"a\" in namespace \"ops\" is also used by daemonset \"b\" in namespace \"ops\" (1.yaml:20), daemonset \"c\" in namespace \"ops\" (4.yaml:20), daemonset \"d\" in namespace \"ops\" (2.yaml:20) and 1 more on the same nodes: only one pod per node can bind it, so the other pods stay Pending there or the DaemonSet misses those nodes"
}

# Two ports of one workload name it once in another's message, where it
# first takes the port, and never collide with each other.
test_a_workload_with_two_facts if {
	two := {"containers": [
		{"name": "a", "image": "i", "ports": [{"containerPort": 1, "hostPort": 80}]},
		{"name": "b", "image": "i", "ports": [{"containerPort": 2, "hostPort": 80}]},
	]}
	all := [object.union(f, {"id": i, "object": o, "file": sprintf("%s.yaml", [o]), "line": 20 - i}) |
		some [obj, o, i0] in [[_ds("a", two), "o0", 0], [_deploy("web", _port({"containerPort": 3, "hostPort": 80})), "o1", 10]]
		fs := facts with input as obj
		some k, f in [g | some g in fs]
		i := i0 + k
	]
	found := aggregate with input as {"groups": {"hostport-conflict": {"80/TCP": all}}}
	{f.fact | some f in found} == {0, 1, 10}
	some f in found
	f.fact == 10
	f.message == "hostPort 80/TCP of deployment \"web\" in namespace \"ops\" is also used by daemonset \"a\" in namespace \"ops\" (o0.yaml:19) on the same nodes: only one pod per node can bind it, so its pods stay Pending wherever the DaemonSet already runs"
}

_names(others) := concat(", ", [_named(e) | some e in others]) if count(others) <= 3

_names(others) := sprintf("%s and %d more", [concat(", ", [_named(e) | some e in array.slice(others, 0, 3)]), count(others) - 3]) if count(others) > 3

_ipd(name, kind, ip, selector) := object.union(_ds(name, object.union(_port({"containerPort": 1, "hostPort": 80, "hostIP": ip}), selector)), {"kind": kind})

# The indexed aggregate finds exactly the pairs _collide defines, with the
# same workloads named and counted.
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
	got := _messages(objs)
	want := {a.id: others |
		some group in groups["hostport-conflict"]
		some a in group
		others := _others([_entry(b) | some b in group; _collide(a, b)])
		count(others) > 0
	}
	object.keys(got) == object.keys(want)
	every id, others in want {
		contains(got[id], sprintf(" is also used by %s on the same nodes", [_names(others)]))
	}
	count(want) == 16
}

_without_namespace(obj) := json.remove(obj, ["metadata/namespace"])

_in_namespace(obj, ns) := json.patch(obj, [{"op": "add", "path": "/metadata/namespace", "value": ns}])

_findings(objs) := found if {
	found := aggregate with input as {"groups": _groups(objs)}
}

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
	count(_findings([lb, other])) == 2
	elsewhere := _in_namespace(_with_image(other, "ingress-lb:1"), "edge")
	count(_findings([lb, elsewhere])) == 2
}

_with_image(obj, image) := json.patch(obj, [{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": image}])

# With an inventory the identity rule is the same.
test_identity_with_an_inventory if {
	everywhere := {"pools": [0], "nodes": []}
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	groups := {"hostport-conflict": {"80/TCP": [g |
		some i, obj in [envoy, _without_namespace(envoy)]
		fs := facts with input as obj
		some f in fs
		g := object.union(f, {"id": i, "object": sprintf("o%d", [i]), "eligible": everywhere})
	]}}
	count(aggregate) == 0 with input as {"groups": groups}
}

_on(obj, scheduling) := json.patch(obj, [{"op": "add", "path": sprintf("/spec/template/spec/%s", [k]), "value": v} | some k, v in scheduling])

_affinity(reqs) := {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": reqs}]}}}

_ds_msg := "the other pods stay Pending there or the DaemonSet misses those nodes"

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
		{f.fact | some f in _findings([_on(_ds("a", port), {"nodeSelector": {"kubernetes.io/os": "linux"}}), _on(_ds("b", port), other)])} == {0, 1}
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
		{f.fact | some f in _findings([_on(_ds("a", port), pinned), _on(_ds("b", port), pinned)])} == {0, 1}
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
	some f in found
	f.fact == 0
	f.message == sprintf("hostPort 9100/TCP of daemonset \"exporter\" in namespace \"ops\" is also used by daemonset \"agent\" in namespace \"a\" (2.yaml:20), daemonset \"agent\" in namespace \"b\" (3.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])
}

# With an inventory too.
test_each_other_workload_is_named_once_with_an_inventory if {
	everywhere := {"pools": [0], "nodes": []}
	envoy := _ds("envoy", _port({"containerPort": 8080, "hostPort": 80}))
	ingress := _ds("ingress", _port({"containerPort": 8080, "hostPort": 80}))
	groups := {"hostport-conflict": {"80/TCP": [g |
		some i, obj in [envoy, _without_namespace(envoy), envoy, ingress]
		fs := facts with input as obj
		some f in fs
		g := object.union(f, {"id": i, "object": sprintf("o%d", [i]), "eligible": everywhere, "file": sprintf("%d.yaml", [i]), "line": 20})
	]}}
	found := aggregate with input as {"groups": groups}
	some f in found
	f.fact == 3
	f.message == sprintf("hostPort 80/TCP of daemonset \"ingress\" in namespace \"ops\" is also used by daemonset \"envoy\" in namespace \"ops\" (0.yaml:20) on nodes both can land on: only one pod per node can bind it, so %s", [_ds_msg])
}

# The forms of one workload (a DaemonSet and a Deployment of one proxy) are
# named once in another workload's message.
test_forms_of_one_workload_are_named_once if {
	port := _port({"containerPort": 8080, "hostPort": 80})
	found := _findings([_ds("envoy", port), _deploy("envoy", port), _ds("ingress", port)])
	some f in found
	f.fact == 2
	f.message == sprintf("hostPort 80/TCP of daemonset \"ingress\" in namespace \"ops\" is also used by daemonset \"envoy\" in namespace \"ops\" (0.yaml:20) on the same nodes: only one pod per node can bind it, so %s", [_ds_msg])
}
