# METADATA
# description: |
#   What a pod requests, as the scheduler's NodeResourcesFit filter reads it
#   (reference §10.1-§10.2, component-helpers resource.PodRequests): each
#   container requests what it states, a limit standing in for a missing
#   request (the API server's defaulting); the containers and the sidecars
#   (init containers with restartPolicy Always) are summed; a plain init
#   container needs its own requests plus the sidecars before it; the pod
#   needs the larger of the sum and the most any init container needs.
#   Pod-level requests (spec.resources) replace the sum for cpu, memory
#   and hugepages; spec.overhead is added. cpu is counted in thousandths,
#   everything else in units, each rounded up once, after the sums.
#   internal/differential compares requests with PodRequests.
package dslint.lib.resources

import data.dslint.lib.quantity

# requests(spec) is what each pod of the pod spec requests, by resource
# name, in the scheduler's units: cpu in millicores, every other resource
# in units (bytes, GPUs). Resources it requests none of are left out.
requests(spec) := {name: quantity.from_nano(n, _places(name)) |
	some name, n in _pod(spec)
	n > 0
}

# _places: cpu in thousandths, everything else in units.
# request_path(spec, name) is the path, from the pod spec, of the first
# field that states a request of name: a container's or init container's
# request or limit, the pod-level request, the overhead.
request_path(spec, name) := paths[0] if {
	paths := array.concat(
		[[field, i, "resources", kind, name] |
			some field in ["containers", "initContainers"]
			some i, c in _list(object.get(spec, field, []))
			some kind in ["requests", "limits"]
			object.get(_object(c), ["resources", kind, name], null) != null
		],
		[path |
			some path in [["resources", "requests", name], ["overhead", name]]
			object.get(spec, path, null) != null
		],
	)
	count(paths) > 0
}

_places("cpu") := 3

_places(name) := 0 if name != "cpu"

# _pod(spec) is the pod's requests in billionths, before rounding. Each
# container is read once (_stated); the sums and peaks work on what they
# state, small maps, not on the containers.
_pod(spec) := _combine(containers, inits, _pod_level(spec), overhead) if {
	containers := [_stated(c) | some c in _list(object.get(spec, "containers", []))]
	inits := [[_stated(c), _restart_policy(c)] | some c in _list(object.get(spec, "initContainers", []))]
	overhead := {name: _nano(q) |
		some name, q in _object(object.get(spec, "overhead", {}))
		_counted(name)
	}
}

_combine(containers, inits, levels, overhead) := {name: n |
	some name in _names(containers, inits, levels, overhead)
	n := _base(containers, inits, levels, name) + object.get(overhead, name, 0)
}

# _names are the resources the pod names anywhere.
_names(containers, inits, levels, overhead) := ({name |
	some c in array.concat(containers, [c | some [c, _] in inits])
	some name in object.keys(c)
} | object.keys(overhead)) | object.keys(levels)

# _base is the pod-level request where there is one, the containers'
# aggregate otherwise: the larger of the containers' and sidecars' sum and
# the most an init container needs.
_base(_, _, levels, name) := levels[name]

_base(containers, inits, levels, name) := max([_sum(containers, inits, name), _init_peak(inits, name)]) if {
	not levels[name]
}

_sum(containers, inits, name) := sum([object.get(c, name, 0) | some c in containers]) + _sidecars_before(inits, count(inits), name)

# _init_peak is what the init container that needs most needs: a plain one
# its own requests plus the sidecars started before it, a sidecar those
# started up to it.
_init_peak(inits, name) := max(array.concat([0], [need |
	some i, [c, _] in inits
	need := _sidecars_before(inits, i, name) + object.get(c, name, 0)
]))

_sidecars_before(inits, i, name) := sum([object.get(c, name, 0) |
	some j, [c, "Always"] in inits
	j < i
])

# A sidecar is an init container with restartPolicy Always.
_restart_policy(c) := object.get(_object(c), "restartPolicy", "")

# _stated(c) are container c's requests by name, in billionths, its limits
# filling in; 0 for a quantity Kubernetes would refuse.
_stated(c) := {name: n |
	some name, q in object.union(_object(object.get(_object(c), ["resources", "limits"], {})), _object(object.get(_object(c), ["resources", "requests"], {})))
	_counted(name)
	n := _nano(q)
}

# _pod_level(spec) are the pod-level requests the scheduler uses: the cpu,
# memory and hugepages of spec.resources.requests.
_pod_level(spec) := {name: _nano(q) |
	some name, q in _object(object.get(spec, ["resources", "requests"], {}))
	_pod_level_resource(name)
}

_pod_level_resource(name) if name in {"cpu", "memory"}

_pod_level_resource(name) if startswith(name, "hugepages-")

# _counted(name) holds for the resources NodeResourcesFit counts: cpu,
# memory, ephemeral-storage and the scalar resources (extended resources,
# hugepages-*, kubernetes.io/ names, attachable-volumes-*); the scheduler
# drops other names.
_counted(name) if name in {"cpu", "memory", "ephemeral-storage"}

_counted(name) if contains(name, "/")

_counted(name) if startswith(name, "hugepages-")

_counted(name) if startswith(name, "attachable-volumes-")

# _nano(q) is q in billionths; 0 for what is no quantity or is negative (the
# API server refuses those).
_nano(q) := n if {
	n := quantity.nano(q)
} else := 0

_list(x) := x if is_array(x)

_list(x) := [] if not is_array(x)

_object(x) := x if is_object(x)

_object(x) := {} if not is_object(x)
