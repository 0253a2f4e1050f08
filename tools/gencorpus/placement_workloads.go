package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// placementCase is one way a workload constrains its nodes; count is how
// many of 2,000 workloads use it (scaled for other -n). The cases marked
// wrong in their comment are mistakes dslint should report.
type placementCase struct {
	name  string
	count int
	build func(g *gen, c *cluster) (scheduling, string) // constraints, namespace
}

// freeCase takes whatever the other cases leave.
const freeCase = "free"

var placementCases = []placementCase{
	{freeCase, 0, (*gen).caseFree},
	{"generic", 110, (*gen).caseGeneric},                // os/arch/zone only
	{"pool-selector", 230, (*gen).casePoolSelector},     // nodeSelector node-pool: general-NN
	{"pool-in", 110, (*gen).casePoolIn},                 // required In over general pools
	{"pool-notin", 95, (*gen).casePoolNotIn},            // NotIn batch/spot, instance types
	{"label-exists", 55, (*gen).caseLabelExists},        // local SSD Exists
	{"gpu-absent", 55, (*gen).caseGPUAbsent},            // gpu-count DoesNotExist
	{"tenant", 190, (*gen).caseTenant},                  // dedicated=<team>: toleration and selection
	{"gpu-gt", 55, (*gen).caseGPUGt},                    // gpu-count Gt "3"
	{"gpu-lt", 40, (*gen).caseGPULt},                    // gpu-count Lt, or a Gt/Lt range
	{"gpu-product", 20, (*gen).caseGPUProduct},          // nodeSelector on the GPU product
	{"batch", 95, (*gen).caseBatch},                     // PreferNoSchedule pool
	{"spot", 95, (*gen).caseSpot},                       // NoExecute pool
	{"ingress", 40, (*gen).caseIngress},                 //
	{"infra", 40, (*gen).caseInfra},                     //
	{"multi-term", 55, (*gen).caseMultiTerm},            // two ORed terms
	{"zone", 40, (*gen).caseZone},                       // required zones, preferred zone
	{"tolerate-no-select", 75, (*gen).caseTolerateOnly}, // wrong: tolerates a pool, does not select it
	{"select-no-tolerate", 55, (*gen).caseSelectOnly},   // wrong: selects a tainted pool: no node fits
	{"wrong-pool", 20, (*gen).caseWrongPool},            // wrong: tolerates one tenant, selects another
	{"conflict", 20, (*gen).caseConflict},               // wrong: contradictory constraints
	{"wildcard", 20, (*gen).caseWildcard},               // tolerates everything, cordons included
	{"control-plane", 10, (*gen).caseControlPlane},
	{"node-name", 12, (*gen).caseNodeName},        // incl. a missing and a cordoned node
	{"match-fields", 10, (*gen).caseMatchFields},  // metadata.name, 1-3 terms
	{"hostname", 10, (*gen).caseHostname},         // kubernetes.io/hostname
	{"cordon-tolerant", 8, (*gen).caseCordonOK},   // tolerates node.kubernetes.io/unschedulable
	{"legacy-master", 5, (*gen).caseLegacyMaster}, // wrong: the removed master role: no node fits
	{"ds-wildcard", 30, (*gen).caseDSWildcard},    // DaemonSets from here on
	{"ds-control-plane", 25, (*gen).caseDSControlPlane},
	{"ds-plain", 15, (*gen).caseDSPlain},
	{"ds-gpu", 15, (*gen).caseDSGPU},
	{"ds-pool", 10, (*gen).caseDSPool},
	{"ds-not-control-plane", 5, (*gen).caseDSNotControlPlane},
}

// placementKinds is the kind mix of the workloads other than DaemonSets,
// in parts of 19 (the DaemonSet cases make up the other 5%).
var placementKinds = []kindInfo{
	{"Deployment", "apps/v1", 10},
	{"StatefulSet", "apps/v1", 3},
	{"Job", "batch/v1", 3},
	{"CronJob", "batch/v1", 3},
	{"DaemonSet", "apps/v1", 0},
}

