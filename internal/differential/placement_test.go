package differential

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	yamlv2 "go.yaml.in/yaml/v2"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/dslint/dslint/internal/cli"
	"github.com/dslint/dslint/internal/differential/oracle"
)

// This file compares `dslint schedule --format json` (rego/placement.rego,
// run through the CLI as a user runs it) with an oracle built from the
// upstream Go functions, on generated clusters and workloads: for every
// workload and node, is the node in the workload's "eligible" list exactly
// when the scheduler (or kubelet admission, or the DaemonSet controller)
// would let its pods land there? The clusters are valid node inventories
// (dslint refuses invalid ones); the workloads are anything that decodes
// into the API structs.

// placementSize is the number of generated clusters and workloads per
// cluster in the seeded run. Each cluster costs a dslint run, which
// compiles the rules (about 0.25 s of CPU, two thirds of the test's time),
// so clusters are fewer than workloads.
func placementSize() (clusters, workloads int) {
	if testing.Short() {
		return 10, 40
	}
	return 40, 60
}

var (
	// Node inventories must be valid: the pools of the other generators,
	// filtered by the API's own checks.
	nodeLabelKeys   = validOnly(content.IsLabelKey, append(slices.Clone(labelKeys), oddLabelKeys...))
	nodeLabelValues = validOnly(content.IsLabelValue, append(slices.Clone(labelValues), oddLabelValues...))
	// numericLabelValues are label values Gt/Lt parse one way or another:
	// leading zeros, beyond int64, decimals.
	numericLabelValues = validOnly(content.IsLabelValue, []string{
		"0", "4", "5", "6", "7", "10", "010", "007", "05", "00", "1.5",
		"9223372036854775806", "9223372036854775807", "9223372036854775808",
		"99999999999999999999", "0009223372036854775807",
	})
	customTaintKeys   = validOnly(content.IsLabelKey, append(slices.Clone(taintKeys), oddTaintKeys...))
	customTaintValues = validOnly(content.IsLabelValue, append(slices.Clone(taintValues), oddValues...))
	taintEffects3     = []v1.TaintEffect{v1.TaintEffectNoSchedule, v1.TaintEffectPreferNoSchedule, v1.TaintEffectNoExecute}

	// wellKnownTaints are the taints the node lifecycle controller, the
	// cloud provider and kubeadm put on nodes (reference §6, §7).
	wellKnownTaints = []v1.Taint{
		{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectNoExecute},
		{Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeUnreachable, Effect: v1.TaintEffectNoExecute},
		{Key: v1.TaintNodeUnreachable, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeNetworkUnavailable, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeDiskPressure, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeMemoryPressure, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodePIDPressure, Effect: v1.TaintEffectNoSchedule},
		{Key: "node-role.kubernetes.io/control-plane", Effect: v1.TaintEffectNoSchedule},
		{Key: "node-role.kubernetes.io/master", Effect: v1.TaintEffectNoSchedule},
		{Key: "node.cloudprovider.kubernetes.io/uninitialized", Value: "true", Effect: v1.TaintEffectNoSchedule},
		{Key: "node.cloudprovider.kubernetes.io/shutdown", Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeOutOfService, Value: "nodeshutdown", Effect: v1.TaintEffectNoExecute},
		{Key: "dedicated", Value: "gpu", Effect: v1.TaintEffectNoSchedule},
		{Key: "n", Value: "5", Effect: v1.TaintEffectNoSchedule},
		{Key: "k", Effect: v1.TaintEffectPreferNoSchedule},
	}

	poolNames = []string{"gpu", "cpu", "cp", "edge", "infra", "spot"}

	// perNodeLabels are the label keys whose values differ from node to
	// node in a pool (dslint's inventory.PerNodeLabels); zoneValues the
	// values of the zone labels, numbers among them for Gt and Lt.
	perNodeLabels = []string{"kubernetes.io/hostname", "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"}
	zoneValues    = []string{"zone-a", "zone-b", "1", "2", "010"}

	// specialTolerations are the tolerations whose handling differs between
	// ordinary and DaemonSet pods, or that admission looks at.
	specialTolerations = []v1.Toleration{
		{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](60)},
		{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute},
		{Key: v1.TaintNodeUnschedulable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeUnschedulable, Operator: v1.TolerationOpExists},
		{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeNetworkUnavailable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpEqual, Value: "x", Effect: v1.TaintEffectNoExecute},
		{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Value: "x", Effect: v1.TaintEffectNoExecute},
		{Key: v1.TaintNodeNotReady},
		{Key: v1.TaintNodeUnreachable, Operator: "exists", Effect: v1.TaintEffectNoExecute},
		{Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute},
		{Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule},
		{Operator: v1.TolerationOpExists},
		{Operator: "exists"},
		{Operator: v1.TolerationOpExists, Value: "gpu"},
		{Key: "node-role.kubernetes.io/control-plane", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule},
		{Key: "node-role.kubernetes.io/master", Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeDiskPressure, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule, TolerationSeconds: ptr[int64](0)},
		{Key: "n", Operator: v1.TolerationOpGt, Value: "4", Effect: v1.TaintEffectNoSchedule},
		{Key: "dedicated", Operator: v1.TolerationOpEqual, Value: "GPU", Effect: v1.TaintEffectNoSchedule},
	}

	workloadKinds = []string{"Deployment", "Pod", "Job", "CronJob", "DaemonSet", "DaemonSet"}
)

