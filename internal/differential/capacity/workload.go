package capacity

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
)

// WorkloadOf is the Workload of an API object (a pointer to a Deployment,
// ReplicaSet, StatefulSet, ReplicationController, Job or DaemonSet), with
// the replicas its controller wants: spec.replicas defaulting to 1; for a
// Job, parallelism (default 1) capped by completions, as the Job
// controller creates pods (0 when either is 0).
func WorkloadOf(obj any) (Workload, error) {
	replicas := func(r *int32) int {
		if r == nil {
			return 1
		}
		return int(*r)
	}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return Workload{Kind: "Deployment", Namespace: o.Namespace, Name: o.Name, Template: o.Spec.Template, Replicas: replicas(o.Spec.Replicas)}, nil
	case *appsv1.ReplicaSet:
		return Workload{Kind: "ReplicaSet", Namespace: o.Namespace, Name: o.Name, Template: o.Spec.Template, Replicas: replicas(o.Spec.Replicas)}, nil
	case *appsv1.StatefulSet:
		return Workload{Kind: "StatefulSet", Namespace: o.Namespace, Name: o.Name, Template: o.Spec.Template, Replicas: replicas(o.Spec.Replicas)}, nil
	case *v1.ReplicationController:
		w := Workload{Kind: "ReplicationController", Namespace: o.Namespace, Name: o.Name, Replicas: replicas(o.Spec.Replicas)}
		if o.Spec.Template != nil {
			w.Template = *o.Spec.Template
		}
		return w, nil
	case *batchv1.Job:
		n := replicas(o.Spec.Parallelism)
		if o.Spec.Completions != nil && int(*o.Spec.Completions) < n {
			n = int(*o.Spec.Completions)
		}
		return Workload{Kind: "Job", Namespace: o.Namespace, Name: o.Name, Template: o.Spec.Template, Replicas: n,
			IndexedJob:     o.Spec.CompletionMode != nil && *o.Spec.CompletionMode == batchv1.IndexedCompletion,
			ManualSelector: o.Spec.ManualSelector != nil && *o.Spec.ManualSelector}, nil
	case *appsv1.DaemonSet:
		return Workload{Kind: "DaemonSet", Namespace: o.Namespace, Name: o.Name, Template: o.Spec.Template}, nil
	}
	return Workload{}, fmt.Errorf("capacity: no workload of %T", obj)
}
