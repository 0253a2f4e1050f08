package admission

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/dslint/dslint/internal/fixture"
)

// The two pools of the generated cases: a GPU pool that namespaces own,
// and an ingress pool with two taints of one key that pod labels own.
const twoPools = `pools:
  - name: gpu
    labels: {pool: gpu}
    taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
    owners: {namespaces: [ml, "ml-*"]}
  - name: ingress
    labels: {node-role/ingress: "true"}
    taints:
      - {key: ingress, effect: NoSchedule}
      - {key: ingress, effect: NoExecute}
    owners:
      selector: {matchLabels: {tier: edge}}
`

// numericPool adds, with the TaintTolerationComparisonOperators gate on,
// a pool whose taint value and one label are integers: Lt and Gt
// tolerations, and Gt and Lt node affinity, compare with them.
const numericPool = `featureGates: {TaintTolerationComparisonOperators: true}
pools:
  - name: batch
    labels: {pool: batch, cpus: "8"}
    taints: [{key: priority, value: "5", effect: NoExecute}]
    owners: {namespaces: ["batch-*"], selector: {matchExpressions: [{key: team, operator: NotIn, values: [guest]}]}}
`

// selectorPool is owned by pod labels alone, through every operator of
// a label selector.
const selectorPool = `pools:
  - name: edge
    labels: {edge: "yes"}
    taints: [{key: edge, effect: NoSchedule}]
    owners:
      selector:
        matchLabels: {app: router}
        matchExpressions:
          - {key: tier, operator: In, values: [edge, lb]}
          - {key: legacy, operator: DoesNotExist}
          - {key: team, operator: Exists}
          - {key: stage, operator: NotIn, values: [test]}
`

// genSeed is the seed of the generated cases; ADMISSION_SEED overrides it.
func genSeed(t testing.TB) uint64 {
	if s := os.Getenv("ADMISSION_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ADMISSION_SEED: %v", err)
		}
		return n
	}
	return 20261129
}

// TestGeneratedDifferential compares the exported policy with dslint on
// generated workloads: several hundred against the two pools, fewer
// against the numeric pool.
func TestGeneratedDifferential(t *testing.T) {
	rules := ownershipRules(t)
	cases := []struct {
		name, config string
		objects      int
		vocabulary   vocabulary
	}{
		{"two pools", twoPools, 400, twoPoolWords},
		{"numeric pool", numericPool, 150, numericWords},
		{"selector pool", selectorPool, 150, selectorWords},
	}
	seed := genSeed(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := gen{rand.New(rand.NewPCG(seed, uint64(len(c.name)))), c.vocabulary}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ".dslint.yaml"), []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			objs := make([]runtime.Object, c.objects)
			var file bytes.Buffer
			docs := make([][]byte, c.objects)
			for i := range objs {
				objs[i] = g.object(fmt.Sprintf("w%03d", i))
				doc, err := yaml.Marshal(objs[i])
				if err != nil {
					t.Fatal(err)
				}
				docs[i] = doc
				fmt.Fprintf(&file, "---\n%s", doc)
			}
			path := filepath.Join(dir, "generated.yaml")
			if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := fixture.Config(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			cmp := newComparison(t, cfg)
			reported := lintVerdicts(t, rules, path)
			for i, obj := range objs {
				cmp.object(t, obj, docs[i], reported[keyOf(t, obj)])
			}
			cmp.report(t, fmt.Sprintf("%s (seed %d)", c.name, seed))
			if len(cmp.skipped) > 0 {
				t.Errorf("%d generated objects or verdicts were not compared: the generator makes only objects the API server accepts, each with a namespace", len(cmp.skipped))
			}
			if cmp.violations == 0 || cmp.violations == cmp.pairs {
				t.Errorf("%d denials of %d verdicts: the generator should make both", cmp.violations, cmp.pairs)
			}
		})
	}
}

// vocabulary is what the generator builds objects from.
type vocabulary struct {
	namespaces    []string
	labels        []map[string]string // pod labels
	tolerations   []corev1.Toleration
	nodeSelectors []map[string]string
	requirements  []corev1.NodeSelectorRequirement
}

