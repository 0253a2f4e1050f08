package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/engine"
)

const newRuleUsage = `dslint new-rule [--dir DIR] ID

Writes a custom rule to start from, with its tests and fixtures:
  DIR/ID.rego                           the rule: # METADATA and a report set
  DIR/ID_test.rego                      its Rego unit tests
  DIR/fixtures/ID/fail_example.yaml     a manifest the rule must flag, "# want: ID" on the line
  DIR/fixtures/ID/pass_example.yaml     a manifest it must accept
The example rule reports workloads whose pods set no priorityClassName; edit
it, its tests and its fixtures into your own, and run dslint test DIR.

ID is lowercase words joined by '-' and must not be a built-in rule's id.
DIR defaults to the first policies: directory of .dslint.yaml, or ./policy.
Existing files are never overwritten.`

func runNewRule(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "new-rule", newRuleUsage)
	dir := fs.String("dir", "", "policy `DIR` to write the rule to (default: the config's first policies: entry, or policy)")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() != 1 {
		return 0, usagef("new-rule takes one rule id, got %d arguments (dslint new-rule --help)", fs.NArg())
	}
	id := fs.Arg(0)
	if err := checkNewRuleID(id); err != nil {
		return 0, err
	}
	if *dir == "" {
		dirs, err := policyDirs(nil)
		if err != nil {
			return 0, err
		}
		*dir = dirs[0]
	}
	files := scaffold(*dir, id)
	for _, f := range files {
		if _, err := os.Lstat(f.path); err == nil {
			return 0, usagef("%s already exists: new-rule never overwrites a file (choose another id, or move the file away)", f.path)
		}
	}
	for _, f := range files {
		if err := writeNew(f.path, f.content); err != nil {
			return 0, err
		}
		fmt.Fprintf(e.stdout, "wrote %s\n", f.path)
	}
	fmt.Fprintf(e.stdout, `
Next:
  edit %s, its tests and its fixtures
  dslint test %s                 run the rule's tests and fixtures
  dslint --policy %s PATH...     lint with it
`, files[0].path, *dir, *dir)
	return ExitOK, nil
}

// checkNewRuleID refuses an id the engine would refuse, and the id of a
// built-in rule, which a policy cannot take.
func checkNewRuleID(id string) error {
	if !engine.ValidRuleID(id) {
		return usagef("invalid rule id %q: use lowercase letters and digits, words joined by '-' (like gpu-priority-class)", id)
	}
	ids, err := builtinRuleIDs()
	if err != nil {
		return err
	}
	if slices.Contains(ids, id) {
		return usagef("%q is the id of a built-in rule (dslint explain %s): choose another, like %q", id, id, "custom-"+id)
	}
	return nil
}

type scaffoldFile struct{ path, content string }

// scaffold is the files of a new rule, the rule first.
func scaffold(dir, id string) []scaffoldFile {
	fill := func(s string) string { return strings.ReplaceAll(s, "RULE_ID", id) }
	fixtures := filepath.Join(dir, "fixtures", id)
	return []scaffoldFile{
		{filepath.Join(dir, id+".rego"), fill(ruleTemplate)},
		{filepath.Join(dir, id+"_test.rego"), fill(ruleTestTemplate)},
		{filepath.Join(fixtures, "fail_example.yaml"), fill(failFixtureTemplate)},
		{filepath.Join(fixtures, "pass_example.yaml"), fill(passFixtureTemplate)},
	}
}

// writeNew writes a file that must not exist yet, and the directories
// above it.
func writeNew(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return usagef("%v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usagef("%s already exists: new-rule never overwrites a file", path)
	}
	if err != nil {
		return usagef("%v", err)
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return usagef("write %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return usagef("write %s: %v", path, err)
	}
	return nil
}

const ruleTemplate = `# METADATA
# title: Workload without a priority class
# description: |
#   An example written by dslint new-rule, to edit into your own rule: it
#   reports a workload whose pods set no priorityClassName, so the scheduler
#   gives them the cluster's default priority and may preempt them first.
#   dslint builds the rule's documentation (dslint explain RULE_ID) and its
#   SARIF descriptor from this block.
# custom:
#   severity: warning
#   # needs_inventory: true would mark a rule that finds nothing without a
#   # node inventory (--nodes, or nodes: and pools: in .dslint.yaml).
#   intent: |
#     Fires on every workload whose pod template sets no priorityClassName.
#     Stays quiet for objects that are not workloads and for fragments (a
#     patch or test assertion without containers).
#   remediation: |
#     Set priorityClassName in the pod template to one of the cluster's
#     PriorityClasses.
#   bad: |
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
#           priorityClassName: business-critical
#           containers: [{name: web, image: nginx:1.27}]
package dslint.rules["RULE_ID"]

import data.dslint.lib.k8s
import data.dslint.lib.result

# report is the rule's findings on the object in input. k8s.pods are the
# object's pod templates: one for a Deployment or a CronJob, one per head
# and worker group of a RayCluster and per template of the other custom
# resources dslint knows, none for objects that make no pods. result.fail
# takes the path of the offending field (keys and indexes, as in the object)
# and a message; dslint turns the path into a file:line:col.
# k8s.pod_path(pod, field) is the path of a field of the pod spec; a field
# that is absent is reported at its nearest existing parent: here, the pod
# spec. k8s.workload_label(pod) names the workload in messages (and which
# pod template, for a custom resource with several).
report contains result.fail(k8s.pod_path(pod, ["priorityClassName"]), msg) if {
	some pod in k8s.pods
	object.get(pod.spec, "priorityClassName", "") == ""
	msg := sprintf("%s sets no priorityClassName: its pods get the default priority and are preempted first", [k8s.workload_label(pod)])
}
`

const ruleTestTemplate = `package dslint.rules["RULE_ID_test"]

import data.dslint.rules["RULE_ID"] as rule

# Tests evaluate the rule's report set on an object given as input and
# compare whole findings (path and message): one test that finds, one that
# passes. They sit in a package of their own, whose name ends in _test, and
# read the rule as dslint uses it. dslint test runs every test_ rule.

_deployment(pod_spec) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "web"},
	"spec": {
		"selector": {"matchLabels": {"app": "web"}},
		"template": {
			"metadata": {"labels": {"app": "web"}},
			"spec": pod_spec,
		},
	},
}

_containers := [{"name": "web", "image": "nginx:1.27"}]

test_reports_a_workload_without_priority_class if {
	rule.report == {{
		"path": ["spec", "template", "spec", "priorityClassName"],
		"message": "deployment \"web\" sets no priorityClassName: its pods get the default priority and are preempted first",
	}} with input as _deployment({"containers": _containers})
}

test_accepts_a_workload_with_priority_class if {
	rule.report == set() with input as _deployment({"priorityClassName": "business-critical", "containers": _containers})
}
`

const failFixtureTemplate = `# dslint test lints this file with the built-in rules and your policies.
# The comment on the "spec:" line below marks a line a RULE_ID finding is
# expected on, at the column where the key starts (add @COLUMN after the id
# for another column); the findings must be exactly the ones marked.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec: # want: RULE_ID
      containers:
        - name: web
          image: nginx:1.27
`

const passFixtureTemplate = `# A manifest RULE_ID must accept: dslint test fails on any RULE_ID finding
# here.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      priorityClassName: business-critical
      containers:
        - name: web
          image: nginx:1.27
`
