package lint

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// lintString runs the pipeline on one document stream read from stdin.
func lintString(t *testing.T, src string, opts Options) *finding.Result {
	t.Helper()
	if opts.Rules == nil {
		opts.Rules = newRules(t)
	}
	out, problems := Run(context.Background(), []manifest.Source{{Path: manifest.Stdin, Name: "in.yaml"}}, strings.NewReader(src), opts)
	if err := problems.Err(); err != nil {
		t.Fatal(err)
	}
	return out.Result
}

func rulesOf(res *finding.Result, suppressed bool) []string {
	var out []string
	for _, f := range res.Findings {
		if f.Suppressed == suppressed {
			out = append(out, f.Rule)
		}
	}
	return out
}

const hostPorts = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: a
  annotations:
    ignore.dslint.io/hostport-conflict: "a is being retired"
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers: [{name: a, image: registry.example.com/a:1, ports: [{containerPort: 80, hostPort: 80}]}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: b
spec:
  selector: {matchLabels: {app: b}}
  template:
    metadata: {labels: {app: b}}
    spec:
      containers: [{name: b, image: registry.example.com/b:1, ports: [{containerPort: 80, hostPort: 80}]}]
`

// A cross-object finding is suppressed by the annotation of the object it
// is reported on, and only that one.
func TestSuppressCrossObjectFinding(t *testing.T) {
	res := lintString(t, hostPorts, Options{})
	var got []string
	for _, f := range res.Findings {
		if f.Rule == "hostport-conflict" {
			got = append(got, f.Object.Name+" "+map[bool]string{true: "suppressed", false: "reported"}[f.Suppressed])
		}
	}
	slices.Sort(got)
	if want := []string{"a suppressed", "b reported"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if res.Summary.Suppressed != 1 {
		t.Errorf("summary counts %d suppressed, want 1", res.Summary.Suppressed)
	}
}

// Turning a rule off does not make its suppressions unused, and the
// findings about suppressions are turned off like any rule.
func TestSuppressionsOfDisabledRules(t *testing.T) {
	src := `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    ignore.dslint.io/wildcard-toleration: ""
spec:
  containers: [{name: p, image: x}]
  tolerations:
    - operator: Exists
`
	res := lintString(t, src, Options{Rules: newRules(t, "wildcard-toleration")})
	if got := rulesOf(res, false); !slices.Equal(got, []string{"suppression-without-reason"}) {
		t.Errorf("with wildcard-toleration off: %v", got)
	}
	res = lintString(t, src, Options{Rules: newRules(t, "suppression-without-reason")})
	if got := rulesOf(res, false); len(got) != 0 {
		t.Errorf("with suppression-without-reason off: %v", got)
	}
	if got := rulesOf(res, true); !slices.Equal(got, []string{"wildcard-toleration"}) {
		t.Errorf("suppressed: %v", got)
	}
}

// no-matching-nodes finds nothing without an inventory, so a suppression of
// it is not reported as unused then.
func TestSuppressionOfAnInventoryRuleWithoutInventory(t *testing.T) {
	src := `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    ignore.dslint.io/no-matching-nodes: "scheduled on the burst pool only"
    ignore.dslint.io/wildcard-toleration: "stale"
spec:
  containers: [{name: p, image: x}]
`
	res := lintString(t, src, Options{})
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Path)
	}
	want := []string{`unused-suppression metadata.annotations["ignore.dslint.io/wildcard-toleration"]`}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
