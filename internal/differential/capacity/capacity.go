// Package capacity is the capacity oracle (reference §15.4): how many
// replicas of one workload the upstream kube-scheduler (k8s.io/kubernetes
// v1.36.3) places on an empty cluster of given nodes, one replica at a time,
// by running the default profile's Filter plugins themselves. It lives in a
// module of its own so that k8s.io/kubernetes never becomes a dependency of
// dslint; only tests use it. README.md states the tie-break.
package capacity

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/core/install" // v1 defaulting into legacyscheme
	"k8s.io/kubernetes/pkg/controller/daemon"
	daemonutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	tf "k8s.io/kubernetes/pkg/scheduler/testing/framework"

	"github.com/dslint/dslint/internal/differential/oracle"
)

// Workload is what the oracle needs of a workload: its kind, identity, pod
// template and the replicas its controller wants (ignored for a
// DaemonSet, whose count is the DESIRED of its controller). WorkloadOf
// builds one from an API object.
type Workload struct {
	Kind      string // Deployment, ReplicaSet, StatefulSet, ReplicationController, Job, DaemonSet
	Namespace string
	Name      string
	Template  v1.PodTemplateSpec
	Replicas  int
	// IndexedJob gives Job pods the completion-index label.
	IndexedJob bool
	// ManualSelector is a Job's spec.manualSelector: the API server then
	// adds no job-name/controller-uid labels to the template.
	ManualSelector bool
}

// Result is the oracle's answer for one workload.
type Result struct {
	// Wanted is the replicas the controller wants: Workload.Replicas, or
	// DESIRED (the nodes where NodeShouldRunDaemonPod's shouldRun holds)
	// for a DaemonSet.
	Wanted int
	// Placed is how many of them the scheduler binds, and Nodes where, in
	// the order they were bound.
	Placed int
	Nodes  []string
	// Why is the scheduler's message for the first replica that found no
	// node (for a DaemonSet, each unplaced node's), empty when all placed.
	Why string
}

// Fixed values for what controllers and the API server make up.
const (
	podTemplateHash = "5d8f7c9b6"
	revisionHash    = "7b9c5d4f8"
	jobUID          = "00000000-0000-4000-8000-00000000a11b"
)

// filterPlugins are the default profile's Filter plugins, in its order
// (pkg/scheduler/apis/config/v1/default_plugins.go), without the volume
// plugins and DynamicResources (no PVCs, claims or listers for them here).
var filterPlugins = []struct {
	name      string
	preFilter bool
}{
	{"NodeUnschedulable", false},
	{"NodeName", false},
	{"TaintToleration", false},
	{"NodeAffinity", true},
	{"NodePorts", true},
	{"NodeResourcesFit", true},
	{"PodTopologySpread", true},
	{"InterPodAffinity", true},
}

var registerMetrics sync.Once

// Place answers for one workload on the given nodes (an empty cluster).
func Place(nodes []*v1.Node, w Workload) (Result, error) {
	registerMetrics.Do(metrics.Register)
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer cancel()
	logger := klog.FromContext(ctx)

	c := cache.New(ctx, nil, false)
	sorted := slices.Clone(nodes)
	slices.SortFunc(sorted, func(a, b *v1.Node) int { return strings.Compare(a.Name, b.Name) })
	for _, n := range sorted {
		c.AddNode(logger, n.DeepCopy())
	}
	snapshot := cache.NewEmptySnapshot()

	// InterPodAffinity lists namespaces from the informer factory; an
	// unstarted one whose indexer holds the workload's namespace serves.
	factory := informers.NewSharedInformerFactory(nil, 0)
	ns := w.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	if err := factory.Core().V1().Namespaces().Informer().GetIndexer().Add(&v1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{v1.LabelMetadataName: ns}},
	}); err != nil {
		return Result{}, err
	}

	registry := plugins.NewInTreeRegistry()
	fns := []tf.RegisterPluginFunc{
		tf.RegisterQueueSortPlugin(queuesort.Name, queuesort.New),
		tf.RegisterBindPlugin(defaultbinder.Name, defaultbinder.New),
	}
	for _, p := range filterPlugins {
		ext := []string{"Filter"}
		if p.preFilter {
			ext = append(ext, "PreFilter")
		}
		fns = append(fns, tf.RegisterPluginAsExtensions(p.name, registry[p.name], ext...))
	}
	f, err := tf.NewFramework(ctx, fns, v1.DefaultSchedulerName,
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithInformerFactory(factory))
	if err != nil {
		return Result{}, fmt.Errorf("framework: %w", err)
	}

	s := &scheduler{ctx: ctx, logger: logger, cache: c, snapshot: snapshot, fw: f, nodes: sorted}
	w.Namespace = ns
	if w.Kind == "DaemonSet" {
		return s.placeDaemonSet(w)
	}
	res := Result{Wanted: w.Replicas}
	for i := range w.Replicas {
		pod := podFor(w, i)
		node, why, err := s.scheduleOne(pod)
		if err != nil {
			return res, err
		}
		if node == "" {
			res.Why = why
			break
		}
		res.Placed++
		res.Nodes = append(res.Nodes, node)
	}
	return res, nil
}