// workloadFile is one file of the workloads directory.
type workloadFile struct {
	path string
	data []byte
}

// placementWorkloads draws n workloads, in a shuffled order of exact case
// and kind counts, and writes them into files of 10-60 objects.
func (g *gen) placementWorkloads(c *cluster, n int) ([]workloadFile, []placed) {
	plan := g.plan(n)
	var files []workloadFile
	var all []placed
	for start := 0; start < len(plan); {
		k := min(g.between(10, 60), len(plan)-start)
		var buf bytes.Buffer
		w := &yw{buf: &buf}
		var dir string
		for i, item := range plan[start : start+k] {
			if i > 0 {
				buf.WriteString("---\n")
			}
			line := bytes.Count(buf.Bytes(), []byte("\n")) + 1
			p := g.placementWorkload(w, c, item, start+i)
			p.line = line
			if i == 0 {
				dir = p.namespace
			}
			all = append(all, p)
		}
		path := filepath.Join("workloads", dir, fmt.Sprintf("%s-%03d.yaml", g.pick(fileStems), len(files)))
		for i := range all[start:] {
			all[start+i].file = path
		}
		files = append(files, workloadFile{path, buf.Bytes()})
		start += k
	}
	return files, all
}

// planItem is one workload to write: its case and kind.
type planItem struct {
	cs   *placementCase
	kind kindInfo
}

// plan lists n workloads with exact counts per case and kind, shuffled.
func (g *gen) plan(n int) []planItem {
	var items []planItem
	free := n
	var nonDS []*placementCase
	for i := range placementCases {
		cs := &placementCases[i]
		if cs.name == freeCase {
			continue
		}
		count := max(1, cs.count*n/2000)
		free -= count
		for range count {
			if strings.HasPrefix(cs.name, "ds-") {
				items = append(items, planItem{cs, placementKinds[len(placementKinds)-1]})
			} else {
				nonDS = append(nonDS, cs)
			}
		}
	}
	if free < 0 {
		panic("too few workloads for every placement case")
	}
	for range free {
		nonDS = append(nonDS, &placementCases[0])
	}
	kinds := make([]kindInfo, 0, len(nonDS))
	for _, k := range placementKinds[1:] {
		for range len(nonDS) * k.weight / 19 {
			kinds = append(kinds, k)
		}
	}
	for len(kinds) < len(nonDS) {
		kinds = append(kinds, placementKinds[0])
	}
	g.r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	for i, cs := range nonDS {
		items = append(items, planItem{cs, kinds[i]})
	}
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return items
}

// placementWorkload writes one workload with its case's constraints in the
// pod spec and the case in an annotation, and works out where it fits.
func (g *gen) placementWorkload(w *yw, c *cluster, item planItem, id int) placed {
	s, ns := item.cs.build(g, c)
	if ns == "" {
		ns = g.pick(namespaces)
	}
	m := meta{kind: item.kind.kind, app: g.pick(appNames), team: g.pick(teamDirs), namespace: ns,
		annotations: []kv{{"placement.dslint.dev/case", item.cs.name}}}
	m.name = fmt.Sprintf("%s-%s-%04d", item.cs.name, m.app, id)
	g.amongOwnPods(&s, m)
	g.placement, g.hostNetwork = &s, false
	g.writeWorkload(w, item.kind.apiVersion, m)
	g.placement = nil
	p := placed{apiVersion: item.kind.apiVersion, kind: m.kind, namespace: ns, name: m.name, caseName: item.cs.name}
	p.where(c, s, g.hostNetwork)
	return p
}

