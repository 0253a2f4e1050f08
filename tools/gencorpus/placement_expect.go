package main

// Where each workload fits, by the upstream Kubernetes code through
// internal/differential/oracle (the scheduler's, kubelet admission's and the
// DaemonSet controller's filters, reference §2, §5 and §9). It is written
// to expected.json beside the workloads as an independent reference for
// `dslint schedule`; dslint does not read it.

import (
	"encoding/json"

	v1 "k8s.io/api/core/v1"

	"github.com/dslint/dslint/internal/differential/oracle"
)

// placed is one workload and where it fits.
type placed struct {
	apiVersion, kind, namespace, name, file string
	line                                    int
	caseName                                string
	eligible                                int
	byPool                                  map[string]int
	sample                                  []string // the eligible nodes, when at most sampleMax
}

const sampleMax = 10

// where fills in the nodes the workload fits, as the upstream Kubernetes
// code decides it (internal/differential/oracle): the generator has no
// scheduling model of its own.
func (p *placed) where(c *cluster, s scheduling, hostNetwork bool) {
	fits := oracle.For(p.kind, s.podSpec(hostNetwork))
	p.byPool = map[string]int{}
	for i, nd := range c.nodes {
		if ok, _ := fits(c.apiNodes()[i]); !ok {
			continue
		}
		p.eligible++
		p.byPool[nd.pool.name]++
		if len(p.sample) <= sampleMax {
			p.sample = append(p.sample, nd.name)
		}
	}
	if len(p.sample) > sampleMax {
		p.sample = nil
	}
}

// podSpec is the pod spec the manifest written for s decodes to, as far as
// placement reads it.
func (s scheduling) podSpec(hostNetwork bool) *v1.PodSpec {
	spec := &v1.PodSpec{NodeName: s.nodeName, HostNetwork: hostNetwork}
	if s.spread != "" {
		spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: s.spread, WhenUnsatisfiable: v1.UnsatisfiableConstraintAction(s.spreadWhen),
		}}
	}
	for _, t := range s.tolerations {
		tol := v1.Toleration{Key: t.key, Operator: v1.TolerationOperator(t.operator), Value: t.value, Effect: v1.TaintEffect(t.effect)}
		if t.seconds > 0 {
			seconds := int64(t.seconds)
			tol.TolerationSeconds = &seconds
		}
		spec.Tolerations = append(spec.Tolerations, tol)
	}
	if len(s.nodeSelector) > 0 {
		spec.NodeSelector = map[string]string{}
		for _, l := range s.nodeSelector {
			spec.NodeSelector[l.k] = l.v
		}
	}
	if len(s.required) > 0 {
		sel := &v1.NodeSelector{}
		for _, term := range s.required {
			var t v1.NodeSelectorTerm
			for _, e := range term {
				req := v1.NodeSelectorRequirement{Key: e.key, Operator: v1.NodeSelectorOperator(e.operator), Values: e.values}
				if e.field {
					t.MatchFields = append(t.MatchFields, req)
				} else {
					t.MatchExpressions = append(t.MatchExpressions, req)
				}
			}
			sel.NodeSelectorTerms = append(sel.NodeSelectorTerms, t)
		}
		spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}}
	}
	return spec
}

// apiNodes are the cluster's nodes as the API has them, made once.
func (c *cluster) apiNodes() []*v1.Node {
	if c.api == nil {
		for _, nd := range c.nodes {
			n := &v1.Node{}
			n.Name, n.Labels, n.Spec.Unschedulable = nd.name, nd.labelMap, nd.unschedulable
			for _, t := range nd.taints {
				n.Spec.Taints = append(n.Spec.Taints, v1.Taint{Key: t.key, Value: t.value, Effect: v1.TaintEffect(t.effect)})
			}
			c.api = append(c.api, n)
		}
	}
	return c.api
}

// The JSON of expected.json.
type (
	expectedFile struct {
		Version    int              `json:"version"`
		Note       string           `json:"note"`
		Nodes      int              `json:"nodes"`
		Pools      []expectedPool   `json:"pools"`
		Placements []expectedPlaced `json:"placements"`
	}
	expectedPool struct {
		Name         string            `json:"name"`
		Size         int               `json:"size"`
		InstanceType string            `json:"instanceType"`
		Labels       map[string]string `json:"labels,omitempty"`
		Taints       []string          `json:"taints,omitempty"`
		Zones        []string          `json:"zones"`
	}
	expectedPlaced struct {
		Object struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Namespace  string `json:"namespace"`
			Name       string `json:"name"`
		} `json:"object"`
		File          string         `json:"file"`
		Line          int            `json:"line"`
		Case          string         `json:"case"`
		Eligible      int            `json:"eligible"`
		EligiblePools map[string]int `json:"eligiblePools"`
		EligibleNodes []string       `json:"eligibleNodes,omitempty"`
	}
)

const expectedNote = "eligible nodes per workload by the upstream Kubernetes code (k8s.io/component-helpers, through " +
	"internal/differential/oracle), as SPEC section 6 places pods " +
	"(nodeName, nodeSelector, required affinity, NoSchedule/NoExecute taints, unschedulable for non-DaemonSet pods, " +
	"DaemonSet controller tolerations); a pod with nodeName bypasses the scheduler, so only its affinity and " +
	"NoExecute taints count (kubelet admission). " +
	"eligibleNodes is listed when there are at most 10. Pool labels and taints exclude the kubelet labels and the " +
	"condition and cordon taints of individual nodes."

func expectedJSON(c *cluster, all []placed) ([]byte, error) {
	out := expectedFile{Version: 1, Note: expectedNote, Nodes: len(c.nodes)}
	for _, p := range c.pools {
		ep := expectedPool{Name: p.name, Size: p.size, InstanceType: p.instanceType, Zones: p.zones, Labels: map[string]string{}}
		if ep.Zones == nil {
			ep.Zones = zones
		}
		for _, l := range p.labels {
			ep.Labels[l.k] = l.v
		}
		for _, t := range p.taints {
			ep.Taints = append(ep.Taints, t.String())
		}
		out.Pools = append(out.Pools, ep)
	}
	for _, p := range all {
		var e expectedPlaced
		e.Object.APIVersion, e.Object.Kind, e.Object.Namespace, e.Object.Name = p.apiVersion, p.kind, p.namespace, p.name
		e.File, e.Line, e.Case, e.Eligible, e.EligiblePools, e.EligibleNodes = p.file, p.line, p.caseName, p.eligible, p.byPool, p.sample
		out.Placements = append(out.Placements, e)
	}
	data, err := json.MarshalIndent(out, "", " ")
	return append(data, '\n'), err
}
