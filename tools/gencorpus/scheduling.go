package main

import (
	"fmt"
	"strings"
)

// taint is a taint nodes may carry; pool is the label the nodes of a
// dedicated pool carry too, empty for taints of no particular pool.
type taint struct {
	key, value, effect string
	pool               kv
}

var dedicatedTaints = []taint{
	{"nvidia.com/gpu", "", "NoSchedule", kv{"nvidia.com/gpu.present", "true"}},
	{"dedicated", "ingress", "NoSchedule", kv{"node-pool", "ingress"}},
	{"dedicated", "batch", "NoSchedule", kv{"node-pool", "batch"}},
	{"dedicated", "monitoring", "NoExecute", kv{"node-pool", "monitoring"}},
	{"cloud.google.com/gke-spot", "true", "NoSchedule", kv{"cloud.google.com/gke-spot", "true"}},
	{"kubernetes.azure.com/scalesetpriority", "spot", "NoSchedule", kv{"kubernetes.azure.com/scalesetpriority", "spot"}},
	{"workload", "highmem", "PreferNoSchedule", kv{"node.example.com/pool", "highmem"}},
}

var genericSelectors = []kv{
	{"kubernetes.io/os", "linux"},
	{"kubernetes.io/arch", "amd64"},
	{"node.kubernetes.io/instance-type", "m5.2xlarge"},
	{"topology.kubernetes.io/zone", "eu-west-1a"},
}

// toleration fields are "" when absent; seconds is tolerationSeconds, 0
// for none.
type toleration struct {
	key, operator, value, effect string
	seconds                      int
}

// expr is a node selector requirement; preferred terms carry a weight.
// field marks a matchFields requirement (on metadata.name) rather than a
// matchExpressions one.
type expr struct {
	key, operator string
	values        []string
	weight        int
	field         bool
}

type scheduling struct {
	nodeName     string
	tolerations  []toleration
	nodeSelector []kv
	required     [][]expr // nodeSelectorTerms, ORed
	preferred    []expr

	// Among the workload's own pods (the placement scenario): required
	// anti-affinity on antiAffinity, a topology spread constraint on
	// spread (whenUnsatisfiable spreadWhen), both selecting self.
	antiAffinity, spread, spreadWhen string
	self                             []kv
}

// scheduling decides a pod's tolerations and node constraints together, so
// that most tolerated pools are also selected, and the rest give dslint the
// mix of clean pods and findings a real repository has.
func (g *gen) scheduling(m meta) scheduling {
	var s scheduling
	switch r := g.r.IntN(100); {
	case m.kind == "DaemonSet":
		g.daemonSetTolerations(&s)
	case r < 40:
		g.dedicatedPool(&s)
	case r < 45:
		s.tolerations = append(s.tolerations, toleration{operator: "Exists"})
	}
	if g.chance(30) {
		for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
			s.tolerations = append(s.tolerations, toleration{key: key, operator: "Exists", effect: "NoExecute", seconds: 300})
		}
	}
	if g.chance(3) {
		s.tolerations = append(s.tolerations, g.invalidToleration())
	}
	g.genericConstraints(&s)
	return s
}

// dedicatedPool tolerates one pool's taint and usually pins the pod there,
// by nodeSelector or by required affinity; a fifth of the time it does not,
// which is what toleration-without-node-selector reports.
func (g *gen) dedicatedPool(s *scheduling) {
	t := dedicatedTaints[g.r.IntN(len(dedicatedTaints))]
	tol := toleration{key: t.key, operator: "Equal", value: t.value, effect: t.effect}
	if t.value == "" || g.chance(20) {
		tol.operator, tol.value = "Exists", ""
	}
	if g.chance(15) {
		tol.effect = "" // every effect
	}
	s.tolerations = append(s.tolerations, tol)
	switch r := g.r.IntN(100); {
	case r < 55:
		s.nodeSelector = append(s.nodeSelector, t.pool)
	case r < 80:
		term := []expr{{key: t.pool.k, operator: "In", values: []string{t.pool.v}}}
		s.required = append(s.required, term)
	}
}

// daemonSetTolerations: node agents tolerate the control plane, everything
// (a keyless Exists), or neither, which
// daemonset-missing-control-plane-toleration reports.
func (g *gen) daemonSetTolerations(s *scheduling) {
	switch r := g.r.IntN(100); {
	case r < 50:
		s.tolerations = append(s.tolerations, toleration{key: "node-role.kubernetes.io/control-plane", operator: "Exists", effect: "NoSchedule"})
		if g.chance(30) {
			s.tolerations = append(s.tolerations, toleration{key: "node-role.kubernetes.io/master", operator: "Exists", effect: "NoSchedule"})
		}
	case r < 75:
		s.tolerations = append(s.tolerations, toleration{operator: "Exists"})
	case r < 85:
		s.tolerations = append(s.tolerations, toleration{key: "CriticalAddonsOnly", operator: "Exists"})
	}
}

// invalidToleration is one the API server rejects: a lowercase operator,
// or Exists with a value.
func (g *gen) invalidToleration() toleration {
	if g.chance(50) {
		return toleration{key: "dedicated", operator: "exists", effect: "NoSchedule"}
	}
	return toleration{key: "nvidia.com/gpu", operator: "Exists", value: "true", effect: "NoSchedule"}
}

