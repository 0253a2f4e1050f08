# Node constraints of a pod spec.
package dslint.lib.nodes_test

import data.dslint.lib.nodes

_required(terms) := {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}

_expr(key, op) := {"matchExpressions": [{"key": key, "operator": op, "values": ["v"]}]}

test_generic_labels if {
	nodes.is_generic_label("kubernetes.io/os")
	nodes.is_generic_label("node.kubernetes.io/instance-type")
	nodes.is_generic_label("topology.kubernetes.io/zone")
	nodes.is_generic_label("failure-domain.beta.kubernetes.io/region")
	not nodes.is_generic_label("topology.kubernetes.io")
	not nodes.is_generic_label("pool")
	not nodes.is_generic_label("example.com/topology.kubernetes.io/zone")
}

test_fields if {
	nodes.node_name({"nodeName": "n"}) == "n"
	nodes.node_name({"nodeName": 5}) == ""
	nodes.node_name({}) == ""
	nodes.node_selector({"nodeSelector": {"a": "b"}}) == {"a": "b"}
	nodes.node_selector({"nodeSelector": "x"}) == {}
	nodes.required_terms(_required([{}])) == [{}]
	nodes.required_terms(_required("x")) == []
	nodes.required_terms({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}}) == []
	nodes.required_terms({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": false}}}) == []
	nodes.required_terms({}) == []
}

test_has_constraint if {
	nodes.has_constraint({"nodeName": "n"})
	nodes.has_constraint({"nodeSelector": {"a": "b"}})
	nodes.has_constraint(_required([]))
	not nodes.has_constraint({})
	not nodes.has_constraint({"nodeName": ""})
	not nodes.has_constraint({"nodeName": 5})
	not nodes.has_constraint({"nodeSelector": {}})
	not nodes.has_constraint({"nodeSelector": ["a"]})
	not nodes.has_constraint({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}})
	not nodes.has_constraint({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": false}}})
}

test_pins_pool if {
	nodes.pins_pool({"nodeName": "n"})
	nodes.pins_pool({"nodeSelector": {"kubernetes.io/os": "linux", "pool": "gpu"}})
	nodes.pins_pool(_required([_expr("pool", "In")]))
	not nodes.pins_pool({"nodeSelector": {"kubernetes.io/os": "linux"}})
	not nodes.pins_pool({"nodeSelector": "pool"})
	not nodes.pins_pool({"nodeName": ""})
	not nodes.pins_pool(_required([_expr("pool", "In"), _expr("kubernetes.io/os", "In")]))
	not nodes.pins_pool(_required([_expr("pool", "NotIn")]))
}

test_extended_resources if {
	nodes.extended_resources({"containers": [{"resources": {"limits": {"nvidia.com/gpu": 1, "cpu": "1"}, "requests": {"amd.com/gpu": "1"}}}]}) == {"nvidia.com/gpu", "amd.com/gpu"}
	nodes.extended_resources({"initContainers": [{"resources": {"requests": {"google.com/tpu": 4}}}]}) == {"google.com/tpu"}
	count(nodes.extended_resources({"containers": [{"resources": {"limits": {"memory": "1Gi", "hugepages-2Mi": "1Gi", "kubernetes.io/batch-cpu": "1", "requests.nvidia.com/gpu": "1"}}}]})) == 0
	count(nodes.extended_resources({"containers": [{"resources": {"limits": {"nvidia.com/gpu": 0}}}]})) == 0
	count(nodes.extended_resources({"containers": "x"})) == 0
	nodes.pins_pool({"containers": [{"resources": {"limits": {"nvidia.com/gpu": 1}}}]})
}

test_dra_claim_pins_pool if {
	nodes.pins_pool({"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "single-gpu"}]})
	not nodes.pins_pool({"resourceClaims": []})
}
