package main

// Where each workload fits, by the generator's own model of SPEC §6 (the
// scheduler's and DaemonSet controller's filters, as in
// ../shared/reference/kubernetes-scheduling-semantics.md §9). It is written
// to expected.json beside the workloads as an independent reference for
// `dslint schedule`; dslint does not read it.

import (
	"encoding/json"
	"slices"
	"strconv"
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

// daemonTolerations are those the DaemonSet controller adds to its pods;
// network-unavailable only with hostNetwork.
var daemonTolerations = []toleration{
	{key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute"},
	{key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute"},
	{key: "node.kubernetes.io/disk-pressure", operator: "Exists", effect: "NoSchedule"},
	{key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule"},
	{key: "node.kubernetes.io/pid-pressure", operator: "Exists", effect: "NoSchedule"},
	{key: unschedTaint, operator: "Exists", effect: "NoSchedule"},
}

// where fills in the nodes the workload fits.
func (p *placed) where(c *cluster, s scheduling, daemon, hostNetwork bool) {
	tols := s.tolerations
	if daemon {
		tols = append(slices.Clone(tols), daemonTolerations...)
		if hostNetwork {
			tols = append(tols, toleration{key: "node.kubernetes.io/network-unavailable", operator: "Exists", effect: "NoSchedule"})
		}
	}
	p.byPool = map[string]int{}
	for _, nd := range c.nodes {
		if !fits(s, tols, daemon, nd) {
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

// fits is one cell of the matrix: node name, node selector and required
// affinity, taints, and (for pods other than DaemonSet pods) cordoning. A
// pod with nodeName bypasses the scheduler: the kubelet admits it checking
// only the affinity and NoExecute taints (reference §2.4).
func fits(s scheduling, tols []toleration, daemon bool, nd *node) bool {
	if s.nodeName != "" && s.nodeName != nd.name {
		return false
	}
	for _, l := range s.nodeSelector {
		if v, ok := nd.labelMap[l.k]; !ok || v != l.v {
			return false
		}
	}
	if len(s.required) > 0 && !slices.ContainsFunc(s.required, func(t []expr) bool { return termMatches(t, nd) }) {
		return false
	}
	kubeletOnly := s.nodeName != "" && !daemon
	for _, t := range nd.taints {
		blocks := t.effect == "NoExecute" || (t.effect == "NoSchedule" && !kubeletOnly)
		if blocks && !tolerated(tols, t) {
			return false
		}
	}
	return daemon || kubeletOnly || !nd.unschedulable || tolerated(tols, nodeTaint{unschedTaint, "", "NoSchedule"})
}

// termMatches ANDs a term's requirements; an empty term matches nothing.
func termMatches(term []expr, nd *node) bool {
	if len(term) == 0 {
		return false
	}
	for _, e := range term {
		if e.field {
			if e.key != "metadata.name" || len(e.values) != 1 ||
				(e.operator == "In") != (nd.name == e.values[0]) || (e.operator != "In" && e.operator != "NotIn") {
				return false
			}
			continue
		}
		if !exprMatches(e, nd.labelMap) {
			return false
		}
	}
	return true
}

func exprMatches(e expr, labels map[string]string) bool {
	v, ok := labels[e.key]
	switch e.operator {
	case "In":
		return ok && slices.Contains(e.values, v)
	case "NotIn":
		return !ok || !slices.Contains(e.values, v)
	case "Exists":
		return ok
	case "DoesNotExist":
		return !ok
	case "Gt", "Lt":
		if !ok || len(e.values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64) // accepts leading zeros, as the scheduler does
		want, err2 := strconv.ParseInt(e.values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return (e.operator == "Gt" && have > want) || (e.operator == "Lt" && have < want)
	}
	return false
}

// tolerated is TolerationsTolerateTaint with the comparison operators off.
func tolerated(tols []toleration, t nodeTaint) bool {
	return slices.ContainsFunc(tols, func(tol toleration) bool {
		if (tol.effect != "" && tol.effect != t.effect) || (tol.key != "" && tol.key != t.key) {
			return false
		}
		switch tol.operator {
		case "", "Equal":
			return tol.value == t.value
		case "Exists":
			return true
		}
		return false
	})
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

const expectedNote = "eligible nodes per workload by tools/gencorpus's own model of SPEC section 6 " +
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
