package admission

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/dslint/dslint/internal/admission"
	"github.com/dslint/dslint/internal/config"
)

func pod(namespace string, labels map[string]string, spec corev1.PodSpec) *corev1.Pod {
	spec.Containers = []corev1.Container{{Name: "c", Image: "c"}}
	return &corev1.Pod{TypeMeta: typeMeta("v1", "Pod"), ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: namespace, Labels: labels}, Spec: spec}
}

func oracleOf(t *testing.T, pools []config.Pool, gates map[string]bool) *Oracle {
	t.Helper()
	policy, err := admission.Policy(pools, gates, admission.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := New(policy, minVersion)
	if err != nil {
		t.Fatalf("%v\n%s", err, policy)
	}
	return o
}

func denied(t *testing.T, o *Oracle, obj runtime.Object, namespace string) map[string]string {
	t.Helper()
	v, err := o.Admit(context.Background(), obj, namespace)
	if err != nil {
		t.Fatal(err)
	}
	return v.Denied
}

// TestHostileValues: the config's values reach the CEL as string literals
// whatever they hold (quotes, backslashes, CEL and regexp syntax, control
// characters, non-ASCII), and the pool name reaches the messages intact.
func TestHostileValues(t *testing.T) {
	hostile := []string{`a"b`, `a\b`, `" || true || "`, `\u0041`, "tab\there", "é🚀", `${x}`, `a'b`, ".*"}
	for _, v := range hostile {
		t.Run(v, func(t *testing.T) {
			p := config.Pool{
				Name:   "pool " + v,
				Labels: map[string]string{"k" + v: v},
				Taints: []config.Taint{{Key: "t" + v, Value: v, Effect: "NoSchedule"}},
				Owners: &config.Owners{Namespaces: []string{"ml-*"}, Selector: &config.Selector{MatchLabels: map[string]string{"tier": v}}},
			}
			o := oracleOf(t, []config.Pool{p}, nil)
			asks := corev1.PodSpec{NodeSelector: map[string]string{"k" + v: v}}
			lands := corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "t" + v, Value: v, Effect: corev1.TaintEffectNoSchedule}}}
			elsewhere := corev1.PodSpec{NodeSelector: map[string]string{"k" + v: v + "x"}, Tolerations: lands.Tolerations}
			for _, c := range []struct {
				name      string
				obj       *corev1.Pod
				namespace string
				want      bool
			}{
				{"selects the pool", pod("web", nil, asks), "web", true},
				{"tolerates its taint", pod("web", nil, lands), "web", true},
				{"selects other nodes", pod("web", nil, elsewhere), "web", false},
				{"an owner by namespace and labels", pod("ml-x", map[string]string{"tier": v}, asks), "ml-x", false},
				{"labels of another value", pod("ml-x", map[string]string{"tier": v + "x"}, asks), "ml-x", true},
				{"a namespace the glob does not match", pod("xml-x", map[string]string{"tier": v}, asks), "xml-x", true},
			} {
				msg, got := denied(t, o, c.obj, c.namespace)[p.Name]
				if got != c.want {
					t.Errorf("%s: denied %v, want %v", c.name, got, c.want)
				}
				if got && !strings.Contains(msg, fmt.Sprintf("%q", p.Name)) {
					t.Errorf("%s: the message does not name the pool %q: %s", c.name, p.Name, msg)
				}
			}
		})
	}
}

