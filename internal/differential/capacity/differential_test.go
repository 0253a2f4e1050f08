package capacity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/dslint/dslint/internal/cli"
)

// This file compares dslint's capacity answer (the replicas, placed,
// placed_exact and blocked_by of each `dslint schedule --format json`
// placement, SPEC §6) with the oracle of capacity.go on generated clusters
// and workloads. placed_exact true: the oracle must place exactly as many;
// false (placed is an upper bound): the oracle may place fewer.

// diffSize is the number of generated clusters and workloads per cluster.
// Each cluster costs a dslint run (the rules compile, about 0.25 s of CPU).
func diffSize() (clusters, workloads int) {
	if testing.Short() {
		return 10, 8
	}
	return 50, 10
}

// diffSeed is the seed of the run; CAPACITY_SEED overrides it.
func diffSeed(t testing.TB) uint64 {
	if s := os.Getenv("CAPACITY_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("CAPACITY_SEED: %v", err)
		}
		return n
	}
	return 20260815
}

type gen struct{ r *rand.Rand }

func (g gen) intn(n int) int        { return g.r.IntN(n) }
func (g gen) chance(n int) bool     { return g.r.IntN(n) == 0 }
func pick[T any](g gen, pool []T) T { return pool[g.r.IntN(len(pool))] }

var (
	zones     = []string{"zone-a", "zone-b", "zone-c"}
	poolNames = []string{"gen", "gpu", "infra", "edge"}
	kinds     = []string{"Deployment", "Deployment", "StatefulSet", "ReplicaSet", "Job", "DaemonSet"}
)

// genCluster makes 2 to 8 nodes in up to 4 pools: hostname label = name,
// a zone on most nodes, cpu and memory always allocatable (dslint does not
// judge cpu or memory a node leaves out, the scheduler counts 0; that
// difference is the light differential's business), pods now and then
// small or missing, GPUs on some pools, some taints, some cordoned nodes.
func genCluster(g gen) []*v1.Node {
	var nodes []*v1.Node
	pools := slices.Clone(poolNames)
	g.r.Shuffle(len(pools), func(i, j int) { pools[i], pools[j] = pools[j], pools[i] })
	for _, pool := range pools[:1+g.intn(3)] {
		alloc := v1.ResourceList{
			v1.ResourceCPU:    resource.MustParse(pick(g, []string{"1", "2", "4", "4", "8"})),
			v1.ResourceMemory: resource.MustParse(pick(g, []string{"4Gi", "16Gi", "16Gi"})),
		}
		if pool == "gpu" || g.chance(5) {
			alloc["nvidia.com/gpu"] = resource.MustParse(pick(g, []string{"1", "4", "8"}))
		}
		var taints []v1.Taint
		if g.chance(3) {
			taints = append(taints, v1.Taint{Key: "dedicated", Value: pool, Effect: pick(g, []v1.TaintEffect{v1.TaintEffectNoSchedule, v1.TaintEffectNoSchedule, v1.TaintEffectNoExecute, v1.TaintEffectPreferNoSchedule})})
		}
		zoned := !g.chance(6)
		for j := range 1 + g.intn(3) {
			name := fmt.Sprintf("%s-%d", pool, j+1)
			n := &v1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: name,
				Labels: map[string]string{v1.LabelHostname: name, "pool": pool}}}
			if zoned && !g.chance(8) {
				n.Labels[v1.LabelTopologyZone] = pick(g, zones)
			}
			n.Status.Allocatable = alloc.DeepCopy()
			switch {
			case g.chance(10):
			case g.chance(6):
				n.Status.Allocatable[v1.ResourcePods] = resource.MustParse(pick(g, []string{"1", "2", "3"}))
			default:
				n.Status.Allocatable[v1.ResourcePods] = resource.MustParse("110")
			}
			n.Spec.Taints = slices.Clone(taints)
			if g.chance(15) {
				n.Spec.Taints = append(n.Spec.Taints, v1.Taint{Key: "maintenance", Effect: v1.TaintEffectNoSchedule})
			}
			n.Spec.Unschedulable = g.chance(10)
			nodes = append(nodes, n)
		}
	}
	return nodes
}

// genCase is one generated workload: its API object, the oracle's view
// and the mechanisms it uses (for the tally).
type genCase struct {
	obj        any
	kind, name string
	mechanisms []string
	doc        []byte
}

func selfSelector(g gen, name string) (*metav1.LabelSelector, bool) {
	if g.chance(5) {
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}, false
	}
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}, true
}