func ptr[T any](v T) *T { return &v }

func validOnly(valid func(string) []string, pool []string) []string {
	var out []string
	for _, v := range pool {
		if len(valid(v)) == 0 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func pickOf[T any](s *src, pool []T) T { return pool[s.intn(len(pool))] }

// --- clusters ---------------------------------------------------------------

// poolPlan is what the nodes of one generated pool share before each node's
// own changes.
type poolPlan struct {
	name     string
	labels   map[string]string
	taints   []v1.Taint
	cordoned bool
	zoned    bool
	// allocatable is what the pool's nodes allocate, nil for nodes that say
	// nothing of it; inCapacity writes it as status.capacity instead.
	allocatable v1.ResourceList
	inCapacity  bool
}

// genAllocatable is what a node allocates: sizes of the resources the
// generated pods request, now and then without pods (no pod fits) or
// without a resource (none of it).
func genAllocatable(s *src) v1.ResourceList {
	l := v1.ResourceList{}
	if !s.chance(8) {
		l[v1.ResourcePods] = resource.MustParse(pickOf(s, []string{"110", "110", "3", "1", "0"}))
	}
	for _, r := range []struct{ name, sizes string }{
		{"cpu", "1930m 4 32 500m"},
		{"memory", "5Gi 16Gi 120Gi 512Mi"},
		{"ephemeral-storage", "20Gi 100Gi"},
		{"nvidia.com/gpu", "1 8 0"},
		{"hugepages-2Mi", "1Gi 0"},
	} {
		if !s.chance(5) || r.name == "cpu" && s.chance(2) {
			l[v1.ResourceName(r.name)] = resource.MustParse(pickOf(s, strings.Fields(r.sizes)))
		}
	}
	return l
}

// genPodResources gives some of the pod's containers requests and limits,
// and now and then init containers, sidecars, pod-level requests or
// overhead, sized around the generated nodes.
func genPodResources(s *src, spec *v1.PodSpec) {
	amount := func(name string) resource.Quantity {
		sizes := map[string]string{
			"cpu":               "100m 1 2 4 33",
			"memory":            "128Mi 1Gi 6Gi 16Gi",
			"ephemeral-storage": "1Gi 50Gi",
			"nvidia.com/gpu":    "1 2 8 16",
			"hugepages-2Mi":     "2Mi 2Gi",
			"example.com/foo":   "1",
		}[name]
		return resource.MustParse(pickOf(s, strings.Fields(sizes)))
	}
	list := func() v1.ResourceList {
		l := v1.ResourceList{}
		for range s.intn(3) {
			name := pickOf(s, []string{"cpu", "cpu", "memory", "memory", "ephemeral-storage", "nvidia.com/gpu", "hugepages-2Mi", "example.com/foo"})
			l[v1.ResourceName(name)] = amount(name)
		}
		return l
	}
	requirements := func() v1.ResourceRequirements {
		r := v1.ResourceRequirements{}
		if s.chance(2) {
			r.Requests = list()
		}
		if s.chance(3) {
			r.Limits = list()
		}
		return r
	}
	for i := range spec.Containers {
		spec.Containers[i].Resources = requirements()
	}
	for range s.intn(3) {
		c := v1.Container{Name: fmt.Sprintf("init%d", len(spec.InitContainers)), Image: "busybox", Resources: requirements()}
		if s.chance(2) {
			always := v1.ContainerRestartPolicyAlways
			c.RestartPolicy = &always
		}
		spec.InitContainers = append(spec.InitContainers, c)
	}
	if s.chance(8) {
		spec.Resources = &v1.ResourceRequirements{Requests: v1.ResourceList{"cpu": amount("cpu")}}
	}
	if s.chance(8) {
		spec.Overhead = v1.ResourceList{"cpu": resource.MustParse("250m")}
	}
}

// addTaint adds a taint unless the list has one with its key and effect
// (the API requires taints unique by key and effect).
func addTaint(ts []v1.Taint, t v1.Taint) []v1.Taint {
	for _, have := range ts {
		if have.MatchTaint(&t) {
			return ts
		}
	}
	return append(ts, t)
}

func genTaintForNode(s *src) v1.Taint {
	if s.chance(2) {
		return pickOf(s, wellKnownTaints)
	}
	return v1.Taint{Key: pickOf(s, customTaintKeys), Value: pickOf(s, customTaintValues), Effect: pickOf(s, taintEffects3)}
}

func genPoolLabel(s *src) (string, string) {
	key := pickOf(s, nodeLabelKeys)
	if key == "kubernetes.io/hostname" {
		key = "role"
	}
	if s.chance(2) {
		return key, pickOf(s, numericLabelValues)
	}
	return key, pickOf(s, nodeLabelValues)
}

func genPoolPlan(s *src, name string) poolPlan {
	p := poolPlan{name: name, labels: map[string]string{}}
	if s.chance(4) { // a control-plane pool, kubeadm style of some version
		p.labels["node-role.kubernetes.io/control-plane"] = ""
		switch s.intn(4) {
		case 0:
			p.labels["node-role.kubernetes.io/master"] = ""
			p.taints = addTaint(p.taints, v1.Taint{Key: "node-role.kubernetes.io/master", Effect: v1.TaintEffectNoSchedule})
		case 1:
			p.taints = addTaint(p.taints, v1.Taint{Key: "node-role.kubernetes.io/master", Effect: v1.TaintEffectNoSchedule})
			fallthrough
		default:
			p.taints = addTaint(p.taints, v1.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: v1.TaintEffectNoSchedule})
		}
	}
	if s.chance(2) {
		p.labels["kubernetes.io/os"] = "linux"
	}
	for range s.intn(4) {
		k, v := genPoolLabel(s)
		p.labels[k] = v
	}
	for range s.intn(3) {
		p.taints = addTaint(p.taints, genTaintForNode(s))
	}
	if !s.chance(4) {
		p.allocatable = genAllocatable(s)
		p.inCapacity = s.chance(6)
	}
	p.cordoned = s.chance(6)
	if p.cordoned && s.chance(2) {
		p.taints = addTaint(p.taints, v1.Taint{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule})
	}
	p.zoned = s.chance(3)
	return p
}

// genCluster makes a valid node inventory: a few pools of nodes alike but
// for their hostname (and zone) labels, some nodes changed on their own.
func genCluster(s *src) []*v1.Node {
	var nodes []*v1.Node
	taken := map[string]bool{}
	for i := range 1 + s.intn(4) {
		name := poolNames[(i+s.intn(len(poolNames)))%len(poolNames)]
		if taken[name] {
			name = fmt.Sprintf("%s%d", name, i)
		}
		taken[name] = true
		p := genPoolPlan(s, name)
		for j := range 1 + s.intn(4) {
			nodeName := fmt.Sprintf("%s-%d", p.name, j+1)
			if s.chance(6) { // names the matchFields generator uses
				if special := pickOf(s, []string{"n1", "n2", "node-a"}); !taken[special] {
					nodeName = special
				}
			}
			taken[nodeName] = true
			node := &v1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: nodeName}}
			node.Labels = map[string]string{}
			for k, v := range p.labels {
				node.Labels[k] = v
			}
			if !s.chance(6) {
				node.Labels["kubernetes.io/hostname"] = nodeName
			}
			if p.zoned {
				key := pickOf(s, []string{"topology.kubernetes.io/zone", "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"})
				node.Labels[key] = pickOf(s, zoneValues)
			}
			node.Spec.Taints = slices.Clone(p.taints)
			node.Spec.Unschedulable = p.cordoned
			if p.inCapacity {
				node.Status.Capacity = p.allocatable.DeepCopy()
			} else {
				node.Status.Allocatable = p.allocatable.DeepCopy()
			}
			if s.chance(8) { // this node differs from its pool
				switch s.intn(5) {
				case 4:
					node.Status.Allocatable = genAllocatable(s)
				case 0:
					k, v := genPoolLabel(s)
					node.Labels[k] = v
				case 1:
					node.Spec.Taints = addTaint(node.Spec.Taints, genTaintForNode(s))
				case 2:
					node.Spec.Unschedulable = !node.Spec.Unschedulable
				default:
					node.Spec.Taints = nil
				}
			}
			if len(node.Labels) == 0 && s.chance(2) {
				node.Labels = nil
			}
			nodes = append(nodes, node)
		}
	}
	return nodes
}

