package admission

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/version"
	admissionpkg "k8s.io/apiserver/pkg/admission"

	"github.com/dslint/dslint/internal/admission"
	"github.com/dslint/dslint/internal/config"
)

// minVersion is the oldest Kubernetes the exported policy says it needs.
var minVersion = version.MajorMinor(1, 30)

// exportPolicy is dslint export-policy's policy for the config, run by
// the oracle.
func exportPolicy(t testing.TB, c *config.Config) *Oracle {
	t.Helper()
	policy, err := admission.Policy(c.Pools, c.FeatureGates, admission.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := New(policy, minVersion)
	if err != nil {
		t.Fatalf("the exported policy: %v\n%s", err, policy)
	}
	return o
}

// comparison compares, object by object and pool by pool, the policy's
// denials with dslint's findings, and counts what it compared.
type comparison struct {
	oracle *Oracle
	config *config.Config

	objects, pairs, violations int
	skipped                    []string // objects or pairs not compared, and why
	disagreements              []string
}

func newComparison(t testing.TB, c *config.Config) *comparison {
	return &comparison{oracle: exportPolicy(t, c), config: c}
}

// object compares the verdicts on one object; doc is its YAML, for the
// report of a disagreement; reported are the pools dslint reports for it.
func (c *comparison) object(t testing.TB, obj runtime.Object, doc []byte, reported []string) {
	t.Helper()
	key := keyOf(t, obj)
	spec := podSpecOf(obj)
	if spec == nil {
		c.skipped = append(c.skipped, key.String()+": not a kind the policy matches")
		return
	}
	if why := apiRejects(spec, c.config.FeatureGates["TaintTolerationComparisonOperators"]); why != "" {
		c.skipped = append(c.skipped, fmt.Sprintf("%s: the API server rejects it (%s)", key, why))
		return
	}
	namespace := key.namespace
	if namespace == "" {
		// dslint does not know where it will be applied (kubectl -n):
		// only the pools whose owners name no namespace are judged.
		namespace = "default"
	}
	denied := c.admit(t, obj, namespace)
	c.objects++
	for _, p := range c.config.Pools {
		if p.Owners == nil {
			continue
		}
		if key.namespace == "" && p.Owners.Namespaces != nil {
			c.skipped = append(c.skipped, fmt.Sprintf("%s, pool %q: no namespace to judge its owners by", key, p.Name))
			continue
		}
		c.pairs++
		_, cel := denied[p.Name]
		rego := slices.Contains(reported, p.Name)
		if cel {
			c.violations++
		}
		if cel != rego {
			c.disagreements = append(c.disagreements, fmt.Sprintf("%s, pool %q: the policy %s, dslint %s\n%s",
				key, p.Name, verb(cel, "denies it", "admits it"), verb(rego, "reports it", "does not"), doc))
		}
	}
}

// admit runs the policy on the object in both of the forms CEL has read
// objects in (typed and unstructured), which must agree.
func (c *comparison) admit(t testing.TB, obj runtime.Object, namespace string) map[string]string {
	t.Helper()
	typed, err := c.oracle.Admit(context.Background(), obj, namespace)
	if err != nil {
		t.Fatalf("%s: %v", keyOf(t, obj), err)
	}
	u, err := admissionpkg.ConvertObjectToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	unstructured, err := c.oracle.Admit(context.Background(), u, namespace)
	if err != nil {
		t.Fatalf("%s (unstructured): %v", keyOf(t, obj), err)
	}
	if !typed.Matched || !maps.Equal(typed.Denied, unstructured.Denied) {
		t.Fatalf("%s: the policy matches %v; denies %v typed, %v unstructured", keyOf(t, obj), typed.Matched, typed.Denied, unstructured.Denied)
	}
	for pool, msg := range typed.Denied {
		if !strings.HasPrefix(msg, strings.ToLower(keyOf(t, obj).kind)+` "`) {
			t.Errorf("%s, pool %q: the denial's message is not the messageExpression's: %s", keyOf(t, obj), pool, msg)
		}
	}
	return typed.Denied
}

// report fails the test on disagreements (the first few in full) and logs
// what was compared.
func (c *comparison) report(t testing.TB, what string) {
	t.Helper()
	t.Logf("%s: %d objects, %d (object, pool) verdicts compared, %d of them denials; %d skipped", what, c.objects, c.pairs, c.violations, len(c.skipped))
	for _, s := range c.skipped {
		t.Logf("skipped %s", s)
	}
	for i, d := range c.disagreements {
		if i == 5 {
			t.Errorf("... and %d more disagreements", len(c.disagreements)-i)
			break
		}
		t.Errorf("disagreement: %s", d)
	}
}

func verb(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

func keyOf(t testing.TB, obj runtime.Object) objectKey {
	t.Helper()
	acc, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	return objectKey{obj.GetObjectKind().GroupVersionKind().Kind, acc.GetNamespace(), acc.GetName()}
}

// podSpecOf is the pod spec of an object of a kind the policy matches,
// nil for other kinds.
func podSpecOf(obj runtime.Object) *corev1.PodSpec {
	switch o := obj.(type) {
	case *corev1.Pod:
		return &o.Spec
	case *corev1.ReplicationController:
		if o.Spec.Template == nil {
			return &corev1.PodSpec{}
		}
		return &o.Spec.Template.Spec
	case *appsv1.Deployment:
		return &o.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.Spec
	case *appsv1.StatefulSet:
		return &o.Spec.Template.Spec
	case *appsv1.DaemonSet:
		return &o.Spec.Template.Spec
	case *batchv1.Job:
		return &o.Spec.Template.Spec
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec.Template.Spec
	}
	return nil
}