// genWorkload makes a workload aimed at the cluster: requests or limits
// sized around its nodes, a nodeSelector to a pool, tolerations, and one or
// two of: required self anti-affinity on hostname or zone (now and then
// with a selector that misses the pod itself), required self affinity on
// zone, DoNotSchedule spread on zone or hostname (maxSkew 1-2, minDomains,
// the inclusion policies, an empty selector), host ports.
func genWorkload(g gen, nodes []*v1.Node, kind, name string) *genCase {
	c := &genCase{kind: kind, name: name}
	labels := map[string]string{"app": name, "tier": pick(g, []string{"web", "db"})}
	spec := v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "registry.example/app:1"}}}
	ctr := &spec.Containers[0]
	if g.chance(3) {
		spec.NodeSelector = map[string]string{"pool": nodes[g.intn(len(nodes))].Labels["pool"]}
		c.mechanisms = append(c.mechanisms, "node-selector")
	}
	if !g.chance(3) {
		spec.Tolerations = append(spec.Tolerations, v1.Toleration{Key: "dedicated", Operator: v1.TolerationOpExists})
	}
	if !g.chance(4) {
		l := v1.ResourceList{}
		l[v1.ResourceCPU] = resource.MustParse(pick(g, []string{"100m", "500m", "1", "1500m", "2", "3"}))
		if g.chance(2) {
			l[v1.ResourceMemory] = resource.MustParse(pick(g, []string{"512Mi", "2Gi", "6Gi"}))
		}
		if g.chance(2) {
			ctr.Resources.Requests = l
		} else {
			ctr.Resources.Limits = l
		}
		hasGPU := slices.ContainsFunc(nodes, func(n *v1.Node) bool { _, ok := n.Status.Allocatable["nvidia.com/gpu"]; return ok })
		if hasGPU && g.chance(6) {
			if ctr.Resources.Limits == nil {
				ctr.Resources.Limits = v1.ResourceList{}
			}
			ctr.Resources.Limits["nvidia.com/gpu"] = resource.MustParse(pick(g, []string{"1", "2", "4"}))
		}
		c.mechanisms = append(c.mechanisms, "resources")
	}
	topo := func() string { return pick(g, []string{v1.LabelHostname, v1.LabelTopologyZone}) }
	for range 1 + g.intn(2) {
		switch g.intn(6) {
		case 0, 1:
			key := topo()
			sel, self := selfSelector(g, name)
			term := v1.PodAffinityTerm{LabelSelector: sel, TopologyKey: key}
			if g.chance(4) {
				term.MatchLabelKeys = []string{appsv1.DefaultDeploymentUniqueLabelKey}
			}
			if spec.Affinity == nil {
				spec.Affinity = &v1.Affinity{}
			}
			if spec.Affinity.PodAntiAffinity == nil {
				spec.Affinity.PodAntiAffinity = &v1.PodAntiAffinity{}
			}
			pa := spec.Affinity.PodAntiAffinity
			pa.RequiredDuringSchedulingIgnoredDuringExecution = append(pa.RequiredDuringSchedulingIgnoredDuringExecution, term)
			c.mechanisms = append(c.mechanisms, "anti-affinity:"+short(key)+selfTag(self))
		case 2:
			sel, self := selfSelector(g, name)
			if spec.Affinity == nil {
				spec.Affinity = &v1.Affinity{}
			}
			spec.Affinity.PodAffinity = &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{LabelSelector: sel, TopologyKey: v1.LabelTopologyZone}}}
			c.mechanisms = append(c.mechanisms, "affinity:zone"+selfTag(self))
		case 3, 4:
			key := topo()
			if slices.ContainsFunc(spec.TopologySpreadConstraints, func(t v1.TopologySpreadConstraint) bool { return t.TopologyKey == key }) {
				continue
			}
			sel, self := selfSelector(g, name)
			if g.chance(6) {
				sel, self = &metav1.LabelSelector{}, false
			}
			tsc := v1.TopologySpreadConstraint{MaxSkew: int32(1 + g.intn(2)), TopologyKey: key, WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: sel}
			if g.chance(4) {
				tsc.MinDomains = ptr(int32(1 + g.intn(4)))
			}
			policies := []*v1.NodeInclusionPolicy{nil, nil, ptr(v1.NodeInclusionPolicyHonor), ptr(v1.NodeInclusionPolicyIgnore)}
			tsc.NodeAffinityPolicy = pick(g, policies)
			tsc.NodeTaintsPolicy = pick(g, policies)
			spec.TopologySpreadConstraints = append(spec.TopologySpreadConstraints, tsc)
			c.mechanisms = append(c.mechanisms, "spread:"+short(key)+selfTag(self))
		case 5:
			if g.chance(2) {
				spec.HostNetwork = true
				ctr.Ports = []v1.ContainerPort{{ContainerPort: 9100}}
				c.mechanisms = append(c.mechanisms, "ports:hostNetwork")
			} else {
				ctr.Ports = []v1.ContainerPort{{ContainerPort: 8080, HostPort: 8080}}
				c.mechanisms = append(c.mechanisms, "ports:hostPort")
			}
		}
	}
	if len(c.mechanisms) == 0 {
		c.mechanisms = []string{"plain"}
	}
	slices.Sort(c.mechanisms)
	c.mechanisms = slices.Compact(c.mechanisms)

	meta := metav1.ObjectMeta{Name: name, Namespace: "default"}
	tmpl := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: spec}
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}
	replicas := ptr(int32(1 + g.intn(8)))
	if g.chance(8) {
		replicas = nil
	}
	tm := func(apiVersion string) metav1.TypeMeta { return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind} }
	switch kind {
	case "Deployment":
		c.obj = &appsv1.Deployment{TypeMeta: tm("apps/v1"), ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: replicas, Selector: selector, Template: tmpl}}
	case "ReplicaSet":
		c.obj = &appsv1.ReplicaSet{TypeMeta: tm("apps/v1"), ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Replicas: replicas, Selector: selector, Template: tmpl}}
	case "StatefulSet":
		c.obj = &appsv1.StatefulSet{TypeMeta: tm("apps/v1"), ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: replicas, Selector: selector, Template: tmpl, ServiceName: name}}
	case "Job":
		tmpl.Spec.RestartPolicy = v1.RestartPolicyNever
		job := &batchv1.Job{TypeMeta: tm("batch/v1"), ObjectMeta: meta, Spec: batchv1.JobSpec{Parallelism: replicas, Template: tmpl}}
		if g.chance(3) {
			job.Spec.Completions = ptr(int32(1 + g.intn(6)))
		}
		c.obj = job
	case "DaemonSet":
		c.obj = &appsv1.DaemonSet{TypeMeta: tm("apps/v1"), ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: selector, Template: tmpl}}
	}
	return c
}