// amongOwnPods gives some workloads required anti-affinity (one per node,
// or per zone) and topology spread among their own pods, as high-availability
// charts do.
func (g *gen) amongOwnPods(s *scheduling, m meta) {
	s.self = selector(m)
	if g.chance(20) {
		s.antiAffinity = g.pick([]string{"kubernetes.io/hostname", "kubernetes.io/hostname", "topology.kubernetes.io/zone"})
	}
	if g.chance(20) {
		s.spread = g.pick([]string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"})
		s.spreadWhen = g.pick([]string{"DoNotSchedule", "ScheduleAnyway"})
	}
}

// Helpers for the cases.

func tolerate(t nodeTaint) toleration {
	return toleration{key: t.key, operator: "Equal", value: t.value, effect: t.effect}
}

// tolerateSomehow tolerates t in one of the ways people write it: Equal with
// or without the effect, Exists on the key with or without the effect.
func (g *gen) tolerateSomehow(t nodeTaint) toleration {
	tol := tolerate(t)
	switch r := g.r.IntN(100); {
	case r < 20:
		tol.effect = ""
	case r < 40:
		tol.operator, tol.value = "Exists", ""
	case r < 50:
		tol.operator, tol.value, tol.effect = "Exists", "", ""
	}
	return tol
}

func exprIn(key string, values ...string) expr { return expr{key: key, operator: "In", values: values} }

func poolIn(pools ...string) []expr { return []expr{exprIn(poolLabel, pools...)} }

// generalPools are the pools without taints.
func (c *cluster) generalPools() []string {
	var out []string
	for _, p := range c.pools {
		if strings.HasPrefix(p.name, "general-") {
			out = append(out, p.name)
		}
	}
	return out
}

func (c *cluster) pool(name string) *pool {
	for i := range c.pools {
		if c.pools[i].name == name {
			return &c.pools[i]
		}
	}
	panic("no pool " + name)
}

// someGeneral is n distinct general pools.
func (g *gen) someGeneral(c *cluster, n int) []string {
	all := c.generalPools()
	var out []string
	for _, i := range g.r.Perm(len(all))[:n] {
		out = append(out, all[i])
	}
	return out
}

// node is a node of the pool, healthy and schedulable unless cordoned asks
// for a cordoned one (of any pool, there being only about 50).
func (g *gen) node(c *cluster, poolName string, cordoned bool) *node {
	var cands []*node
	for _, nd := range c.nodes {
		if cordoned && nd.unschedulable {
			cands = append(cands, nd)
		} else if !cordoned && nd.pool.name == poolName && !nd.unschedulable && nd.trouble == nil {
			cands = append(cands, nd)
		}
	}
	if len(cands) == 0 { // a tiny scaled-down cluster
		cands = c.byPool[poolName]
	}
	return cands[g.r.IntN(len(cands))]
}

// taintedPools are the pools whose taint keeps pods out.
var taintedPools = []string{"tenant-payments", "tenant-search", "tenant-data", "gpu-l4", "gpu-t4", "spot-amd64", "ingress", "infra", "control-plane"}

func defaultTolerations() []toleration {
	return []toleration{
		{key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", seconds: 300},
		{key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", seconds: 300},
	}
}

// The cases: each returns the pod's constraints and its namespace ("" for
// any).

func (g *gen) caseFree(c *cluster) (s scheduling, ns string) {
	if g.chance(20) {
		s.tolerations = defaultTolerations()
	}
	if g.chance(30) {
		s.preferred = []expr{{key: "topology.kubernetes.io/zone", operator: "In", values: []string{g.pick(zones)}, weight: 50}}
	}
	return s, ""
}

func (g *gen) caseGeneric(c *cluster) (s scheduling, ns string) {
	s.nodeSelector = []kv{{"kubernetes.io/os", "linux"}}
	switch r := g.r.IntN(100); {
	case r < 50:
		s.nodeSelector = append(s.nodeSelector, kv{"kubernetes.io/arch", g.pick([]string{"amd64", "arm64"})})
	case r < 75:
		s.nodeSelector = append(s.nodeSelector, kv{"topology.kubernetes.io/zone", g.pick(zones)})
	}
	return s, ""
}

func (g *gen) casePoolSelector(c *cluster) (s scheduling, ns string) {
	if g.chance(30) {
		s.nodeSelector = []kv{{"kubernetes.io/os", "linux"}}
	}
	s.nodeSelector = append(s.nodeSelector, kv{poolLabel, g.someGeneral(c, 1)[0]})
	return s, ""
}

func (g *gen) casePoolIn(c *cluster) (s scheduling, ns string) {
	term := poolIn(g.someGeneral(c, g.between(2, 4))...)
	if g.chance(30) {
		term = append(term, exprIn("kubernetes.io/arch", "amd64"))
	}
	s.required = [][]expr{term}
	return s, ""
}

func (g *gen) casePoolNotIn(c *cluster) (s scheduling, ns string) {
	if g.chance(50) {
		s.required = [][]expr{{{key: poolLabel, operator: "NotIn", values: []string{"batch", "spot-amd64", "spot-arm64"}}}}
	} else {
		s.required = [][]expr{{
			{key: capacityLabel, operator: "NotIn", values: []string{"spot"}},
			{key: "node.kubernetes.io/instance-type", operator: "NotIn", values: []string{"t3.large", "m6i.large"}},
		}}
	}
	return s, ""
}

func (g *gen) caseLabelExists(c *cluster) (s scheduling, ns string) {
	term := []expr{{key: localSSDLabel, operator: "Exists"}}
	if g.chance(40) {
		term = append(term, exprIn("kubernetes.io/arch", "amd64"))
	}
	s.required = [][]expr{term}
	return s, ""
}

func (g *gen) caseGPUAbsent(c *cluster) (s scheduling, ns string) {
	s.required = [][]expr{{{key: gpuCountLabel, operator: "DoesNotExist"}}}
	if g.chance(50) {
		s.required[0] = append(s.required[0], expr{key: poolLabel, operator: "NotIn", values: []string{"batch"}})
	}
	return s, ""
}

func (g *gen) caseTenant(c *cluster) (s scheduling, ns string) {
	team := g.pick(tenantTeams)
	p := c.pool("tenant-" + team)
	s.tolerations = []toleration{g.tolerateSomehow(p.taints[0])}
	if g.chance(50) {
		s.nodeSelector = []kv{{"dedicated", team}}
	} else {
		s.required = [][]expr{poolIn(p.name)}
	}
	return s, team
}

func (g *gen) gpuToleration() toleration {
	if g.chance(50) {
		return toleration{key: gpuTaint.key, operator: "Exists", effect: "NoSchedule"}
	}
	return toleration{key: gpuTaint.key, operator: "Exists"}
}

func (g *gen) caseGPUGt(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{g.gpuToleration()}
	s.required = [][]expr{{{key: gpuCountLabel, operator: "Gt", values: []string{"3"}}}}
	return s, "ml"
}

func (g *gen) caseGPULt(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{tolerate(gpuTaint)}
	if g.chance(50) {
		s.required = [][]expr{{{key: gpuCountLabel, operator: "Lt", values: []string{"2"}}}}
	} else { // exactly the 4-GPU nodes
		s.required = [][]expr{{
			{key: gpuCountLabel, operator: "Gt", values: []string{"1"}},
			{key: gpuCountLabel, operator: "Lt", values: []string{"8"}},
		}}
	}
	return s, "ml"
}

func (g *gen) caseGPUProduct(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{g.gpuToleration()}
	s.nodeSelector = []kv{{"nvidia.com/gpu.product", g.pick([]string{"NVIDIA-A100-SXM4-40GB", "NVIDIA-H100-80GB-HBM3"})}}
	return s, "ml"
}

func (g *gen) caseBatch(c *cluster) (s scheduling, ns string) {
	if g.chance(60) {
		s.tolerations = []toleration{g.tolerateSomehow(c.pool("batch").taints[0])}
	}
	s.nodeSelector = []kv{{poolLabel, "batch"}}
	return s, "batch"
}

func (g *gen) caseSpot(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{g.tolerateSomehow(spotTaint)}
	switch r := g.r.IntN(100); {
	case r < 50:
		s.nodeSelector = []kv{{capacityLabel, "spot"}}
	case r < 75:
		s.nodeSelector = []kv{{poolLabel, "spot-arm64"}, {"kubernetes.io/arch", "arm64"}}
	default:
		s.required = [][]expr{{exprIn(capacityLabel, "spot")}}
	}
	return s, ""
}

func (g *gen) caseIngress(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{g.tolerateSomehow(c.pool("ingress").taints[0])}
	if g.chance(50) {
		s.nodeSelector = []kv{{poolLabel, "ingress"}}
	} else {
		s.required = [][]expr{{{key: "node-role.kubernetes.io/ingress", operator: "Exists"}}}
	}
	return s, "ingress-nginx"
}

func (g *gen) caseInfra(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{key: "node-role.kubernetes.io/infra", operator: "Exists", effect: "NoSchedule"}}
	s.nodeSelector = []kv{{"node-role.kubernetes.io/infra", ""}}
	return s, "monitoring"
}

func (g *gen) caseMultiTerm(c *cluster) (s scheduling, ns string) {
	s.required = [][]expr{
		poolIn(g.someGeneral(c, 1)...),
		{exprIn("topology.kubernetes.io/zone", zones[2]), exprIn("kubernetes.io/arch", "arm64")},
	}
	return s, ""
}

func (g *gen) caseZone(c *cluster) (s scheduling, ns string) {
	s.required = [][]expr{{exprIn("topology.kubernetes.io/zone", zones[0], zones[1])}}
	s.preferred = []expr{{key: "topology.kubernetes.io/zone", operator: "In", values: zones[:1], weight: 80}}
	return s, ""
}

func (g *gen) caseTolerateOnly(c *cluster) (s scheduling, ns string) {
	p := c.pool(g.pick([]string{"tenant-payments", "tenant-search", "gpu-t4", "spot-amd64", "ingress"}))
	s.tolerations = []toleration{g.tolerateSomehow(p.taints[0])}
	return s, ""
}

func (g *gen) caseSelectOnly(c *cluster) (s scheduling, ns string) {
	p := c.pool(g.pick(taintedPools))
	if g.chance(50) {
		s.nodeSelector = []kv{{poolLabel, p.name}}
	} else {
		s.required = [][]expr{poolIn(p.name)}
	}
	return s, ""
}

func (g *gen) caseWrongPool(c *cluster) (s scheduling, ns string) {
	i := g.r.IntN(len(tenantTeams))
	j := (i + 1 + g.r.IntN(len(tenantTeams)-1)) % len(tenantTeams)
	s.tolerations = []toleration{tolerate(c.pool("tenant-" + tenantTeams[i]).taints[0])}
	s.nodeSelector = []kv{{"dedicated", tenantTeams[j]}}
	return s, tenantTeams[i]
}

func (g *gen) caseConflict(c *cluster) (s scheduling, ns string) {
	pools := g.someGeneral(c, 2)
	if g.chance(50) {
		s.nodeSelector = []kv{{poolLabel, pools[0]}}
		s.required = [][]expr{poolIn(pools[1])}
	} else {
		s.required = [][]expr{{exprIn(poolLabel, pools...), {key: poolLabel, operator: "NotIn", values: pools}}}
	}
	return s, ""
}

func (g *gen) caseWildcard(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{operator: "Exists"}}
	return s, ""
}

func (g *gen) caseControlPlane(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{key: controlPlane, operator: "Exists", effect: "NoSchedule"}}
	s.nodeSelector = []kv{{controlPlane, ""}}
	return s, "kube-system"
}

