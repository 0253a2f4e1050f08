# Findings and the fixes they carry: the edits are the data dslint fix
# decodes, so their shape is pinned field for field.
package dslint.lib.result_test

import data.dslint.lib.result

_path := ["spec", "tolerations", 0, "value"]

test_fail if {
	result.fail(_path, "m") == {"path": _path, "message": "m"}
}

test_with_fix_adds_the_edits if {
	f := result.with_fix(result.fail(_path, "m"), [result.remove(_path)])
	f == {"path": _path, "message": "m", "fix": [{"op": "remove", "path": _path}]}
}

# with_fix keeps what the finding already says, its severity included.
test_with_fix_keeps_the_severity if {
	f := result.with_fix(result.with_severity(result.fail(_path, "m"), "info"), [])
	f == {"path": _path, "message": "m", "severity": "info", "fix": []}
}

test_remove if {
	result.remove(["spec", "tolerations", 2]) == {"op": "remove", "path": ["spec", "tolerations", 2]}
}

test_replace if {
	result.replace(["spec", "tolerations", 0, "operator"], "Exists") == {
		"op": "replace",
		"path": ["spec", "tolerations", 0, "operator"],
		"value": "Exists",
	}
}

# append's path ends in "-", the end of the list.
test_append if {
	t := {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}
	result.append(["spec", "template", "spec", "tolerations"], t) == {
		"op": "add",
		"path": ["spec", "template", "spec", "tolerations", "-"],
		"value": t,
	}
}

test_quote if {
	result.quote(_path) == {"op": "quote", "path": _path}
}

test_quotable if {
	result.quotable(true)
	result.quotable(false)
	result.quotable(8)
	result.quotable(1.5)
	not result.quotable("yes")
	not result.quotable(null)
	not result.quotable({"a": 1})
	not result.quotable(["a"])
}
