package capacity

import (
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The reference's verified examples (§11.4, §12.3, §13, §15.1), rebuilt
// here: the oracle must give the numbers the reference gives.

func mkNode(name string, labels map[string]string, alloc string) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelHostname: name}}}
	for k, v := range labels {
		n.Labels[k] = v
	}
	n.Status.Allocatable = resources(alloc)
	return n
}

// resources reads "cpu=4,pods=110".
func resources(s string) v1.ResourceList {
	l := v1.ResourceList{}
	for kv := range strings.SplitSeq(s, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			l[v1.ResourceName(k)] = resource.MustParse(v)
		}
	}
	return l
}

func jobObject(name string, parallelism, completions *int32) *batchv1.Job {
	return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: batchv1.JobSpec{Parallelism: parallelism, Completions: completions}}
}

func zone(z string) map[string]string { return map[string]string{v1.LabelTopologyZone: z} }

func deployment(name string, replicas int, spec v1.PodSpec) Workload {
	if len(spec.Containers) == 0 {
		spec.Containers = []v1.Container{{Name: "c", Image: "nginx"}}
	}
	return Workload{Kind: "Deployment", Namespace: "default", Name: name, Replicas: replicas,
		Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}}, Spec: spec}}
}

func requests(s string) []v1.Container {
	return []v1.Container{{Name: "c", Image: "nginx", Resources: v1.ResourceRequirements{Requests: resources(s)}}}
}

func limits(s string) []v1.Container {
	return []v1.Container{{Name: "c", Image: "nginx", Resources: v1.ResourceRequirements{Limits: resources(s)}}}
}

func selfTerm(app, key string) v1.PodAffinityTerm {
	return v1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}, TopologyKey: key}
}

func antiAffinity(app, key string) *v1.Affinity {
	return &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{selfTerm(app, key)}}}
}

func place(t *testing.T, nodes []*v1.Node, w Workload) Result {
	t.Helper()
	r, err := Place(nodes, w)
	if err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	return r
}

func want(t *testing.T, r Result, wanted, placed int, nodes ...string) {
	t.Helper()
	if r.Wanted != wanted || r.Placed != placed {
		t.Errorf("wanted/placed = %d/%d, want %d/%d (nodes %v; why: %s)", r.Wanted, r.Placed, wanted, placed, r.Nodes, r.Why)
	}
	if nodes != nil && !slices.Equal(r.Nodes, nodes) {
		t.Errorf("bound on %v, want %v", r.Nodes, nodes)
	}
}

// §11.4 web: hostname self anti-affinity, 3 replicas, 2 eligible nodes
// (the third is tainted) → 2.
func TestWebAntiAffinity(t *testing.T) {
	tainted := mkNode("c-1", nil, "cpu=4,memory=8Gi,pods=110")
	tainted.Spec.Taints = []v1.Taint{{Key: "dedicated", Value: "db", Effect: v1.TaintEffectNoSchedule}}
	nodes := []*v1.Node{mkNode("a-1", nil, "cpu=4,memory=8Gi,pods=110"), mkNode("b-1", nil, "cpu=4,memory=8Gi,pods=110"), tainted}
	r := place(t, nodes, deployment("web", 3, v1.PodSpec{Affinity: antiAffinity("web", v1.LabelHostname), Containers: requests("cpu=100m")}))
	want(t, r, 3, 2, "a-1", "b-1")
}

// §11.4 cache: zone self anti-affinity; a node without the zone label is
// not limited by the term → 1 + 1 + 3 (its 3 CPUs) on it.
func TestCacheZoneAntiAffinity(t *testing.T) {
	nodes := []*v1.Node{
		mkNode("a-1", zone("a"), "cpu=4,pods=110"),
		mkNode("b-1", zone("b"), "cpu=4,pods=110"),
		mkNode("nozone-1", nil, "cpu=3,pods=110"),
	}
	r := place(t, nodes, deployment("cache", 8, v1.PodSpec{Affinity: antiAffinity("cache", v1.LabelTopologyZone), Containers: requests("cpu=1")}))
	want(t, r, 8, 5, "a-1", "b-1", "nozone-1", "nozone-1", "nozone-1")
}