type scheduler struct {
	ctx      context.Context
	logger   klog.Logger
	cache    cache.Cache
	snapshot *cache.Snapshot
	fw       framework.Framework
	nodes    []*v1.Node
}

// scheduleOne is one scheduling cycle without scoring: the snapshot
// updated from the cache, PreFilter, then Filter on every node in name
// order (only those of the PreFilterResult, as findNodesThatFitPod does);
// the first node that passes is the tie-break. The pod is then bound: added
// to the cache on that node. An empty node name means no node fits, and why.
func (s *scheduler) scheduleOne(pod *v1.Pod) (string, string, error) {
	if err := s.cache.UpdateSnapshot(s.logger, s.snapshot); err != nil {
		return "", "", err
	}
	state := framework.NewCycleState()
	pre, status, _ := s.fw.RunPreFilterPlugins(s.ctx, state, pod)
	if !status.IsSuccess() {
		if !status.IsRejected() {
			return "", "", fmt.Errorf("prefilter %s: %w", pod.Name, status.AsError())
		}
		return "", "prefilter: " + status.Message(), nil
	}
	reasons := map[string]int{}
	for _, n := range s.nodes {
		if !pre.AllNodes() && !pre.NodeNames.Has(n.Name) {
			reasons["PreFilter result excludes the node"]++
			continue
		}
		info, err := s.snapshot.NodeInfos().Get(n.Name)
		if err != nil {
			return "", "", err
		}
		st := s.fw.RunFilterPlugins(s.ctx, state, pod, info)
		if st.IsSuccess() {
			bound := pod.DeepCopy()
			bound.Spec.NodeName = n.Name
			if err := s.cache.AddPod(s.logger, bound); err != nil {
				return "", "", err
			}
			return n.Name, "", nil
		}
		if !st.IsRejected() {
			return "", "", fmt.Errorf("filter %s on %s: %w", pod.Name, n.Name, st.AsError())
		}
		reasons[st.Plugin()+": "+strings.Join(st.Reasons(), "; ")]++
	}
	var parts []string
	for _, r := range slices.Sorted(maps.Keys(reasons)) {
		parts = append(parts, fmt.Sprintf("%d× %s", reasons[r], r))
	}
	return "", strings.Join(parts, ", "), nil
}

// placeDaemonSet is the DaemonSet controller and the scheduler together
// (reference §13, §5.3): a pod for each node where shouldRun holds, in node
// name order, pinned to its node by node affinity, scheduled as any pod.
func (s *scheduler) placeDaemonSet(w Workload) (Result, error) {
	gen := int64(1)
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name, Generation: gen},
		Spec:       appsv1.DaemonSetSpec{Template: *w.Template.DeepCopy()},
	}
	var res Result
	var why []string
	for _, n := range s.nodes {
		shouldRun, _ := daemon.NodeShouldRunDaemonPod(s.logger, n, ds)
		if !shouldRun {
			continue
		}
		res.Wanted++
		tmpl := daemonutil.CreatePodTemplate(ds.Spec.Template, &gen, revisionHash)
		pod := &v1.Pod{ObjectMeta: *tmpl.ObjectMeta.DeepCopy(), Spec: *tmpl.Spec.DeepCopy()}
		pod.Namespace, pod.Name = w.Namespace, w.Name+"-"+n.Name
		pod.UID = types.UID("ds-" + w.Name + "-" + n.Name)
		pod.Spec.Affinity = daemonutil.ReplaceDaemonSetPodNodeNameNodeAffinity(pod.Spec.Affinity, n.Name)
		admit(pod)
		node, reason, err := s.scheduleOne(pod)
		if err != nil {
			return res, err
		}
		if node == "" {
			why = append(why, n.Name+": "+reason)
			continue
		}
		res.Placed++
		res.Nodes = append(res.Nodes, node)
	}
	res.Why = strings.Join(why, " | ")
	return res, nil
}