func ptr[T any](v T) *T { return &v }

func short(key string) string {
	if key == v1.LabelHostname {
		return "hostname"
	}
	return "zone"
}

func selfTag(self bool) string {
	if self {
		return ""
	}
	return "(not self)"
}

// diffCase is one cluster and its workloads, as files.
type diffCase struct {
	nodes    []*v1.Node
	nodesDoc []byte
	cases    []*genCase
}

func genDiffCase(t testing.TB, g gen, workloads int) *diffCase {
	d := &diffCase{nodes: genCluster(g)}
	var docs [][]byte
	for _, n := range d.nodes {
		docs = append(docs, mustYAML(t, n))
	}
	d.nodesDoc = bytes.Join(docs, []byte("---\n"))
	for i := range workloads {
		c := genWorkload(g, d.nodes, pick(g, kinds), fmt.Sprintf("w%d", i))
		c.doc = mustYAML(t, c.obj)
		d.cases = append(d.cases, c)
	}
	return d
}

// mustYAML writes an object as YAML, without the empty status and the
// null creationTimestamp that marshalling the API structs adds.
func mustYAML(t testing.TB, obj any) []byte {
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	prune(m)
	out, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func prune(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil || prune(e) {
				delete(x, k)
			}
		}
		return len(x) == 0
	case []any:
		for _, e := range x {
			prune(e)
		}
	}
	return false
}

// scheduleJSON is the part of dslint schedule's JSON (SPEC §6) compared
// here, decoded leniently: the capacity fields are pointers, nil when
// absent.
type scheduleJSON struct {
	Placements []placement `json:"placements"`
}