// §11.4 db: zone self affinity. The first replica picks the first node in
// name order (a-1, 2 CPUs); the rest must follow it into zone a → 2, where
// the real scheduler's scoring would likely pick b-1 (4 CPUs) and place 3.
// Nodes without the zone never qualify.
func TestDBSelfAffinity(t *testing.T) {
	nodes := []*v1.Node{
		mkNode("0-nozone", nil, "cpu=8,pods=110"),
		mkNode("a-1", zone("a"), "cpu=2,pods=110"),
		mkNode("b-1", zone("b"), "cpu=4,pods=110"),
	}
	aff := &v1.Affinity{PodAffinity: &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{selfTerm("db", v1.LabelTopologyZone)}}}
	r := place(t, nodes, deployment("db", 3, v1.PodSpec{Affinity: aff, Containers: requests("cpu=1")}))
	want(t, r, 3, 2, "a-1", "a-1")
}

// spreadNodes are §12.3's: zones a (3 nodes of 4 CPUs), b (1 of 4 CPUs),
// c (1 tainted node).
func spreadNodes() []*v1.Node {
	c := mkNode("c-1", zone("c"), "cpu=4,pods=110")
	c.Spec.Taints = []v1.Taint{{Key: "dedicated", Value: "x", Effect: v1.TaintEffectNoSchedule}}
	return []*v1.Node{
		mkNode("a-1", zone("a"), "cpu=4,pods=110"),
		mkNode("a-2", zone("a"), "cpu=4,pods=110"),
		mkNode("a-3", zone("a"), "cpu=4,pods=110"),
		mkNode("b-1", zone("b"), "cpu=4,pods=110"),
		c,
	}
}

func spread(policy *v1.NodeInclusionPolicy) []v1.TopologySpreadConstraint {
	return []v1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: v1.LabelTopologyZone, WhenUnsatisfiable: v1.DoNotSchedule,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}, NodeTaintsPolicy: policy}}
}

// §12.3: the tainted zone c stays a domain with 0 under the default
// nodeTaintsPolicy Ignore → at most maxSkew per zone → 2; with Honor zone
// c is no domain → 5 in zone a, zone b's 4 CPUs → 9 of 10.
func TestSpreadZones(t *testing.T) {
	r := place(t, spreadNodes(), deployment("spread", 10, v1.PodSpec{TopologySpreadConstraints: spread(nil), Containers: requests("cpu=1")}))
	want(t, r, 10, 2)
	honor := v1.NodeInclusionPolicyHonor
	r = place(t, spreadNodes(), deployment("spread", 10, v1.PodSpec{TopologySpreadConstraints: spread(&honor), Containers: requests("cpu=1")}))
	want(t, r, 10, 9)
	inZone := map[string]int{}
	for _, n := range r.Nodes {
		inZone[n[:1]]++
	}
	if inZone["a"] != 5 || inZone["b"] != 4 {
		t.Errorf("per zone %v, want a 5, b 4", inZone)
	}
}

// §15.1 gpu: 4-GPU pods (limits only, requests defaulted from them) on a
// 4-GPU and an 8-GPU node → 1 + 2 = 3.
func TestGPUResources(t *testing.T) {
	nodes := []*v1.Node{
		mkNode("gpu-1", nil, "cpu=32,memory=128Gi,nvidia.com/gpu=4,pods=110"),
		mkNode("gpu-2", nil, "cpu=32,memory=128Gi,nvidia.com/gpu=8,pods=110"),
		mkNode("cpu-1", nil, "cpu=32,memory=128Gi,pods=110"),
	}
	r := place(t, nodes, deployment("trainer", 4, v1.PodSpec{Containers: limits("nvidia.com/gpu=4")}))
	want(t, r, 4, 3, "gpu-1", "gpu-2", "gpu-2")
}

// §13: a DaemonSet requesting 1500m (as a limit) on 2 big nodes, 2
// one-CPU nodes (one cordoned) and a node without pods → DESIRED 5,
// placed 2.
func TestDaemonSetResources(t *testing.T) {
	cordoned := mkNode("small-2", nil, "cpu=1,memory=4Gi,pods=110")
	cordoned.Spec.Unschedulable = true
	nodes := []*v1.Node{
		mkNode("big-1", nil, "cpu=8,memory=32Gi,pods=110"),
		mkNode("big-2", nil, "cpu=8,memory=32Gi,pods=110"),
		mkNode("small-1", nil, "cpu=1,memory=4Gi,pods=110"),
		cordoned,
		mkNode("odd-1", nil, "cpu=8,memory=32Gi"),
	}
	for _, c := range [][]v1.Container{requests("cpu=1500m"), limits("cpu=1500m")} {
		w := Workload{Kind: "DaemonSet", Namespace: "kube-system", Name: "agent",
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}}, Spec: v1.PodSpec{Containers: c}}}
		want(t, place(t, nodes, w), 5, 2, "big-1", "big-2")
	}
}

