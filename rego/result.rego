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
