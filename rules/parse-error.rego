# METADATA
# title: File or document that is not valid YAML or JSON
# description: |
#   The file, or one document of it, does not parse, so nothing in it can be
#   checked and kubectl apply would refuse it. The position is the one the
#   YAML parser reports. The other documents of the file are still linted.
#   This rule is raised by the parser, not by Rego: the package holds its
#   metadata only.
# related_resources:
#   - ref: https://yaml.org/spec/1.2.2/
#     description: YAML 1.2
# custom:
#   severity: error
#   source: parser
#   remediation: |
#     Fix the syntax at the reported line: usually indentation, a tab used for
#     indentation, an unclosed quote or bracket, or a missing ": " after a key.
#     Files with Helm template syntax are not parse errors: render them first
#     with helm template and pipe the output to dslint -.
#   bad: |
#     apiVersion: v1
#     kind: Pod
#     metadata:
#       name: web
#     spec:
#       containers:
#         - name: web
#          image: nginx:1.27
#   good: |
#     apiVersion: v1
#     kind: Pod
#     metadata:
#       name: web
#     spec:
#       containers:
#         - name: web
#           image: nginx:1.27
package dslint.rules["parse-error"]