type placement struct {
	Object struct {
		Kind      string `json:"kind"`
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"object"`
	Replicas    *int    `json:"replicas"`
	Placed      *int    `json:"placed"`
	PlacedExact *bool   `json:"placed_exact"`
	BlockedBy   *string `json:"blocked_by"`
}

// key is the placement's object as kind/namespace/name, the namespace
// "default" when dslint leaves it empty.
func (p placement) key() string {
	ns := p.Object.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	return p.Object.Kind + "/" + ns + "/" + p.Object.Name
}

// compare is what is wrong with dslint's placement given the oracle's
// answer: replicas must equal the oracle's wanted count; placed must equal
// the oracle's when placed_exact, else be at least it; blocked_by must be
// one of the contract's values, and "none" exactly when all are placed
// (where placed is exact).
func compare(p placement, res Result) []string {
	if p.Replicas == nil || p.Placed == nil || p.PlacedExact == nil || p.BlockedBy == nil {
		return []string{"placement lacks one of replicas, placed, placed_exact, blocked_by"}
	}
	var problems []string
	if *p.Replicas != res.Wanted {
		problems = append(problems, fmt.Sprintf("replicas: dslint %d, oracle %d", *p.Replicas, res.Wanted))
	}
	if *p.PlacedExact && *p.Placed != res.Placed {
		problems = append(problems, fmt.Sprintf("placed (exact): dslint %d, oracle %d", *p.Placed, res.Placed))
	}
	if !*p.PlacedExact && res.Placed > *p.Placed {
		problems = append(problems, fmt.Sprintf("placed (upper bound): dslint %d < oracle %d", *p.Placed, res.Placed))
	}
	if !slices.Contains(blockedBy, *p.BlockedBy) {
		problems = append(problems, fmt.Sprintf("blocked_by %q is none of %v", *p.BlockedBy, blockedBy))
	} else if *p.PlacedExact && (*p.BlockedBy == "none") != (res.Placed >= res.Wanted) {
		problems = append(problems, fmt.Sprintf("blocked_by %q with the oracle placing %d of %d", *p.BlockedBy, res.Placed, res.Wanted))
	}
	return problems
}

// schedule writes the nodes and workloads under dir and runs dslint
// schedule on them in process.
func schedule(t testing.TB, dir string, d *diffCase) *scheduleJSON {
	t.Helper()
	wdir := filepath.Join(dir, "workloads")
	if err := os.MkdirAll(wdir, 0o755); err != nil {
		t.Fatal(err)
	}
	nodesPath := filepath.Join(dir, "nodes.yaml")
	if err := os.WriteFile(nodesPath, d.nodesDoc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range d.cases {
		if err := os.WriteFile(filepath.Join(wdir, c.name+".yaml"), c.doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	args := []string{"schedule", "--format", "json", "--nodes", nodesPath, wdir}
	if code := cli.Main(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("dslint %s: exit %d\nstderr:\n%s\nnodes:\n%s", strings.Join(args, " "), code, stderr.String(), d.nodesDoc)
	}
	out := &scheduleJSON{}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("decode dslint schedule output: %v\n%s", err, stdout.String())
	}
	return out
}

// tally counts comparisons per mechanism.
type tally struct {
	compared, agreed map[string]int
	disagreements    []string
}

func (ty *tally) add(mechanisms []string, ok bool) {
	for _, m := range mechanisms {
		ty.compared[m]++
		if ok {
			ty.agreed[m]++
		}
	}
}

var blockedBy = []string{"none", "placement", "resources", "anti-affinity", "affinity", "spread", "ports"}

func TestCapacityDifferential(t *testing.T) {
	clusters, workloads := diffSize()
	seed := diffSeed(t)
	g := gen{rand.New(rand.NewPCG(seed, 0))}
	ty := &tally{compared: map[string]int{}, agreed: map[string]int{}}
	type run struct {
		d      *diffCase
		byKey  map[string]placement
		placed bool
	}
	var runs []run
	withPlaced := 0
	for i := range clusters {
		d := genDiffCase(t, g, workloads)
		out := schedule(t, filepath.Join(t.TempDir(), strconv.Itoa(i)), d)
		r := run{d: d, byKey: map[string]placement{}}
		for _, p := range out.Placements {
			r.byKey[p.key()] = p
			if p.Placed != nil {
				withPlaced++
			}
		}
		// The plumbing: every workload has its placement.
		for _, c := range d.cases {
			if _, ok := r.byKey[c.kind+"/default/"+c.name]; !ok {
				t.Errorf("cluster %d: no placement for %s/%s in dslint's output", i, c.kind, c.name)
			}
		}
		runs = append(runs, r)
	}
	if withPlaced == 0 {
		t.Skipf("no placement of dslint schedule has a \"placed\" field yet (SPEC §6: replicas, placed, placed_exact, blocked_by); %d clusters generated, scheduled and matched to their workloads; the comparison with the oracle runs once any placement has one", clusters)
	}
	for _, r := range runs {
		d := r.d
		for _, c := range d.cases {
			res := oracleOn(t, d, c)
			p, found := r.byKey[c.kind+"/default/"+c.name]
			if !found {
				continue // reported above
			}
			problems := compare(p, res)
			ty.add(append([]string{c.kind}, c.mechanisms...), len(problems) == 0)
			if len(problems) > 0 {
				ty.disagreements = append(ty.disagreements, fmt.Sprintf("%s/%s [%s]: %s\n  oracle: %d of %d on %v; why: %s",
					c.kind, c.name, strings.Join(c.mechanisms, ","), strings.Join(problems, "; "), res.Placed, res.Wanted, res.Nodes, res.Why)+
					"\n--- nodes.yaml\n"+string(d.nodesDoc)+"--- "+c.name+".yaml\n"+string(c.doc))
			}
		}
	}
	var lines []string
	for _, m := range slices.Sorted(maps.Keys(ty.compared)) {
		lines = append(lines, fmt.Sprintf("  %-28s %4d compared, %4d agree", m, ty.compared[m], ty.agreed[m]))
	}
	t.Logf("seed %d, %d clusters, %d workloads each; by kind and mechanism:\n%s", seed, clusters, workloads, strings.Join(lines, "\n"))
	if n := len(ty.disagreements); n > 0 {
		const full = 3
		var b strings.Builder
		for i, dis := range ty.disagreements {
			if i < full {
				b.WriteString(dis + "\n")
			} else {
				b.WriteString(firstLine(dis) + "\n")
			}
		}
		t.Errorf("%d disagreements with the oracle (the first %d in full):\n%s", n, min(n, full), b.String())
	}
}

// oracleOn places the generated case c of cluster d with the oracle.
func oracleOn(t *testing.T, d *diffCase, c *genCase) Result {
	t.Helper()
	w, err := WorkloadOf(c.obj)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Place(d.nodes, w)
	if err != nil {
		t.Fatalf("oracle on %s/%s: %v\n%s\n%s", c.kind, c.name, err, d.nodesDoc, c.doc)
	}
	return res
}

// TestOracleOnGeneratedCases runs the oracle alone on the generated
// clusters and workloads: it must never fail, placed never exceeds wanted,
// and the generator must reach every mechanism.
func TestOracleOnGeneratedCases(t *testing.T) {
	clusters, workloads := diffSize()
	g := gen{rand.New(rand.NewPCG(diffSeed(t), 0))}
	seen := map[string]int{}
	notAll, full := 0, 0
	for range clusters {
		d := genDiffCase(t, g, workloads)
		for _, c := range d.cases {
			res := oracleOn(t, d, c)
			if res.Placed > res.Wanted || res.Placed != len(res.Nodes) {
				t.Errorf("%s/%s: placed %d of %d on %v", c.kind, c.name, res.Placed, res.Wanted, res.Nodes)
			}
			if res.Placed < res.Wanted {
				notAll++
			} else {
				full++
			}
			seen[c.kind]++
			for _, m := range c.mechanisms {
				seen[strings.TrimSuffix(m, "(not self)")]++
			}
		}
	}
	for _, m := range []string{"Deployment", "StatefulSet", "ReplicaSet", "Job", "DaemonSet", "resources", "node-selector",
		"anti-affinity:hostname", "anti-affinity:zone", "affinity:zone", "spread:hostname", "spread:zone", "ports:hostNetwork", "ports:hostPort"} {
		if seen[m] == 0 {
			t.Errorf("the generator made no %s case", m)
		}
	}
	if notAll == 0 || full == 0 {
		t.Errorf("all placed in %d cases, some not in %d: the generator should give both", full, notAll)
	}
	t.Logf("%d workloads all placed, %d not; %v", full, notAll, seen)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestCompareContract checks compare on hand-made placements, so that the
// comparison is tested before dslint emits the capacity fields.
func TestCompareContract(t *testing.T) {
	mk := func(replicas, placed int, exact bool, blocked string) placement {
		return placement{Replicas: &replicas, Placed: &placed, PlacedExact: &exact, BlockedBy: &blocked}
	}
	res := Result{Wanted: 5, Placed: 3}
	for _, c := range []struct {
		p    placement
		bad  bool
		what string
	}{
		{mk(5, 3, true, "resources"), false, "exact and equal"},
		{mk(5, 4, true, "resources"), true, "exact and different"},
		{mk(5, 4, false, "affinity"), false, "upper bound above"},
		{mk(5, 3, false, "affinity"), false, "upper bound equal"},
		{mk(5, 2, false, "affinity"), true, "upper bound below"},
		{mk(4, 3, true, "spread"), true, "replicas differ"},
		{mk(5, 3, true, "none"), true, "none while short"},
		{mk(5, 3, true, "quota"), true, "unknown blocked_by"},
		{placement{}, true, "fields missing"},
	} {
		if got := len(compare(c.p, res)) > 0; got != c.bad {
			t.Errorf("%s: problems %v, want some: %v", c.what, compare(c.p, res), c.bad)
		}
	}
	if p := compare(mk(2, 2, true, "none"), Result{Wanted: 2, Placed: 2}); len(p) > 0 {
		t.Errorf("all placed, none: %v", p)
	}
}
