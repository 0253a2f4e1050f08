# METADATA
# title: Suppression that suppresses nothing
# description: |
#   An ignore.dslint.io annotation or a "# dslint:ignore" comment has
#   nothing to suppress: the rule it names finds nothing on that object (or
#   on the comment's own line for a comment at the end of a line, on the
#   next line for a comment alone on its line), the rule does not exist, or the
#   comment names no rule. Stale suppressions hide the next real finding of
#   the same rule, so they are reported to be cleaned up. A suppression of a
#   rule that is turned off, or of no-matching-nodes in a run without a node
#   inventory, is not reported. This rule is raised by dslint's suppression
#   step, not by Rego: the package holds its metadata only.
# related_resources:
#   - ref: https://github.com/dslint/dslint#suppressing-findings
#     description: Suppressing findings
# custom:
#   severity: info
#   intent: |
#     Informs on a suppression with nothing to suppress: no finding of its
#     rule on the object (annotation) or on its line (a comment at the end of
#     a line covers that line, a comment alone on its line the next one), an
#     unknown rule, or no rule named. Stays quiet for suppressions of a rule
#     that is turned off, and of no-matching-nodes in a run without an
#     inventory.
#   source: suppression
#   remediation: |
#     Remove the suppression, or fix the rule id it names (dslint rules lists
#     them). A comment at the end of a line applies to that line; a comment
#     alone on its line applies to the next one.
#   bad: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: web
#       annotations:
#         ignore.dslint.io/wildcard-toleration: "the toleration was removed in 2024"
#     spec:
#       selector: {matchLabels: {app: web}}
#       template:
#         metadata: {labels: {app: web}}
#         spec:
#           containers: [{name: web, image: nginx:1.27}]
#   good: |
#     apiVersion: apps/v1
#     kind: Deployment
#     metadata:
#       name: web
#     spec:
#       selector: {matchLabels: {app: web}}
#       template:
#         metadata: {labels: {app: web}}
#         spec:
#           containers: [{name: web, image: nginx:1.27}]
package dslint.rules["unused-suppression"]