// nodeObject is the node as a manifest, in one of the shapes kubectl and
// hand-written inventories have (fields absent, empty or explicit).
func nodeObject(s *src, n *v1.Node) map[string]any {
	meta := map[string]any{"name": n.Name}
	if len(n.Labels) > 0 || s.chance(4) {
		meta["labels"] = n.Labels
	}
	spec := map[string]any{}
	if len(n.Spec.Taints) > 0 || s.chance(4) {
		ts := []any{}
		for _, t := range n.Spec.Taints {
			m := map[string]any{"key": t.Key, "effect": string(t.Effect)}
			if t.Value != "" || s.chance(3) {
				m["value"] = t.Value
			}
			ts = append(ts, m)
		}
		spec["taints"] = ts
	}
	if n.Spec.Unschedulable || s.chance(4) {
		spec["unschedulable"] = n.Spec.Unschedulable
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": meta}
	if len(spec) > 0 || s.chance(2) {
		obj["spec"] = spec
	}
	status := map[string]any{}
	for field, l := range map[string]v1.ResourceList{"allocatable": n.Status.Allocatable, "capacity": n.Status.Capacity} {
		if len(l) > 0 {
			m := map[string]any{}
			for name, q := range l {
				m[string(name)] = q.String()
			}
			status[field] = m
		}
	}
	if len(status) > 0 {
		obj["status"] = status
	}
	return obj
}

// --- workloads --------------------------------------------------------------

// genPlacementSpec makes a pod spec aimed at the cluster: node selector and
// affinity from genPodSpec on one of its nodes, tolerations of its taints
// (and of the well-known ones) in every shape, a nodeName now and then.
func genPlacementSpec(s *src, nodes []*v1.Node, kind string) v1.PodSpec {
	ref := nodes[s.intn(len(nodes))]
	spec := genPodSpec(s, ref)
	spec.Containers = []v1.Container{{Name: "c", Image: "nginx"}}
	taints := slices.Clone(wellKnownTaints)
	for _, n := range nodes {
		taints = append(taints, n.Spec.Taints...)
	}
	if s.chance(3) {
		perNodeConstraint(s, &spec, nodes)
	}
	n := s.intn(5)
	if n == 0 && s.chance(3) {
		spec.Tolerations = []v1.Toleration{}
	}
	for range n {
		switch s.intn(8) {
		case 0, 1:
			spec.Tolerations = append(spec.Tolerations, pickOf(s, specialTolerations))
		case 2: // exactly one of the cluster's taints
			t := pickOf(s, taints)
			spec.Tolerations = append(spec.Tolerations, v1.Toleration{Key: t.Key, Operator: v1.TolerationOpEqual, Value: t.Value, Effect: t.Effect})
		default:
			spec.Tolerations = append(spec.Tolerations, genToleration(s, pickOf(s, taints)))
		}
	}
	if s.chance(6) { // tolerates every taint
		spec.Tolerations = append(spec.Tolerations, v1.Toleration{Operator: v1.TolerationOpExists})
	}
	if s.chance(6) {
		switch s.intn(4) {
		case 0:
			spec.NodeName = pickOf(s, []string{"missing", "N1", "n1"})
		default:
			spec.NodeName = nodes[s.intn(len(nodes))].Name
		}
	}
	if s.chance(2) {
		genPodResources(s, &spec)
	}
	if s.chance(4) {
		genTopology(s, &spec)
	}
	if kind == "DaemonSet" {
		spec.HostNetwork = s.chance(2)
	} else {
		spec.HostNetwork = s.chance(6)
	}
	return spec
}

// topologyKeys are the keys pod affinity and spread name: per-node labels
// some nodes lack, and pool labels.
var topologyKeys = append(slices.Clone(perNodeLabels), "pool", "node.kubernetes.io/instance-type")

// genTopology adds required pod affinity terms and topology spread
// constraints, whose topology keys a node must have.
func genTopology(s *src, spec *v1.PodSpec) {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}
	for range 1 + s.intn(2) {
		key := pickOf(s, topologyKeys)
		switch s.intn(3) {
		case 0:
			if spec.Affinity == nil {
				spec.Affinity = &v1.Affinity{}
			}
			if spec.Affinity.PodAffinity == nil {
				spec.Affinity.PodAffinity = &v1.PodAffinity{}
			}
			a := spec.Affinity.PodAffinity
			a.RequiredDuringSchedulingIgnoredDuringExecution = append(a.RequiredDuringSchedulingIgnoredDuringExecution, v1.PodAffinityTerm{LabelSelector: selector, TopologyKey: key})
		default:
			when := v1.DoNotSchedule
			if s.chance(3) {
				when = v1.ScheduleAnyway
			}
			spec.TopologySpreadConstraints = append(spec.TopologySpreadConstraints, v1.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: selector,
			})
		}
	}
}

