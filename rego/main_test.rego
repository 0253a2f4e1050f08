# The router's queries of dslint schedule: what it reads of each pod of a
# workload besides where it can land.
package dslint.main_test

import data.dslint.main
import data.dslint.test.inventory as testinv

_taint := {"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}

_inventory := testinv.indexed({"pools": [
	testinv.pool("general", {"pool": "general"}, [], ["g-1"]),
	testinv.pool("gpu", {"pool": "gpu"}, [_taint], ["gpu-1"]),
]})

_pools := [
	{"name": "gpu", "labels": {"pool": "gpu"}, "taints": [_taint], "owners": {"namespaces": ["ml", "ml-*"]}},
	{"name": "infra", "labels": {"pool": "infra"}, "taints": [{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]},
]

_deployment(namespace, spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "app", "namespace": namespace},
	"spec": {"replicas": 2, "template": {"spec": object.union({"containers": [{"name": "c", "image": "i"}]}, spec)}},
}

test_schedule_ownership_of_an_outsider if {
	tolerating := _deployment("web", {"tolerations": [{"key": "dedicated", "operator": "Exists"}]})
	[pod] := main.schedule with input as tolerating
		with data.dslint.inventory as _inventory
		with data.dslint.config.pools as _pools
	pod.ownership == [{"pool": "gpu", "breaks": "lands"}]
	pod.capacity.placed == 2
	asking := _deployment("web", {"nodeSelector": {"pool": "gpu"}})
	[asks] := main.schedule with input as asking
		with data.dslint.inventory as _inventory
		with data.dslint.config.pools as _pools
	asks.ownership == [{"pool": "gpu", "breaks": "asks"}]
}

test_schedule_ownership_of_an_owner_or_a_bystander if {
	owning := _deployment("ml-vision", {"nodeSelector": {"pool": "gpu"}, "tolerations": [{"key": "dedicated", "operator": "Exists"}]})
	[owner] := main.schedule with input as owning
		with data.dslint.inventory as _inventory
		with data.dslint.config.pools as _pools
	owner.ownership == []
	[bystander] := main.schedule with input as _deployment("web", {})
		with data.dslint.inventory as _inventory
		with data.dslint.config.pools as _pools
	bystander.ownership == []
}
