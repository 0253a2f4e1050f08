# Node constraints of a pod spec.
package dslint.lib.nodes

_required(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_expr(key, op) := {"matchExpressions": [{"key": key, "operator": op, "values": ["v"]}]}

test_generic_labels if {
	is_generic_label("kubernetes.io/os")
	is_generic_label("node.kubernetes.io/instance-type")
	is_generic_label("topology.kubernetes.io/zone")
	is_generic_label("failure-domain.beta.kubernetes.io/region")
	not is_generic_label("topology.kubernetes.io")
	not is_generic_label("pool")
	not is_generic_label("example.com/topology.kubernetes.io/zone")
}

test_fields if {
	node_name({"nodeName": "n"}) == "n"
	node_name({"nodeName": 5}) == ""
	node_name({}) == ""
	node_selector({"nodeSelector": {"a": "b"}}) == {"a": "b"}
	node_selector({"nodeSelector": "x"}) == {}
	required_terms(_required([{}])) == [{}]
	required_terms(_required("x")) == []
	required_terms({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}}) == []
	required_terms({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": false}}}) == []
	required_terms({}) == []
}

test_has_constraint if {
	has_constraint({"nodeName": "n"})
	has_constraint({"nodeSelector": {"a": "b"}})
	has_constraint(_required([]))
	not has_constraint({})
	not has_constraint({"nodeName": ""})
	not has_constraint({"nodeName": 5})
	not has_constraint({"nodeSelector": {}})
	not has_constraint({"nodeSelector": ["a"]})
	not has_constraint({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}})
	not has_constraint({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": false}}})
}

test_pins_pool if {
	pins_pool({"nodeName": "n"})
	pins_pool({"nodeSelector": {"kubernetes.io/os": "linux", "pool": "gpu"}})
	pins_pool(_required([_expr("pool", "In")]))
	not pins_pool({"nodeSelector": {"kubernetes.io/os": "linux"}})
	not pins_pool({"nodeSelector": "pool"})
	not pins_pool({"nodeName": ""})
	not pins_pool(_required([_expr("pool", "In"), _expr("kubernetes.io/os", "In")]))
	not pins_pool(_required([_expr("pool", "NotIn")]))
}

test_extended_resources if {
	extended_resources({"containers": [{"resources": {"limits": {"nvidia.com/gpu": 1, "cpu": "1"}, "requests": {"amd.com/gpu": "1"}}}]}) == {"nvidia.com/gpu", "amd.com/gpu"}
	extended_resources({"initContainers": [{"resources": {"requests": {"google.com/tpu": 4}}}]}) == {"google.com/tpu"}
	count(extended_resources({"containers": [{"resources": {"limits": {"memory": "1Gi", "hugepages-2Mi": "1Gi", "kubernetes.io/batch-cpu": "1", "requests.nvidia.com/gpu": "1"}}}]})) == 0
	count(extended_resources({"containers": [{"resources": {"limits": {"nvidia.com/gpu": 0}}}]})) == 0
	count(extended_resources({"containers": "x"})) == 0
	pins_pool({"containers": [{"resources": {"limits": {"nvidia.com/gpu": 1}}}]})
}