// perNodeConstraint adds a nodeSelector entry or a required affinity
// requirement on a label whose value differs between the nodes of a pool
// (hostname, zone), with a value one of the nodes has, so that some nodes of
// a pool match and others do not.
func perNodeConstraint(s *src, spec *v1.PodSpec, nodes []*v1.Node) {
	key := pickOf(s, perNodeLabels)
	ref := nodes[s.intn(len(nodes))]
	value, ok := ref.Labels[key]
	if !ok || s.chance(4) {
		value = pickOf(s, append(slices.Clone(zoneValues), ref.Name))
	}
	if s.chance(3) {
		if spec.NodeSelector == nil {
			spec.NodeSelector = map[string]string{}
		}
		spec.NodeSelector[key] = value
		return
	}
	op := v1.NodeSelectorOperator(s.pickMostly(selectorOperators, oddSelectorOperators))
	req := v1.NodeSelectorRequirement{Key: key, Operator: op}
	switch op {
	case v1.NodeSelectorOpExists, v1.NodeSelectorOpDoesNotExist:
	case v1.NodeSelectorOpGt, v1.NodeSelectorOpLt:
		req.Values = []string{pickOf(s, []string{"0", "1", "2", "9"})}
	default:
		req.Values = []string{value}
		if s.chance(3) {
			req.Values = append(req.Values, nodes[s.intn(len(nodes))].Labels[key])
		}
	}
	if spec.Affinity == nil {
		spec.Affinity = &v1.Affinity{}
	}
	if spec.Affinity.NodeAffinity == nil {
		spec.Affinity.NodeAffinity = &v1.NodeAffinity{}
	}
	na := spec.Affinity.NodeAffinity
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &v1.NodeSelector{}
	}
	terms := na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) == 0 || s.chance(4) {
		terms = append(terms, v1.NodeSelectorTerm{})
	}
	i := s.intn(len(terms))
	terms[i].MatchExpressions = append(terms[i].MatchExpressions, req)
	na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = terms
}

