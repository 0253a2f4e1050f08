# METADATA
# description: |
#   The router: every rule is a package under data.dslint.rules whose last
#   path element is the rule id, and whose `report` set holds its findings.
#   Adding a rule needs no edit here.
package dslint.main

import data.dslint.lib.inventory
import data.dslint.lib.k8s
import data.dslint.lib.placement as placement_lib
import data.dslint.lib.pools

# report is every finding of every enabled rule for the object in input.
report contains finding if {
	some rule_id, f
	data.dslint.rules[rule_id].report[f]
	finding := object.union(f, {"rule": rule_id})
}

# workload is true when input has a pod template dslint analyses.
default workload := false

workload if k8s.is_workload

# patch is true for a fragment of a workload (k8s.is_fragment: a Kustomize
# patch, a test assertion), which is skipped.
default patch := false

patch if k8s.is_fragment

# facts is what cross-object rules record about the object in input.
facts contains fact if {
	some rule_id, f
	data.dslint.rules[rule_id].facts[f]
	fact := object.union(f, {"rule": rule_id})
}

# aggregate is every finding of the cross-object rules, evaluated once per
# run with input.groups[<rule id>][<group>] = the facts recorded in the run.
# A finding names the fact it is about ("fact": the fact's id).
aggregate contains finding if {
	some rule_id, f
	data.dslint.rules[rule_id].aggregate[f]
	finding := object.union(f, {"rule": rule_id})
}

# result is everything dslint asks about one object, in one document.
result := {"report": report, "facts": facts, "workload": workload, "patch": patch}

# placement is where the pods of each pod template of the workload in input
# can land on the inventory's nodes (dslint schedule): the verdicts per pool
# of each pod, in the order of k8s.pods.
placement := placement_lib.summaries

# placement_key is all placement reads of the workload in input.
placement_key := placement_lib.keys

# schedule lists, for each pod of the workload in input, what dslint
# schedule reads of it besides placement, which workloads that place alike
# share: how many of its replicas land (pod_placement: they depend on its
# replicas and labels), and the declared pools whose ownership it breaks
# (pools.violation: they depend on its namespace and labels), as
# [{"pool", "breaks": "asks" or "lands"}].
schedule := [{"capacity": placement_lib.pod_placement(pod), "ownership": _ownership(pod)} | some pod in k8s.pods] if {
	k8s.is_workload
	placement_lib.has_inventory
}

_ownership(pod) := [{"pool": pool.name, "breaks": how} |
	some pool in pools.owned
	how := pools.violation(pod, pool)
]

# node_problems are the validation problems of the nodes of the inventory,
# given as their distinct labels, taint lists and unschedulable values.
node_problems := inventory.batch_problems