// TestMatchConstraints: the policy applies to pods and the built-in
// workload kinds, not to other objects; DaemonSets are matched and exempt.
func TestMatchConstraints(t *testing.T) {
	o := oracleOf(t, gpuPool(), nil)
	spec := corev1.PodSpec{NodeSelector: map[string]string{"pool": "gpu"}}
	ds := &appsDaemonSet{}
	for _, c := range []struct {
		name    string
		obj     runtime.Object
		matched bool
		denied  int
	}{
		{"a pod", pod("web", nil, spec), true, 1},
		{"a daemonset", ds.of(spec), true, 0},
		{"a configmap", &corev1.ConfigMap{TypeMeta: typeMeta("v1", "ConfigMap"), ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "web"}}, false, 0},
	} {
		v, err := o.Admit(context.Background(), c.obj, "web")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if v.Matched != c.matched || len(v.Denied) != c.denied {
			t.Errorf("%s: matched %v, %d denials; want %v, %d", c.name, v.Matched, len(v.Denied), c.matched, c.denied)
		}
	}
}

func gpuPool() []config.Pool {
	return []config.Pool{{
		Name: "gpu", Labels: map[string]string{"pool": "gpu"},
		Taints: []config.Taint{{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}},
		Owners: &config.Owners{Namespaces: []string{"ml", "ml-*"}},
	}}
}

// TestCostBudget runs the policy of ten pools on a pod far larger than
// workloads are (200 tolerations; 40 required terms of 20 requirements of
// 10 values; 50 nodeSelector entries and labels): the API server's cost
// limits (PerCallLimit per expression, RuntimeCELCostBudget per binding)
// must leave it a verdict, not an error that failurePolicy Fail turns
// into a denial.
func TestCostBudget(t *testing.T) {
	var pools []config.Pool
	for i := range 10 {
		pools = append(pools, config.Pool{
			Name:   fmt.Sprintf("p%d", i),
			Labels: map[string]string{fmt.Sprintf("pool-%d", i): "yes", "size": "8", "zone": fmt.Sprintf("z%d", i)},
			Taints: []config.Taint{
				{Key: fmt.Sprintf("dedicated-%d", i), Value: "5", Effect: "NoSchedule"},
				{Key: fmt.Sprintf("dedicated-%d", i), Effect: "NoExecute"},
				{Key: "shared", Value: fmt.Sprint(i), Effect: "NoSchedule"},
			},
			Owners: &config.Owners{Namespaces: []string{fmt.Sprintf("team-%d-*", i), "ops"}, Selector: &config.Selector{
				MatchLabels:      map[string]string{"team": fmt.Sprint(i)},
				MatchExpressions: []config.Requirement{{Key: "tier", Operator: "NotIn", Values: []string{"a", "b", "c"}}},
			}},
		})
	}
	var spec corev1.PodSpec
	spec.NodeSelector = map[string]string{}
	labels := map[string]string{}
	for i := range 50 {
		spec.NodeSelector[fmt.Sprintf("key-%d", i)] = "v"
		labels[fmt.Sprintf("label-%d", i)] = "v"
	}
	for i := range 200 {
		spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: fmt.Sprintf("key-%d", i), Operator: corev1.TolerationOpLt, Value: fmt.Sprint(i)})
	}
	terms := make([]corev1.NodeSelectorTerm, 40)
	for i := range terms {
		for j := range 20 {
			values := make([]string, 10)
			for k := range values {
				values[k] = fmt.Sprintf("v%d", k)
			}
			terms[i].MatchExpressions = append(terms[i].MatchExpressions, corev1.NodeSelectorRequirement{Key: fmt.Sprintf("pool-%d", j%12), Operator: corev1.NodeSelectorOpNotIn, Values: values})
		}
	}
	spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms}}}
	o := oracleOf(t, pools, map[string]bool{"TaintTolerationComparisonOperators": true})
	if got := denied(t, o, pod("web", labels, spec), "web"); len(got) != 0 {
		t.Errorf("denied by %v, want none", got)
	}
}

type appsDaemonSet struct{}

func (appsDaemonSet) of(spec corev1.PodSpec) runtime.Object {
	spec.Containers = []corev1.Container{{Name: "c", Image: "c"}}
	return &appsv1.DaemonSet{TypeMeta: typeMeta("apps/v1", "DaemonSet"), ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "web"},
		Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: spec}}}
}