// genericConstraints adds the OS, architecture and zone constraints that
// say nothing about a pool, and preferred (soft) affinity.
func (g *gen) genericConstraints(s *scheduling) {
	if g.chance(50) {
		s.nodeSelector = append(s.nodeSelector, genericSelectors[0])
	}
	if g.chance(10) {
		s.nodeSelector = append(s.nodeSelector, g.pickKV(genericSelectors[1:]))
	}
	if g.chance(10) {
		arch := expr{key: "kubernetes.io/arch", operator: "In", values: []string{"amd64", "arm64"}}
		if len(s.required) == 0 {
			s.required = append(s.required, nil)
		}
		s.required[0] = append(s.required[0], arch)
	}
	if g.chance(30) {
		zones := []string{"eu-west-1a", "eu-west-1b"}
		s.preferred = append(s.preferred, expr{key: "topology.kubernetes.io/zone", operator: "In", values: zones, weight: 100})
	}
	if g.chance(10) {
		s.preferred = append(s.preferred, expr{key: "node-pool", operator: "NotIn", values: []string{"batch"}, weight: 20})
	}
}

func (g *gen) writeScheduling(w *yw, s scheduling) {
	if s.nodeName != "" {
		w.f("nodeName: %s", s.nodeName)
	}
	w.mapping("nodeSelector", s.nodeSelector)
	if len(s.required)+len(s.preferred) > 0 || s.antiAffinity != "" {
		w.f("affinity:")
		w.in(func() {
			if len(s.required)+len(s.preferred) > 0 {
				w.f("nodeAffinity:")
				w.in(func() { writeNodeAffinity(w, s) })
			}
			if s.antiAffinity != "" {
				w.f("podAntiAffinity:")
				w.in(func() {
					w.f("requiredDuringSchedulingIgnoredDuringExecution:")
					w.item("labelSelector:", func() {
						w.in(func() { w.mapping("matchLabels", s.self) })
						w.f("topologyKey: %s", s.antiAffinity)
					})
				})
			}
		})
	}
	if s.spread != "" {
		w.f("topologySpreadConstraints:")
		w.item("maxSkew: 1", func() {
			w.f("topologyKey: %s", s.spread)
			w.f("whenUnsatisfiable: %s", s.spreadWhen)
			w.f("labelSelector:")
			w.in(func() { w.mapping("matchLabels", s.self) })
		})
	}
	if len(s.tolerations) > 0 {
		w.f("tolerations:")
		for _, t := range s.tolerations {
			writeToleration(w, t)
		}
	}
}

func writeNodeAffinity(w *yw, s scheduling) {
	if len(s.required) > 0 {
		w.f("requiredDuringSchedulingIgnoredDuringExecution:")
		w.in(func() {
			w.f("nodeSelectorTerms:")
			for _, term := range s.required {
				writeTerm(w, term)
			}
		})
	}
	if len(s.preferred) > 0 {
		w.f("preferredDuringSchedulingIgnoredDuringExecution:")
		for _, p := range s.preferred {
			w.item(fmt.Sprintf("weight: %d", p.weight), func() {
				w.f("preference:")
				w.in(func() {
					w.f("matchExpressions:")
					writeExprs(w, []expr{p})
				})
			})
		}
	}
}

// writeTerm writes one required term: its matchExpressions, then its
// matchFields.
func writeTerm(w *yw, term []expr) {
	var labels, fields []expr
	for _, e := range term {
		if e.field {
			fields = append(fields, e)
		} else {
			labels = append(labels, e)
		}
	}
	if len(labels) == 0 {
		w.item("matchFields:", func() { writeExprs(w, fields) })
		return
	}
	w.item("matchExpressions:", func() {
		writeExprs(w, labels)
		if len(fields) > 0 {
			w.f("matchFields:")
			writeExprs(w, fields)
		}
	})
}

// writeExprs leaves values out for Exists and DoesNotExist, which take none.
func writeExprs(w *yw, exprs []expr) {
	for _, e := range exprs {
		w.item("key: "+e.key, func() {
			w.f("operator: %s", e.operator)
			if len(e.values) > 0 {
				w.f("values: [%s]", quoteAll(e.values))
			}
		})
	}
}

// quoteAll joins quoted values: unquoted, "true" would be a boolean.
func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// writeToleration writes the fields that are set, in kubectl's order; the
// value is quoted because values like "true" must stay strings.
func writeToleration(w *yw, t toleration) {
	var fields []string
	add := func(k, v string) {
		if v != "" {
			fields = append(fields, k+": "+v)
		}
	}
	add("key", t.key)
	add("operator", t.operator)
	if t.value != "" {
		add("value", fmt.Sprintf("%q", t.value))
	}
	add("effect", t.effect)
	if t.seconds > 0 {
		add("tolerationSeconds", fmt.Sprint(t.seconds))
	}
	w.item(fields[0], func() {
		for _, f := range fields[1:] {
			w.f("%s", f)
		}
	})
}
