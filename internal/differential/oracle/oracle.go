// Package oracle says where the pods of a workload can land, by the
// upstream Kubernetes Go code (k8s.io/component-helpers and the admission
// and controller helpers of reference §2 and §5, quoted here where they are
// not importable). It is the reference dslint's Rego is proven against: the
// differential tests compare the two, and tools/gencorpus uses it to say
// where each generated workload fits. dslint itself never imports it
// (TestOracleIsNotLinkedIntoDslint).
package oracle

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
	corev1 "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
)

var (
	discard = logr.Discard()
	// doNotSchedule is the scheduler's DoNotScheduleTaintsFilterFunc.
	doNotSchedule = func(t *v1.Taint) bool {
		return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
	}
	noExecute = func(t *v1.Taint) bool { return t.Effect == v1.TaintEffectNoExecute }
)

// WithDefaultTolerationSeconds is the DefaultTolerationSeconds admission
// plugin (reference §2.5): not-ready and unreachable NoExecute for 300 s,
// each unless the pod has a toleration with that key (or none) and effect
// NoExecute (or none), whatever its operator and value.
func WithDefaultTolerationSeconds(tols []v1.Toleration) []v1.Toleration {
	out := slices.Clone(tols)
	for _, key := range []string{v1.TaintNodeNotReady, v1.TaintNodeUnreachable} {
		has := false
		for _, t := range tols {
			if (t.Key == key || t.Key == "") && (t.Effect == v1.TaintEffectNoExecute || t.Effect == "") {
				has = true
			}
		}
		if !has {
			seconds := int64(300)
			out = append(out, v1.Toleration{Key: key, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &seconds})
		}
	}
	return out
}

// addOrUpdateTolerationInPodSpec is pkg/apis/core/v1/helper's (reference
// §5.1): a toleration that MatchToleration-equals the new one is replaced
// by it (nothing changes if it is identical), otherwise the new one is
// appended.
func addOrUpdateTolerationInPodSpec(spec *v1.PodSpec, toleration *v1.Toleration) bool {
	var newTolerations []v1.Toleration
	updated := false
	for i := range spec.Tolerations {
		if toleration.MatchToleration(&spec.Tolerations[i]) {
			if reflect.DeepEqual(*toleration, spec.Tolerations[i]) {
				return false
			}
			newTolerations = append(newTolerations, *toleration)
			updated = true
			continue
		}
		newTolerations = append(newTolerations, spec.Tolerations[i])
	}
	if !updated {
		newTolerations = append(newTolerations, *toleration)
	}
	spec.Tolerations = newTolerations
	return true
}

// AddOrUpdateDaemonPodTolerations is pkg/controller/daemon/util's
// (reference §5.1): the tolerations the DaemonSet controller gives its pods.
func AddOrUpdateDaemonPodTolerations(spec *v1.PodSpec) {
	auto := []struct {
		key    string
		effect v1.TaintEffect
	}{
		{v1.TaintNodeNotReady, v1.TaintEffectNoExecute},
		{v1.TaintNodeUnreachable, v1.TaintEffectNoExecute},
		{v1.TaintNodeDiskPressure, v1.TaintEffectNoSchedule},
		{v1.TaintNodeMemoryPressure, v1.TaintEffectNoSchedule},
		{v1.TaintNodePIDPressure, v1.TaintEffectNoSchedule},
		{v1.TaintNodeUnschedulable, v1.TaintEffectNoSchedule},
	}
	if spec.HostNetwork {
		auto = append(auto, struct {
			key    string
			effect v1.TaintEffect
		}{v1.TaintNodeNetworkUnavailable, v1.TaintEffectNoSchedule})
	}
	for _, a := range auto {
		addOrUpdateTolerationInPodSpec(spec, &v1.Toleration{Key: a.key, Operator: v1.TolerationOpExists, Effect: a.effect})
	}
}

// Placement is whether the pods of a workload of the kind with this pod
// spec can land on the node, and if not the first reason found ("category:
// detail"). The TaintTolerationComparisonOperators gate is off, as in
// dslint's default settings.
func Placement(kind string, spec *v1.PodSpec, node *v1.Node) (bool, string) {
	return For(kind, spec)(node)
}