// §10.2: hostNetwork gives containerPort 9100 a host port → one per node;
// 4 replicas on 3 untainted nodes → 3.
func TestHostNetworkPorts(t *testing.T) {
	tainted := mkNode("d-1", nil, "cpu=4,pods=110")
	tainted.Spec.Taints = []v1.Taint{{Key: "dedicated", Effect: v1.TaintEffectNoExecute}}
	nodes := []*v1.Node{mkNode("a-1", nil, "cpu=4,pods=110"), mkNode("b-1", nil, "cpu=4,pods=110"), mkNode("c-1", nil, "cpu=4,pods=110"), tainted}
	spec := v1.PodSpec{HostNetwork: true, Containers: []v1.Container{{Name: "c", Image: "exporter", Ports: []v1.ContainerPort{{ContainerPort: 9100}}}}}
	want(t, place(t, nodes, deployment("exporter", 4, spec)), 4, 3)
}

// §11.2: matchLabelKeys merged per pod. On the StatefulSet pod name every
// replica is its own group, so hostname anti-affinity never binds; on
// pod-template-hash a Deployment's replicas still repel each other.
func TestMatchLabelKeys(t *testing.T) {
	nodes := []*v1.Node{mkNode("a-1", nil, "cpu=4,pods=110"), mkNode("b-1", nil, "cpu=4,pods=110")}
	aff := antiAffinity("api", v1.LabelHostname)
	aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].MatchLabelKeys = []string{"statefulset.kubernetes.io/pod-name", "pod-template-hash"}
	sts := deployment("api", 4, v1.PodSpec{Affinity: aff})
	sts.Kind = "StatefulSet"
	want(t, place(t, nodes, sts), 4, 4)
	want(t, place(t, nodes, deployment("api", 4, v1.PodSpec{Affinity: aff})), 4, 2)
}

// A Job's pods carry the job-name labels the API server adds, and its
// count is parallelism capped by completions.
func TestJobLabels(t *testing.T) {
	nodes := []*v1.Node{mkNode("a-1", nil, "cpu=4,pods=110"), mkNode("b-1", nil, "cpu=4,pods=110"), mkNode("c-1", nil, "cpu=4,pods=110")}
	aff := &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/job-name": "batch"}}, TopologyKey: v1.LabelHostname}}}}
	w := Workload{Kind: "Job", Namespace: "default", Name: "batch", Replicas: 5,
		Template: v1.PodTemplateSpec{Spec: v1.PodSpec{Affinity: aff, RestartPolicy: v1.RestartPolicyNever, Containers: requests("cpu=1")}}}
	want(t, place(t, nodes, w), 5, 3)
	p, c := int32(5), int32(2)
	jw, err := WorkloadOf(jobObject("batch", &p, &c))
	if err != nil || jw.Replicas != 2 {
		t.Errorf("WorkloadOf(job parallelism 5 completions 2) = %d, %v; want 2", jw.Replicas, err)
	}
}

// §13: zone spread on a DaemonSet, on §12.3's nodes plus one without a
// zone (5 wanted: the tainted node is not). With the default
// nodeAffinityPolicy Honor each daemon pod's only domain is its own node's
// zone → the 4 zoned nodes; with Ignore zone c (0 pods) counts → 2. Zone
// anti-affinity: one daemon pod per zone, and the unzoned node's.
func TestDaemonSetSpreadAndAntiAffinity(t *testing.T) {
	nodes := append(spreadNodes(), mkNode("x-1", nil, "cpu=4,pods=110"))
	ds := func(spec v1.PodSpec) Workload {
		spec.Containers = requests("cpu=100m")
		return Workload{Kind: "DaemonSet", Namespace: "kube-system", Name: "spread",
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "spread"}}, Spec: spec}}
	}
	want(t, place(t, nodes, ds(v1.PodSpec{TopologySpreadConstraints: spread(nil)})), 5, 4, "a-1", "a-2", "a-3", "b-1")
	ignore := v1.NodeInclusionPolicyIgnore
	tsc := spread(nil)
	tsc[0].NodeAffinityPolicy = &ignore
	want(t, place(t, nodes, ds(v1.PodSpec{TopologySpreadConstraints: tsc})), 5, 2, "a-1", "b-1")
	want(t, place(t, nodes, ds(v1.PodSpec{Affinity: antiAffinity("spread", v1.LabelTopologyZone)})), 5, 3, "a-1", "b-1", "x-1")
}