func (g *gen) caseNodeName(c *cluster) (s scheduling, ns string) {
	switch c.call("node-name") {
	case 0: // a node that is gone
		s.nodeName = "ip-10-250-0-1." + region + ".compute.internal"
	case 1:
		s.nodeName = g.node(c, "", true).name
	default:
		s.nodeName = g.node(c, g.someGeneral(c, 1)[0], false).name
	}
	return s, ""
}

func (g *gen) caseMatchFields(c *cluster) (s scheduling, ns string) {
	if c.call("match-fields") == 0 { // a pool but one node
		p := g.someGeneral(c, 1)[0]
		s.required = [][]expr{{exprIn(poolLabel, p),
			{key: "metadata.name", operator: "NotIn", values: []string{g.node(c, p, false).name}, field: true}}}
		return s, ""
	}
	for range g.between(1, 3) {
		p := g.someGeneral(c, 1)[0]
		term := []expr{{key: "metadata.name", operator: "In", values: []string{g.node(c, p, false).name}, field: true}}
		if g.chance(30) {
			term = append([]expr{exprIn(poolLabel, p)}, term...)
		}
		s.required = append(s.required, term)
	}
	return s, ""
}

func (g *gen) caseHostname(c *cluster) (s scheduling, ns string) {
	p := g.someGeneral(c, 1)[0]
	if c.call("hostname") == 0 { // pinned to a cordoned node: fits none
		s.nodeSelector = []kv{{hostnameLabel, g.node(c, "", true).name}}
		return s, ""
	}
	if g.chance(50) {
		s.nodeSelector = []kv{{hostnameLabel, g.node(c, p, false).name}}
		return s, ""
	}
	var names []string
	for range 3 {
		names = append(names, g.node(c, p, false).name)
	}
	s.required = [][]expr{{exprIn(hostnameLabel, names...)}}
	return s, ""
}

