# METADATA
# title: File or document that is not valid YAML or JSON
# description: |
#   The file, or one document of it, does not parse, so nothing in it can be
#   checked and kubectl apply would refuse it. The position is the one the
#   YAML parser reports. The other documents of the file are still linted.
#   A document beyond the limits dslint reads is reported the same way, at
#   the node that breaks the limit: with more than 2,500,000 YAML nodes
#   (some 10 to 20 MiB of YAML), nested more than 1,000 levels deep,
#   expanded by aliases by more than 1,000,000 nodes (a "billion laughs"
#   document), or holding an alias inside the node its own anchor names;
#   or, in a stream of documents larger than 32 MiB, a document of more
#   than 32 MiB of text, at its first line.
#   After 100 such documents the rest of a file is not read.
#   This rule is raised by the parser, not by Rego: the package holds its
#   metadata only.
# related_resources:
#   - ref: https://yaml.org/spec/1.2.2/
#     description: YAML 1.2
# custom:
#   severity: error
#   intent: |
#     Fires once per document that does not parse or breaks a reading limit,
#     at the parser's position; the other documents still get linted. Loose
#     Helm templates ({{ }}) are skipped with a hint instead, not reported.
#   source: parser
#   remediation: |
#     Fix the syntax at the reported line: usually indentation, a tab used for
#     indentation, an unclosed quote or bracket, or a missing ": " after a key.
#     Files with Helm template syntax are not parse errors: render them first
#     with helm template and pipe the output to dslint -. Split a document
#     beyond a limit into smaller ones, or write its aliases out.
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