var twoPoolWords = vocabulary{
	// ml and ml-* own the GPU pool; the others are near misses.
	namespaces: []string{"ml", "ml-research", "ml-a-b", "ml2", "mlops", "team-ml", "web", "default"},
	labels: []map[string]string{
		{"app": "a"}, {"app": "a", "tier": "edge"}, {"tier": "web"}, {"tier": "edge-2"}, nil,
	},
	tolerations: []corev1.Toleration{
		{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "gpu", Effect: corev1.TaintEffectNoSchedule},
		{Key: "dedicated", Value: "gpu"},                                     // operator "": Equal
		{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "cpu"}, // another value
		{Key: "dedicated", Operator: corev1.TolerationOpExists},
		{Key: "dedicated", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: "dedicated", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectPreferNoSchedule},
		{Operator: corev1.TolerationOpExists}, // the wildcard
		{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](30)},
		{Key: "ingress", Operator: corev1.TolerationOpExists},
		{Key: "ingress", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: "ingress", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: "ingress", Operator: corev1.TolerationOpEqual, Effect: corev1.TaintEffectNoExecute}, // value "" = the taint's
		{Key: "ingress", Operator: corev1.TolerationOpEqual, Value: "true"},
		{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	},
	nodeSelectors: []map[string]string{
		{"pool": "gpu"}, {"pool": "cpu"}, {"node-role/ingress": "true"}, {"node-role/ingress": "false"},
		{"kubernetes.io/os": "linux"}, {"pool": "gpu", "zone": "a"},
	},
	requirements: []corev1.NodeSelectorRequirement{
		{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"gpu"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"cpu", "gpu"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"cpu"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"gpu"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"cpu"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpExists},
		{Key: "pool", Operator: corev1.NodeSelectorOpDoesNotExist},
		{Key: "pool", Operator: corev1.NodeSelectorOpGt, Values: []string{"1"}}, // "gpu" is no integer
		{Key: "node-role/ingress", Operator: corev1.NodeSelectorOpIn, Values: []string{"true"}},
		{Key: "node-role/ingress", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"true"}},
		{Key: "node-role/ingress", Operator: corev1.NodeSelectorOpExists},
		{Key: "node-role/ingress", Operator: corev1.NodeSelectorOpDoesNotExist},
		{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}},
		{Key: "zone", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"b"}},
		{Key: "zone", Operator: corev1.NodeSelectorOpExists},
		{Key: "zone", Operator: corev1.NodeSelectorOpDoesNotExist},
		{Key: "cores", Operator: corev1.NodeSelectorOpGt, Values: []string{"3"}},
		{Key: "cores", Operator: corev1.NodeSelectorOpLt, Values: []string{"abc"}},
	},
}