// workloadObject wraps the pod spec in an object of the kind.
func workloadObject(kind, name string, spec v1.PodSpec) any {
	meta := metav1.ObjectMeta{Name: name}
	labels := map[string]string{"app": name}
	tmpl := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: spec}
	selector := &metav1.LabelSelector{MatchLabels: labels}
	switch kind {
	case "Pod":
		return &v1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: kind}, ObjectMeta: meta, Spec: spec}
	case "Deployment":
		return &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: kind}, ObjectMeta: meta,
			Spec: appsv1.DeploymentSpec{Selector: selector, Template: tmpl}}
	case "DaemonSet":
		return &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: kind}, ObjectMeta: meta,
			Spec: appsv1.DaemonSetSpec{Selector: selector, Template: tmpl}}
	case "Job":
		tmpl.Spec.RestartPolicy = v1.RestartPolicyNever
		return &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: kind}, ObjectMeta: meta,
			Spec: batchv1.JobSpec{Template: tmpl}}
	case "CronJob":
		tmpl.Spec.RestartPolicy = v1.RestartPolicyOnFailure
		return &batchv1.CronJob{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: kind}, ObjectMeta: meta,
			Spec: batchv1.CronJobSpec{Schedule: "*/5 * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: tmpl}}}}
	}
	panic("unknown kind " + kind)
}

// decodeWorkload decodes one object (JSON) into its API struct the way the
// API server does (unknown fields refused), and returns its pod spec.
func decodeWorkload(raw []byte) (kind string, obj any, spec *v1.PodSpec, err error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return "", nil, nil, err
	}
	switch tm.Kind {
	case "Pod":
		o := &v1.Pod{}
		obj, spec = o, &o.Spec
	case "Deployment":
		o := &appsv1.Deployment{}
		obj, spec = o, &o.Spec.Template.Spec
	case "DaemonSet":
		o := &appsv1.DaemonSet{}
		obj, spec = o, &o.Spec.Template.Spec
	case "Job":
		o := &batchv1.Job{}
		obj, spec = o, &o.Spec.Template.Spec
	case "CronJob":
		o := &batchv1.CronJob{}
		obj, spec = o, &o.Spec.JobTemplate.Spec.Template.Spec
	default:
		return "", nil, nil, fmt.Errorf("unexpected kind %q", tm.Kind)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return tm.Kind, obj, spec, dec.Decode(obj)
}

// reshape writes some fields of an object's pod spec the way hand-written
// manifests do: explicitly empty or null where the struct would leave them
// out. They decode to the same struct.
func reshape(s *src, obj map[string]any, path []string) {
	spec := obj
	for _, p := range path {
		next, ok := spec[p].(map[string]any)
		if !ok {
			return
		}
		spec = next
	}
	for _, field := range []string{"tolerations", "nodeSelector", "nodeName", "affinity", "hostNetwork"} {
		if _, ok := spec[field]; ok || !s.chance(8) {
			continue
		}
		switch field {
		case "tolerations":
			spec[field] = pickOf(s, []any{[]any{}, nil})
		case "nodeSelector", "affinity":
			spec[field] = pickOf(s, []any{map[string]any{}, nil})
		case "nodeName":
			spec[field] = pickOf(s, []any{"", nil})
		case "hostNetwork":
			spec[field] = pickOf(s, []any{false, nil})
		}
	}
}

var specPaths = map[string][]string{
	"Pod":        {"spec"},
	"Deployment": {"spec", "template", "spec"},
	"DaemonSet":  {"spec", "template", "spec"},
	"Job":        {"spec", "template", "spec"},
	"CronJob":    {"spec", "jobTemplate", "spec", "template", "spec"},
}

// --- writing and reading manifests ----------------------------------------

// toYAML renders a JSON-able value as YAML with the encoder kubectl's
// sigs.k8s.io/yaml uses (YAML 1.1 quoting: "010", "yes" stay strings), in
// the value's own field order.
func toYAML(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var ms yamlv2.MapSlice
	if err := yamlv2.Unmarshal(raw, &ms); err != nil {
		return nil, err
	}
	return yamlv2.Marshal(ms)
}

// readManifests reads a file as kubectl does: a JSON document, or a stream
// of YAML documents, each converted to JSON; the items of a List count as
// objects of their own.
func readManifests(name string, data []byte) ([]json.RawMessage, error) {
	var docs []any
	if strings.HasSuffix(name, ".json") {
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	} else {
		dec := yamlv2.NewDecoder(bytes.NewReader(data))
		for {
			var doc any
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			if doc != nil {
				docs = append(docs, jsonable(doc))
			}
		}
	}
	var out []json.RawMessage
	for _, doc := range docs {
		items := []any{doc}
		if m, ok := doc.(map[string]any); ok && m["kind"] == "List" {
			items, _ = m["items"].([]any)
		}
		for _, it := range items {
			raw, err := json.Marshal(it)
			if err != nil {
				return nil, err
			}
			out = append(out, raw)
		}
	}
	return out, nil
}

// jsonable turns YAML's map[any]any into JSON objects.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[fmt.Sprint(k)] = jsonable(x)
		}
		return m
	case []any:
		for i := range v {
			v[i] = jsonable(v[i])
		}
	}
	return v
}

// encodeDoc renders one document, YAML or (indented) JSON.
func encodeDoc(v any, asJSON bool) ([]byte, error) {
	if asJSON {
		return json.MarshalIndent(v, "", "  ")
	}
	return toYAML(v)
}

// --- running the CLI ---------------------------------------------------------