// For is Placement for one workload and many nodes: what does not depend on
// the node is worked out once.
func For(kind string, spec *v1.PodSpec) func(node *v1.Node) (bool, string) {
	const gate = false
	required := nodeaffinity.GetRequiredNodeAffinity(&v1.Pod{Spec: *spec})
	affinity := func(node *v1.Node) (bool, string) {
		ok, err := required.Match(node)
		if ok {
			return true, ""
		}
		why := "selector/affinity: nodeSelector and required node affinity do not match"
		if err != nil {
			why += " (" + err.Error() + ")"
		}
		return ok, why
	}
	if kind == "DaemonSet" { // NodeShouldRunDaemonPod's shouldRun (reference §5.2)
		pod := spec.DeepCopy()
		AddOrUpdateDaemonPodTolerations(pod)
		return func(node *v1.Node) (bool, string) {
			if spec.NodeName != "" && spec.NodeName != node.Name {
				return false, "node-name: the template's nodeName names another node"
			}
			if ok, why := affinity(node); !ok {
				return false, why
			}
			if taint, bad := corev1.FindMatchingUntoleratedTaint(discard, node.Spec.Taints, pod.Tolerations, doNotSchedule, gate); bad {
				return false, "taint: untolerated taint " + taint.ToString() + " (with the DaemonSet controller's tolerations)"
			}
			return true, ""
		}
	}
	tols := WithDefaultTolerationSeconds(spec.Tolerations)
	requests := PodRequests(spec)
	if spec.NodeName != "" { // kubelet admission (reference §2.4, §10.5)
		return func(node *v1.Node) (bool, string) {
			if spec.NodeName != node.Name {
				return false, "node-name: nodeName names another node"
			}
			if ok, why := affinity(node); !ok {
				return false, why
			}
			if taint, bad := corev1.FindMatchingUntoleratedTaint(discard, node.Spec.Taints, tols, noExecute, gate); bad {
				return false, "taint: untolerated NoExecute taint " + taint.ToString() + " (kubelet admission)"
			}
			return fitsResources(requests, node)
		}
	}
	// The scheduler: NodeUnschedulable, TaintToleration, NodeAffinity,
	// NodeResourcesFit, then the first step of PodTopologySpread's and
	// InterPodAffinity's Filter: the node has the topology key of every
	// DoNotSchedule spread constraint and every required pod affinity term
	// (reference §11.3, §12.3; what the terms then count needs other pods).
	keys := topologyKeys(spec)
	return func(node *v1.Node) (bool, string) {
		if node.Spec.Unschedulable && !corev1.TolerationsTolerateTaint(discard, tols, &v1.Taint{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule}, gate) {
			return false, "unschedulable: the node is cordoned and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule"
		}
		if taint, bad := corev1.FindMatchingUntoleratedTaint(discard, node.Spec.Taints, tols, doNotSchedule, gate); bad {
			return false, "taint: untolerated taint " + taint.ToString()
		}
		if ok, why := affinity(node); !ok {
			return false, why
		}
		if ok, why := fitsResources(requests, node); !ok {
			return ok, why
		}
		for _, k := range keys {
			if _, ok := node.Labels[k.key]; !ok {
				return false, fmt.Sprintf("%s: the node has no label %s", k.plugin, k.key)
			}
		}
		return true, ""
	}
}

type topologyKey struct{ plugin, key string }

// topologyKeys are the label keys the PodTopologySpread and InterPodAffinity
// filters require of a node, for the pod's DoNotSchedule constraints and
// required pod affinity terms.
func topologyKeys(spec *v1.PodSpec) []topologyKey {
	var keys []topologyKey
	for _, c := range spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable == v1.DoNotSchedule {
			keys = append(keys, topologyKey{"spread", c.TopologyKey})
		}
	}
	if a := spec.Affinity; a != nil && a.PodAffinity != nil {
		for _, t := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			keys = append(keys, topologyKey{"affinity", t.TopologyKey})
		}
	}
	return keys
}

// PodRequests is what the scheduler reads of a pod's requests (reference
// §10.1-§10.2): each container's requests defaulted from its limits, as
// the API server's SetDefaults_Pod does for the pods a template makes, then
// component-helpers' PodRequests with pod-level resources on.
func PodRequests(spec *v1.PodSpec) v1.ResourceList {
	pod := &v1.Pod{Spec: *spec.DeepCopy()}
	for _, cs := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			for name, limit := range r.Limits {
				if _, ok := r.Requests[name]; !ok {
					if r.Requests == nil {
						r.Requests = v1.ResourceList{}
					}
					r.Requests[name] = limit.DeepCopy()
				}
			}
		}
	}
	return resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
}

// fitsResources is NodeResourcesFit's fitsRequest on an empty node
// (pkg/scheduler/framework/plugins/noderesources/fit.go l.678-765, not
// importable here; reference §10.3): room for one pod, then cpu in
// millicores and memory, ephemeral-storage and the scalar resources in
// units, each request against what the node allocates (0 where it names
// nothing). dslint reads status.capacity where a node gives no
// status.allocatable, does not judge a node that gives neither, and does
// not judge cpu, memory, ephemeral-storage or hugepages on a node that
// leaves them out (kubectl names them on every node); so does the oracle.
func fitsResources(requests v1.ResourceList, node *v1.Node) (bool, string) {
	allocatable := node.Status.Allocatable
	if len(allocatable) == 0 {
		allocatable = node.Status.Capacity
	}
	if len(allocatable) == 0 {
		return true, ""
	}
	if pods := allocatable[v1.ResourcePods]; pods.Value() < 1 {
		return false, "resources: Too many pods"
	}
	for name, q := range requests {
		a, named := allocatable[name]
		if !named && (name == v1.ResourceCPU || name == v1.ResourceMemory || name == v1.ResourceEphemeralStorage || strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix)) {
			continue
		}
		want, counted := SchedulerUnits(name, q)
		if !counted {
			continue // the scheduler drops names it does not count
		}
		if has, _ := SchedulerUnits(name, a); want > 0 && want > has {
			return false, "resources: Insufficient " + string(name)
		}
	}
	return true, ""
}

// SchedulerUnits is a quantity of a resource as the scheduler's Resource
// reads it (Resource.Add): cpu in millicores, memory, ephemeral-storage and
// the scalar resources in units; counted is false for a name it drops.
func SchedulerUnits(name v1.ResourceName, q resource.Quantity) (n int64, counted bool) {
	switch {
	case name == v1.ResourceCPU:
		return q.MilliValue(), true
	case name == v1.ResourceMemory || name == v1.ResourceEphemeralStorage || isScalar(name):
		return q.Value(), true
	}
	return 0, false
}

// isScalar is schedutil.IsScalarResourceName for the names the generators
// use: extended resources and kubernetes.io/ names (a "/"), hugepages and
// attachable volumes.
func isScalar(name v1.ResourceName) bool {
	return strings.Contains(string(name), "/") || strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix) || strings.HasPrefix(string(name), "attachable-volumes-")
}
