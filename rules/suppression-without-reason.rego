# METADATA
# title: Suppression without a reason
# description: |
#   A finding was silenced with an ignore.dslint.io/<rule-id> annotation or
#   a "# dslint:ignore <rule-id>" comment that does not say why. The
#   suppression still applies, but the next reader cannot tell a considered
#   decision from a way to make CI green, and cannot tell when it stops
#   being true. This rule is raised by dslint's suppression step, not by
#   Rego: the package holds its metadata only.
# related_resources:
#   - ref: https://github.com/dslint/dslint#suppressing-findings
#     description: Suppressing findings
# custom:
#   severity: info
#   intent: |
#     Informs on every suppression (annotation or comment) that gives no
#     reason; the suppression still applies. Stays quiet when any text follows
#     the rule ids.
#   source: suppression
#   remediation: |
#     Write the reason after the rule id of the comment
#     ("# dslint:ignore wildcard-toleration runs on every node by design"),
#     or as the value of the annotation.
#   bad: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: log-agent
#       annotations:
#         ignore.dslint.io/daemonset-missing-control-plane-toleration: ""
#     spec:
#       selector: {matchLabels: {app: log-agent}}
#       template:
#         metadata: {labels: {app: log-agent}}
#         spec:
#           containers: [{name: agent, image: fluent/fluent-bit:3.1}]
#   good: |
#     apiVersion: apps/v1
#     kind: DaemonSet
#     metadata:
#       name: log-agent
#       annotations:
#         ignore.dslint.io/daemonset-missing-control-plane-toleration: "control-plane logs are shipped by the provider"
#     spec:
#       selector: {matchLabels: {app: log-agent}}
#       template:
#         metadata: {labels: {app: log-agent}}
#         spec:
#           containers: [{name: agent, image: fluent/fluent-bit:3.1}]
package dslint.rules["suppression-without-reason"]