// placementCase is one generated cluster with its workloads, written out.
type placementCase struct {
	nodes     []*v1.Node // as decoded from the written inventory
	nodeDocs  [][]byte   // each node as YAML, for reports
	nodesFile string     // name (in the case directory) and content
	nodesData []byte
	files     map[string][]byte // workload files by name
	workloads []placedWorkload
}

type placedWorkload struct {
	kind, name string
	file       string
	doc        []byte      // the document as written
	spec       *v1.PodSpec // as decoded from it
}

// genPlacementCase generates a cluster and n workloads and renders them as
// files; the oracle's view of both is decoded from those files.
func genPlacementCase(t testing.TB, s *src, n int) *placementCase {
	t.Helper()
	c := &placementCase{files: map[string][]byte{}}
	generated := genCluster(s)

	// The inventory: a v1 List of Nodes, YAML or JSON.
	var items []any
	for _, node := range generated {
		items = append(items, nodeObject(s, node))
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	asJSON := s.chance(3)
	c.nodesFile = "nodes.yaml"
	if asJSON {
		c.nodesFile = "nodes.json"
	}
	data, err := encodeDoc(list, asJSON)
	if err != nil {
		t.Fatal(err)
	}
	c.nodesData = data
	raws, err := readManifests(c.nodesFile, data)
	if err != nil {
		t.Fatalf("read back %s: %v\n%s", c.nodesFile, err, data)
	}
	for i, raw := range raws {
		node := &v1.Node{}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(node); err != nil {
			t.Fatalf("decode node %d: %v\n%s", i, err, raw)
		}
		if want, got := mustJSON(generated[i]), mustJSON(node); want != got {
			t.Fatalf("node %d reads back as\n%s\nnot\n%s", i, got, want)
		}
		doc, _ := toYAML(items[i])
		// The kubelet labels every node with its hostname; dslint gives a
		// node written without that label its name there, as the kubelet
		// would.
		if _, ok := node.Labels[v1.LabelHostname]; !ok {
			if node.Labels == nil {
				node.Labels = map[string]string{}
			}
			node.Labels[v1.LabelHostname] = node.Name
		}
		c.nodes = append(c.nodes, node)
		c.nodeDocs = append(c.nodeDocs, doc)
	}

	// The workloads, in files of one to four documents: YAML streams, YAML
	// or JSON Lists, single JSON objects.
	type written struct {
		kind, name string
		doc        map[string]any // the object, some fields reshaped
	}
	var ws []written
	for i := range n {
		kind := pickOf(s, workloadKinds)
		name := fmt.Sprintf("w%02d-%s", i, strings.ToLower(kind))
		obj := workloadObject(kind, name, genPlacementSpec(s, generated, kind))
		var doc map[string]any
		if err := json.Unmarshal([]byte(mustJSON(obj)), &doc); err != nil {
			t.Fatal(err)
		}
		reshape(s, doc, specPaths[kind])
		ws = append(ws, written{kind: kind, name: name, doc: doc})
	}
	for start, f := 0, 0; start < len(ws); f++ {
		end := min(len(ws), start+1+s.intn(4))
		chunk := ws[start:end]
		start = end
		var docs []any
		for _, w := range chunk {
			docs = append(docs, w.doc)
		}
		var name string
		var buf bytes.Buffer
		switch format := s.intn(4); {
		case format == 0 && len(chunk) == 1:
			name = fmt.Sprintf("w%02d.json", f)
			b, _ := encodeDoc(docs[0], true)
			buf.Write(b)
		case format == 1:
			name = fmt.Sprintf("w%02d-list.json", f)
			b, _ := encodeDoc(map[string]any{"apiVersion": "v1", "kind": "List", "items": docs}, true)
			buf.Write(b)
		case format == 2:
			name = fmt.Sprintf("w%02d-list.yaml", f)
			b, err := toYAML(map[string]any{"apiVersion": "v1", "kind": "List", "items": docs})
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(b)
		default:
			name = fmt.Sprintf("w%02d.yaml", f)
			if s.chance(3) {
				buf.WriteString("# generated\n---\n")
			}
			for i, d := range docs {
				if i > 0 {
					buf.WriteString("---\n")
				}
				b, err := toYAML(d)
				if err != nil {
					t.Fatal(err)
				}
				buf.Write(b)
			}
		}
		c.files[name] = buf.Bytes()
		raws, err := readManifests(name, buf.Bytes())
		if err != nil {
			t.Fatalf("read back %s: %v\n%s", name, err, buf.Bytes())
		}
		if len(raws) != len(chunk) {
			t.Fatalf("%s: %d objects read back, %d written", name, len(raws), len(chunk))
		}
		for i, raw := range raws {
			kind, obj, spec, err := decodeWorkload(raw)
			if err != nil {
				t.Fatalf("%s: decode object %d: %v\n%s", name, i, err, raw)
			}
			_, intended, _, err := decodeWorkload([]byte(mustJSON(chunk[i].doc)))
			if err != nil {
				t.Fatalf("%s: decode object %d as generated: %v", name, i, err)
			}
			if want, got := mustJSON(intended), mustJSON(obj); want != got {
				t.Fatalf("%s: object %d reads back as\n%s\nnot\n%s", name, i, got, want)
			}
			doc, _ := toYAML(chunk[i].doc)
			c.workloads = append(c.workloads, placedWorkload{kind: kind, name: chunk[i].name, file: name, doc: doc, spec: spec})
		}
	}
	return c
}

// scheduleJSON is the JSON contract of dslint schedule (SPEC §6).
type scheduleJSON struct {
	Version int `json:"version"`
	Nodes   []struct {
		Name string `json:"name"`
		Pool string `json:"pool"`
	} `json:"nodes"`
	Placements []struct {
		Object struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Namespace  string `json:"namespace"`
			Name       string `json:"name"`
		} `json:"object"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Template string `json:"template"`
		// The capacity (TestCapacityDifferential in the capacity module
		// compares it with the upstream scheduler plugins).
		Replicas    int      `json:"replicas"`
		Placed      int      `json:"placed"`
		PlacedExact bool     `json:"placed_exact"`
		BlockedBy   string   `json:"blocked_by"`
		Eligible    []string `json:"eligible"`
		Blocked     []struct {
			Node   string `json:"node"`
			Reason string `json:"reason"`
			Detail string `json:"detail"`
		} `json:"blocked"`
	} `json:"placements"`
}

// schedule writes the files under dir and runs dslint schedule on them in
// process.
func schedule(t testing.TB, dir, nodesFile string, nodesData []byte, files map[string][]byte) *scheduleJSON {
	t.Helper()
	wdir := filepath.Join(dir, "workloads")
	if err := os.MkdirAll(wdir, 0o755); err != nil {
		t.Fatal(err)
	}
	nodesPath := filepath.Join(dir, nodesFile)
	if err := os.WriteFile(nodesPath, nodesData, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(wdir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	args := []string{"schedule", "--format", "json", "--nodes", nodesPath, wdir}
	code := cli.Main(args, strings.NewReader(""), &stdout, &stderr)
	switch {
	case code != 0:
		// Go on with the placements it printed, if any: the workloads it
		// did not place are reported missing.
		t.Errorf("dslint %s: exit %d, want 0\nstderr (first lines):\n%s\nnodes:\n%s", strings.Join(args, " "), code, firstLines(stderr.String(), 12), nodesData)
	case stderr.Len() > 0:
		t.Errorf("dslint schedule wrote to stderr: %s", firstLines(stderr.String(), 12))
	}
	out := &scheduleJSON{}
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("decode dslint schedule output: %v", err)
	}
	return out
}

func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("... (%d more lines)\n", len(lines)-n)
}

// placementTally counts comparisons across the clusters of a run.
type placementTally struct {
	mu          sync.Mutex
	comparisons int
	eligible    int            // the oracle says eligible
	byKind      map[string]int // comparisons by workload kind
	byWhy       map[string]int // the oracle's first reason, by category
	disagree    int
	printed     int
}

func (pt *placementTally) add(kind string, eligible bool, why string) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.comparisons++
	if eligible {
		pt.eligible++
	}
	if pt.byKind == nil {
		pt.byKind, pt.byWhy = map[string]int{}, map[string]int{}
	}
	pt.byKind[kind]++
	if !eligible {
		category, _, _ := strings.Cut(why, ":")
		pt.byWhy[category]++
	}
}

// disagreement counts one and says whether to print it.
func (pt *placementTally) disagreement() bool {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.disagree++
	if pt.printed < maxPrinted {
		pt.printed++
		return true
	}
	return false
}

var blockReasons = []string{"node-name", "node-selector", "node-affinity", "taint", "unschedulable", "resources", "spread", "affinity"}

// checkPlacementCase runs dslint on the case and compares every workload
// and node with the oracle.
func checkPlacementCase(t testing.TB, c *placementCase, pt *placementTally, isolate bool) {
	t.Helper()
	out := schedule(t, t.TempDir(), c.nodesFile, c.nodesData, c.files)
	if out.Version != 1 {
		t.Errorf("version %d, want 1", out.Version)
	}
	var names []string
	for _, n := range out.Nodes {
		names = append(names, n.Name)
	}
	var want []string
	for _, n := range c.nodes {
		want = append(want, n.Name)
	}
	if !slices.Equal(names, want) {
		t.Errorf("nodes %v, want %v", names, want)
	}
	type verdict struct {
		eligible bool
		reason   string
		detail   string
	}
	byObject := map[string]map[string]verdict{}
	for _, p := range out.Placements {
		key := p.Object.Kind + "/" + p.Object.Name
		if byObject[key] != nil {
			t.Errorf("%s placed twice", key)
			continue
		}
		vs := map[string]verdict{}
		for _, n := range p.Eligible {
			if _, dup := vs[n]; dup {
				t.Errorf("%s: node %s listed twice", key, n)
			}
			vs[n] = verdict{eligible: true}
		}
		for _, b := range p.Blocked {
			if _, dup := vs[b.Node]; dup {
				t.Errorf("%s: node %s listed twice", key, b.Node)
			}
			if !slices.Contains(blockReasons, b.Reason) {
				t.Errorf("%s: node %s blocked with reason %q, not one of %v", key, b.Node, b.Reason, blockReasons)
			}
			vs[b.Node] = verdict{reason: b.Reason, detail: b.Detail}
		}
		byObject[key] = vs
	}
	var unplaced []string
	for _, w := range c.workloads {
		key := w.kind + "/" + w.name
		vs, ok := byObject[key]
		if !ok {
			unplaced = append(unplaced, key)
			continue
		}
		for i, node := range c.nodes {
			expect, why := oracle.Placement(w.kind, w.spec, node)
			pt.add(w.kind, expect, why)
			got, ok := vs[node.Name]
			if !ok {
				t.Errorf("%s: node %s neither eligible nor blocked", key, node.Name)
				continue
			}
			if got.eligible == expect {
				continue
			}
			if !pt.disagreement() {
				continue
			}
			var b strings.Builder
			fmt.Fprintf(&b, "placement disagreement: %s (%s) on node %s\n", key, w.file, node.Name)
			fmt.Fprintf(&b, "  upstream: eligible=%v", expect)
			if !expect {
				fmt.Fprintf(&b, " (%s)", why)
			}
			fmt.Fprintf(&b, "\n  dslint:   eligible=%v", got.eligible)
			if !got.eligible {
				fmt.Fprintf(&b, " (blocked: %s: %s)", got.reason, got.detail)
			}
			if isolate {
				fmt.Fprintf(&b, "\n  alone (this node and this workload only): %s", isolated(t, c.nodeDocs[i], w))
			}
			fmt.Fprintf(&b, "\n--- node:\n%s--- workload:\n%s", c.nodeDocs[i], w.doc)
			t.Error(b.String())
		}
	}
	if len(unplaced) > 0 || len(out.Placements) != len(c.workloads) {
		t.Errorf("%d placements for %d workloads; no placement for %d: %s", len(out.Placements), len(c.workloads), len(unplaced), strings.Join(unplaced, ", "))
	}
}

// isolated reruns dslint with one node and one workload, to tell a
// disagreement of the filters from one of the pooling of nodes.
func isolated(t testing.TB, nodeDoc []byte, w placedWorkload) string {
	var node any
	if err := yamlv2.Unmarshal(nodeDoc, &node); err != nil {
		return "error: " + err.Error()
	}
	list, err := toYAML(map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{jsonable(node)}})
	if err != nil {
		return "error: " + err.Error()
	}
	out := schedule(t, t.TempDir(), "nodes.yaml", list, map[string][]byte{"w.yaml": w.doc})
	if len(out.Placements) != 1 {
		return fmt.Sprintf("%d placements", len(out.Placements))
	}
	p := out.Placements[0]
	if len(p.Eligible) == 1 {
		return "eligible"
	}
	if len(p.Blocked) == 1 {
		return fmt.Sprintf("blocked: %s: %s", p.Blocked[0].Reason, p.Blocked[0].Detail)
	}
	return fmt.Sprintf("eligible %v, blocked %v", p.Eligible, p.Blocked)
}

// TestPlacementDifferential: dslint schedule --format json against the
// upstream filters, on generated clusters and workloads.
func TestPlacementDifferential(t *testing.T) {
	t.Parallel()
	start := time.Now()
	nClusters, nWorkloads := placementSize()
	s := seeded(6)
	cases := make([]*placementCase, nClusters)
	for i := range cases {
		cases[i] = genPlacementCase(t, s, nWorkloads)
	}
	pt := &placementTally{}
	nodes := 0
	t.Run("clusters", func(t *testing.T) {
		for i, c := range cases {
			nodes += len(c.nodes)
			t.Run(fmt.Sprintf("cluster-%02d", i), func(t *testing.T) {
				t.Parallel()
				checkPlacementCase(t, c, pt, true)
			})
		}
	})
	if pt.disagree > pt.printed {
		t.Errorf("%d more disagreements not printed", pt.disagree-pt.printed)
	}
	t.Logf("placement: %d clusters (%d nodes), %d workloads, %d workload×node comparisons, %d disagreements, %v",
		nClusters, nodes, nClusters*nWorkloads, pt.comparisons, pt.disagree, time.Since(start).Round(time.Millisecond))
	t.Logf("placement: comparisons by kind: %s", counts(pt.byKind))
	t.Logf("placement: upstream says eligible %d, blocked %d (first reason: %s)", pt.eligible, pt.comparisons-pt.eligible, counts(pt.byWhy))
}

func counts(m map[string]int) string {
	var out []string
	for k, n := range m {
		out = append(out, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// FuzzPlacementDifferential makes one cluster and three workloads from the
// fuzz bytes (the node inventory stays valid; the two free strings join
// the workloads' pools) and compares dslint schedule with the oracle.
func FuzzPlacementDifferential(f *testing.F) {
	f.Add([]byte{}, "", "")
	f.Add([]byte{3, 1, 0, 2, 5, 1, 1, 0, 4, 2, 3, 0, 1, 1, 2, 7, 0, 3, 1, 4}, "node.kubernetes.io/unschedulable", "Exists")
	f.Add([]byte{0, 0, 2, 1, 3, 3, 0, 1, 0, 9, 4, 1, 2, 2, 0, 1, 5, 0, 0, 2, 6, 1}, "010", "Gt")
	f.Fuzz(func(t *testing.T, choices []byte, free1, free2 string) {
		s := fromBytes(t, choices, free1, free2)
		c := genPlacementCase(t, s, 3)
		checkPlacementCase(t, c, &placementTally{}, false)
	})
}
