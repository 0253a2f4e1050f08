# METADATA
# description: |
#   Building findings. A finding is an object with the field path of the
#   offending field (keys and indexes, as in the object) and a message; dslint
#   turns the path into the field's own line and column. A path into a field
#   that is absent points at its nearest existing parent.
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
