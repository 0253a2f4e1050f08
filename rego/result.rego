# METADATA
# description: |
#   Building findings. A finding is an object with the field path of the
#   offending field (keys and indexes, as in the object) and a message; dslint
#   turns the path into the field's own line and column. A path into a field
#   that is absent points at its nearest existing parent.
#
#   A finding whose problem has exactly one right repair also carries it as
#   data, in "fix" (with_fix): a list of edits to the object the finding is
#   about, which dslint fix applies to the file without touching anything
#   else. Each edit names an absolute path into the object, keys and indexes
#   like a finding's path (k8s.pod_path builds them):
#
#   - {"op": "remove", "path": P} removes the mapping key or the list item
#     at P (remove);
#   - {"op": "replace", "path": P, "value": V} replaces the scalar at P with
#     the scalar V (replace);
#   - {"op": "add", "path": P, "value": V}, where P ends in "-", appends V
#     (a mapping such as a toleration, or a scalar) to the list at P without
#     the "-", which is created when absent (append);
#   - {"op": "quote", "path": P} makes the plain scalar at P that YAML 1.1
#     reads as a boolean or a number (yes, on, 0755, 1e3) the string it is
#     written as (quote).
#
#   A fix is the repair of its own finding: identical edits of several
#   findings of an object are made once. A problem with more than one
#   plausible repair carries no fix.
package dslint.lib.result

import data.dslint.lib.k8s

# fail is a finding at path (an array of keys and indexes) with message.
fail(path, message) := {"path": path, "message": message}

# with_severity overrides the rule's default severity for one finding.
with_severity(finding, severity) := object.union(finding, {"severity": severity})

# info_for_daemonsets lowers a finding to info when input is a DaemonSet, for
# rules whose concern is expected of node agents that run everywhere.
info_for_daemonsets(finding) := with_severity(finding, "info") if k8s.is_daemonset

info_for_daemonsets(finding) := finding if not k8s.is_daemonset

# as_written(value) stands in a message for value as the user wrote it at
# the finding's path: dslint puts the scalar's text there (yes, On, 0x1F),
# or value itself where it has none. A YAML 1.1 boolean is read as true or
# false, but the user wrote yes: quote what they wrote.
as_written(value) := sprintf("⟦written:%v⟧", [value])

# read_as(value) says what YAML made of a value that should have been a
# string: "the boolean true", "the number 8".
read_as(value) := sprintf("the boolean %v", [value]) if is_boolean(value)

read_as(value) := sprintf("the number %v", [value]) if is_number(value)

read_as(value) := sprintf("the %s %s", [type_name(value), json.marshal(value)]) if {
	not is_boolean(value)
	not is_number(value)
}

# quotable(value) is true when YAML read a plain scalar that should have
# been a string as a boolean or a number (yes, on, 8, 0755): quoting it as
# written gives the string its author meant.
quotable(value) if is_boolean(value)

quotable(value) if is_number(value)

# --- fixes ---------------------------------------------------------------------

# with_fix gives a finding its repair, a list of edits (remove, replace,
# append, quote) to the object the finding is about.
with_fix(finding, edits) := object.union(finding, {"fix": edits})

# remove(path) removes the mapping key or the list item at path.
remove(path) := {"op": "remove", "path": path}

# replace(path, value) replaces the scalar at path with the scalar value.
replace(path, value) := {"op": "replace", "path": path, "value": value}

# append(list_path, value) appends value to the list at list_path, which is
# created when absent.
append(list_path, value) := {"op": "add", "path": array.concat(list_path, ["-"]), "value": value}

# quote(path) makes the plain scalar at path, which YAML reads as a boolean
# or a number, the string it is written as.
quote(path) := {"op": "quote", "path": path}