var numericWords = vocabulary{
	namespaces: []string{"batch-a", "batch-", "batch", "web"},
	labels:     []map[string]string{{"team": "guest"}, {"team": "ml"}, nil},
	tolerations: []corev1.Toleration{
		{Key: "priority", Operator: corev1.TolerationOpLt, Value: "7"},  // 5 < 7
		{Key: "priority", Operator: corev1.TolerationOpLt, Value: "5"},  // 5 < 5: no
		{Key: "priority", Operator: corev1.TolerationOpGt, Value: "3"},  // 5 > 3
		{Key: "priority", Operator: corev1.TolerationOpGt, Value: "-9"}, // 5 > -9
		{Key: "priority", Operator: corev1.TolerationOpGt, Value: "9223372036854775807"},
		{Key: "priority", Operator: corev1.TolerationOpLt, Value: "9223372036854775807"},
		{Key: "priority", Operator: corev1.TolerationOpLt, Value: "-9223372036854775808"},
		{Key: "priority", Operator: corev1.TolerationOpGt, Value: "4", Effect: corev1.TaintEffectNoSchedule},
		{Key: "priority", Operator: corev1.TolerationOpEqual, Value: "5"},
		{Key: "priority", Operator: corev1.TolerationOpEqual, Value: "05"},
		{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	},
	nodeSelectors: []map[string]string{{"pool": "batch"}, {"cpus": "8"}, {"cpus": "08"}, {"pool": "gpu"}},
	// Node affinity values are label values: no sign, leading zeros allowed.
	requirements: []corev1.NodeSelectorRequirement{
		{Key: "cpus", Operator: corev1.NodeSelectorOpGt, Values: []string{"4"}},
		{Key: "cpus", Operator: corev1.NodeSelectorOpGt, Values: []string{"8"}},
		{Key: "cpus", Operator: corev1.NodeSelectorOpLt, Values: []string{"0009"}},
		{Key: "cpus", Operator: corev1.NodeSelectorOpGt, Values: []string{"0000000000000000000000007"}},
		{Key: "cpus", Operator: corev1.NodeSelectorOpLt, Values: []string{"9223372036854775808"}}, // beyond int64
		{Key: "cpus", Operator: corev1.NodeSelectorOpLt, Values: []string{"1e3"}},
		{Key: "cpus", Operator: corev1.NodeSelectorOpIn, Values: []string{"8"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpIn, Values: []string{"batch"}},
		{Key: "pool", Operator: corev1.NodeSelectorOpExists},
		{Key: "pool", Operator: corev1.NodeSelectorOpGt, Values: []string{"1"}},
	},
}

var selectorWords = vocabulary{
	namespaces: []string{"web", "edge"},
	labels: []map[string]string{
		{"app": "router", "tier": "edge", "team": "net"},
		{"app": "router", "tier": "lb", "team": "", "stage": "prod"},
		{"app": "router", "tier": "lb", "team": "net", "stage": "test"},
		{"app": "router", "tier": "edge", "team": "net", "legacy": ""},
		{"app": "router", "tier": "edge"},
		{"app": "router", "tier": "web", "team": "net"},
		{"app": "proxy", "tier": "edge", "team": "net"},
		{"tier": "edge", "team": "net"},
		nil,
	},
	tolerations: []corev1.Toleration{
		{Key: "edge", Operator: corev1.TolerationOpExists},
		{Key: "edge", Operator: corev1.TolerationOpEqual, Effect: corev1.TaintEffectNoSchedule},
		{Key: "edge", Operator: corev1.TolerationOpEqual, Value: "yes"},
		{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	},
	nodeSelectors: []map[string]string{{"edge": "yes"}, {"edge": "no"}, {"zone": "a"}},
	requirements: []corev1.NodeSelectorRequirement{
		{Key: "edge", Operator: corev1.NodeSelectorOpIn, Values: []string{"yes"}},
		{Key: "edge", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"yes"}},
		{Key: "edge", Operator: corev1.NodeSelectorOpExists},
		{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}},
	},
}

type gen struct {
	r *rand.Rand
	v vocabulary
}

func (g gen) chance(n int) bool     { return g.r.IntN(n) == 0 }
func pick[T any](g gen, pool []T) T { return pool[g.r.IntN(len(pool))] }

// object is a workload of a random kind named name: a namespace, pod
// labels, tolerations, a nodeSelector and a required node affinity from
// the vocabulary, now and then a nodeName or, for a Pod, an owner.
func (g gen) object(name string) runtime.Object {
	meta := metav1.ObjectMeta{Name: name, Namespace: pick(g, g.v.namespaces)}
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: pick(g, g.v.labels)}, Spec: g.podSpec()}
	selector := &metav1.LabelSelector{MatchLabels: tmpl.Labels}
	switch g.r.IntN(9) {
	case 0, 1:
		pod := &corev1.Pod{TypeMeta: typeMeta("v1", "Pod"), ObjectMeta: meta, Spec: tmpl.Spec}
		pod.Labels = tmpl.Labels
		if g.chance(4) {
			pod.OwnerReferences = []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: pick(g, []string{"DaemonSet", "ReplicaSet"}), Name: "owner", UID: "u",
				Controller: pick(g, []*bool{ptr.To(true), ptr.To(false), nil}),
			}}
		}
		return pod
	case 2:
		return &appsv1.Deployment{TypeMeta: typeMeta("apps/v1", "Deployment"), ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Selector: selector, Template: tmpl}}
	case 3:
		return &appsv1.StatefulSet{TypeMeta: typeMeta("apps/v1", "StatefulSet"), ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Selector: selector, Template: tmpl}}
	case 4:
		return &appsv1.DaemonSet{TypeMeta: typeMeta("apps/v1", "DaemonSet"), ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: selector, Template: tmpl}}
	case 5:
		return &appsv1.ReplicaSet{TypeMeta: typeMeta("apps/v1", "ReplicaSet"), ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Selector: selector, Template: tmpl}}
	case 6:
		tmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
		return &batchv1.Job{TypeMeta: typeMeta("batch/v1", "Job"), ObjectMeta: meta, Spec: batchv1.JobSpec{Template: tmpl}}
	case 7:
		tmpl.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		return &batchv1.CronJob{TypeMeta: typeMeta("batch/v1", "CronJob"), ObjectMeta: meta, Spec: batchv1.CronJobSpec{
			Schedule: "0 * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: tmpl}},
		}}
	default:
		return &corev1.ReplicationController{TypeMeta: typeMeta("v1", "ReplicationController"), ObjectMeta: meta,
			Spec: corev1.ReplicationControllerSpec{Selector: tmpl.Labels, Template: &tmpl}}
	}
}

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

func (g gen) podSpec() corev1.PodSpec {
	spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.example/app:1"}}}
	for range g.r.IntN(4) {
		spec.Tolerations = append(spec.Tolerations, pick(g, g.v.tolerations))
	}
	if g.chance(2) {
		spec.NodeSelector = pick(g, g.v.nodeSelectors)
	}
	if g.chance(2) {
		spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: g.nodeSelector()}}
	}
	if g.chance(20) {
		spec.NodeName = "node-1"
	}
	return spec
}

// nodeSelector is one to three terms of up to three requirements; now and
// then a term is empty (it matches no node) or has a matchFields entry.
func (g gen) nodeSelector() *corev1.NodeSelector {
	ns := &corev1.NodeSelector{}
	for range 1 + g.r.IntN(3) {
		var term corev1.NodeSelectorTerm
		for range g.r.IntN(4) {
			term.MatchExpressions = append(term.MatchExpressions, pick(g, g.v.requirements))
		}
		if g.chance(6) {
			term.MatchFields = []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}
		}
		ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, term)
	}
	return ns
}