// podFor is replica i as its controller creates it and the API server
// stores it.
func podFor(w Workload, i int) *v1.Pod {
	pod := &v1.Pod{ObjectMeta: *w.Template.ObjectMeta.DeepCopy(), Spec: *w.Template.Spec.DeepCopy()}
	pod.Namespace = w.Namespace
	pod.Name = fmt.Sprintf("%s-%d", w.Name, i)
	pod.UID = types.UID(fmt.Sprintf("%s-%s-%d", strings.ToLower(w.Kind), w.Name, i))
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	switch w.Kind {
	case "Deployment": // the Deployment controller's ReplicaSet label
		pod.Labels[appsv1.DefaultDeploymentUniqueLabelKey] = podTemplateHash
	case "StatefulSet": // stateful_set_utils.go updateIdentity and the revision label
		pod.Labels[appsv1.StatefulSetPodNameLabel] = pod.Name
		pod.Labels[appsv1.PodIndexLabel] = strconv.Itoa(i)
		pod.Labels[appsv1.ControllerRevisionHashLabelKey] = w.Name + "-" + revisionHash
	case "Job":
		// The API server's generateSelector (pkg/registry/batch/job
		// strategy.go) labels the template unless manualSelector; the Job
		// controller adds the completion index of an Indexed Job.
		if !w.ManualSelector {
			for _, k := range []string{"job-name", batchv1.JobNameLabel} {
				if _, ok := pod.Labels[k]; !ok {
					pod.Labels[k] = w.Name
				}
			}
			for _, k := range []string{"controller-uid", batchv1.ControllerUidLabel} {
				if _, ok := pod.Labels[k]; !ok {
					pod.Labels[k] = jobUID
				}
			}
		}
		if w.IndexedJob {
			pod.Labels[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(i)
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(i)
		}
	}
	admit(pod)
	return pod
}

// admit is what the API server does to a new pod before the scheduler sees
// it: defaulting (SetDefaults_Pod: requests from limits, hostNetwork host
// ports, port protocols; reference §10.2), the DefaultTolerationSeconds
// admission plugin (§2.5) and the pod strategy's PrepareForCreate merge of
// matchLabelKeys/mismatchLabelKeys (§11.2, §12.1).
func admit(pod *v1.Pod) {
	legacyscheme.Scheme.Default(pod)
	pod.Spec.Tolerations = oracle.WithDefaultTolerationSeconds(pod.Spec.Tolerations)
	mergeLabelKeys(pod)
}

// mergeLabelKeys is pkg/registry/core/pod/strategy.go's mutatePodAffinity
// and mutateTopologySpreadConstraints (l.860-925; their package pulls in
// the API server's storage, so they are quoted): each key the pod carries
// is appended to the term's labelSelector as key In/NotIn [value]; a nil
// labelSelector is left nil.
func mergeLabelKeys(pod *v1.Pod) {
	apply := func(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator) {
		for _, k := range keys {
			if v, ok := pod.Labels[k]; ok {
				sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{v}})
			}
		}
	}
	term := func(t *v1.PodAffinityTerm) {
		if (len(t.MatchLabelKeys) == 0 && len(t.MismatchLabelKeys) == 0) || t.LabelSelector == nil {
			return
		}
		apply(t.LabelSelector, t.MatchLabelKeys, metav1.LabelSelectorOpIn)
		apply(t.LabelSelector, t.MismatchLabelKeys, metav1.LabelSelectorOpNotIn)
	}
	if a := pod.Spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
		}
		if pa := a.PodAntiAffinity; pa != nil {
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
		}
	}
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		if len(c.MatchLabelKeys) > 0 && c.LabelSelector != nil {
			apply(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn)
		}
	}
}