func (g *gen) caseCordonOK(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{key: unschedTaint, operator: "Exists", effect: "NoSchedule"}}
	s.nodeSelector = []kv{{poolLabel, g.someGeneral(c, 1)[0]}}
	return s, ""
}

func (g *gen) caseLegacyMaster(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{key: "node-role.kubernetes.io/master", operator: "Exists", effect: "NoSchedule"}}
	s.nodeSelector = []kv{{"node-role.kubernetes.io/master", ""}}
	return s, "kube-system"
}

func (g *gen) caseDSWildcard(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{operator: "Exists"}}
	return s, g.pick([]string{"kube-system", "monitoring"})
}

func (g *gen) caseDSControlPlane(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{key: controlPlane, operator: "Exists", effect: "NoSchedule"}}
	if g.chance(30) {
		s.tolerations = append(s.tolerations, toleration{key: "node-role.kubernetes.io/master", operator: "Exists", effect: "NoSchedule"})
	}
	return s, g.pick([]string{"kube-system", "monitoring"})
}

func (g *gen) caseDSPlain(c *cluster) (s scheduling, ns string) {
	return s, g.pick([]string{"kube-system", "monitoring", "platform"})
}

func (g *gen) caseDSGPU(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{key: gpuTaint.key, operator: "Exists", effect: "NoSchedule"}}
	if g.chance(50) {
		s.tolerations = append([]toleration{{key: "CriticalAddonsOnly", operator: "Exists"}}, s.tolerations...)
		s.required = [][]expr{{{key: gpuCountLabel, operator: "Exists"}}}
	} else {
		s.nodeSelector = []kv{{"nvidia.com/gpu.present", "true"}}
	}
	return s, "kube-system"
}

func (g *gen) caseDSPool(c *cluster) (s scheduling, ns string) {
	p := c.pool(g.pick([]string{"tenant-data", "tenant-ml", "spot-amd64", "ingress", "batch"}))
	s.nodeSelector = []kv{{poolLabel, p.name}}
	s.tolerations = []toleration{g.tolerateSomehow(p.taints[0])}
	return s, "platform"
}

func (g *gen) caseDSNotControlPlane(c *cluster) (s scheduling, ns string) {
	s.tolerations = []toleration{{operator: "Exists"}}
	s.required = [][]expr{{{key: controlPlane, operator: "DoesNotExist"}}}
	return s, "kube-system"
}
