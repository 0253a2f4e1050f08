package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
)

// nodeTaint is a taint on a node; value may be empty.
type nodeTaint struct{ key, value, effect string }

func (t nodeTaint) String() string {
	if t.value == "" {
		return t.key + ":" + t.effect
	}
	return t.key + "=" + t.value + ":" + t.effect
}

// pool is a group of identical nodes. labels are those beyond the kubelet's
// own and node-pool; zones nil means all three.
type pool struct {
	name, instanceType string
	size               int
	labels             []kv
	taints             []nodeTaint
	zones              []string
	spot               bool
}

// instance is what a node's status reports for an instance type.
type instance struct {
	arch               string
	cpu, memGiB, pods  int
	gpus               int
	gpuProduct, gpuNum string // gpu-count label, zero-padded like many clusters' labels
}

var instances = map[string]instance{
	"t3.large":       {"amd64", 2, 8, 35, 0, "", ""},
	"m6i.large":      {"amd64", 2, 8, 29, 0, "", ""},
	"m6i.xlarge":     {"amd64", 4, 16, 58, 0, "", ""},
	"m6i.2xlarge":    {"amd64", 8, 32, 58, 0, "", ""},
	"m6i.4xlarge":    {"amd64", 16, 64, 234, 0, "", ""},
	"m6i.8xlarge":    {"amd64", 32, 128, 234, 0, "", ""},
	"m6a.2xlarge":    {"amd64", 8, 32, 58, 0, "", ""},
	"m6a.4xlarge":    {"amd64", 16, 64, 234, 0, "", ""},
	"m6id.2xlarge":   {"amd64", 8, 32, 58, 0, "", ""},
	"m6id.4xlarge":   {"amd64", 16, 64, 234, 0, "", ""},
	"m7i.2xlarge":    {"amd64", 8, 32, 58, 0, "", ""},
	"m7g.2xlarge":    {"arm64", 8, 32, 58, 0, "", ""},
	"m7g.4xlarge":    {"arm64", 16, 64, 234, 0, "", ""},
	"c6i.2xlarge":    {"amd64", 8, 16, 58, 0, "", ""},
	"c6i.4xlarge":    {"amd64", 16, 32, 234, 0, "", ""},
	"c6i.8xlarge":    {"amd64", 32, 64, 234, 0, "", ""},
	"c6a.4xlarge":    {"amd64", 16, 32, 234, 0, "", ""},
	"c6in.2xlarge":   {"amd64", 8, 16, 58, 0, "", ""},
	"c7g.4xlarge":    {"arm64", 16, 32, 234, 0, "", ""},
	"c7i.4xlarge":    {"amd64", 16, 32, 234, 0, "", ""},
	"r6i.2xlarge":    {"amd64", 8, 64, 58, 0, "", ""},
	"r6i.4xlarge":    {"amd64", 16, 128, 234, 0, "", ""},
	"r6id.2xlarge":   {"amd64", 8, 64, 58, 0, "", ""},
	"r6id.4xlarge":   {"amd64", 16, 128, 234, 0, "", ""},
	"r7g.2xlarge":    {"arm64", 8, 64, 58, 0, "", ""},
	"x2idn.16xlarge": {"amd64", 64, 1024, 737, 0, "", ""},
	"g6.xlarge":      {"amd64", 4, 16, 58, 1, "NVIDIA-L4", "01"},
	"g4dn.12xlarge":  {"amd64", 48, 192, 234, 4, "Tesla-T4", "04"},
	"p4d.24xlarge":   {"amd64", 96, 1152, 737, 8, "NVIDIA-A100-SXM4-40GB", "08"},
	"p5.48xlarge":    {"amd64", 192, 2048, 100, 8, "NVIDIA-H100-80GB-HBM3", "08"},
}

const (
	region        = "eu-west-1"
	poolLabel     = "node-pool"
	gpuCountLabel = "gpu-count"
	localSSDLabel = "node.example.com/local-ssd"
	capacityLabel = "karpenter.sh/capacity-type"
	hostnameLabel = "kubernetes.io/hostname"
	controlPlane  = "node-role.kubernetes.io/control-plane"
	unschedTaint  = "node.kubernetes.io/unschedulable"
)

var zones = []string{"eu-west-1a", "eu-west-1b", "eu-west-1c"}

var (
	gpuTaint      = nodeTaint{"nvidia.com/gpu", "present", "NoSchedule"}
	spotTaint     = nodeTaint{"spot", "true", "NoExecute"}
	localSSD      = []kv{{localSSDLabel, "true"}}
	tenantTeams   = []string{"payments", "search", "identity", "data", "ml", "checkout"}
	tenantSizes   = []int{120, 150, 40, 200, 60, 80}
	tenantTypes   = []string{"m6i.4xlarge", "r6i.2xlarge", "m6i.2xlarge", "r6id.4xlarge", "c6i.8xlarge", "m7g.4xlarge"}
	generalSizes  = []int{400, 350, 300, 250, 300, 200, 180, 160, 150, 140, 120, 110, 100, 90, 80, 70, 60, 50, 40, 30, 20, 50, 48, 3}
	generalTypes  = []string{"m6i.2xlarge", "m6a.2xlarge", "m7g.2xlarge", "m6i.4xlarge", "c6i.4xlarge", "r6i.2xlarge", "m6id.2xlarge", "m7g.4xlarge", "c7g.4xlarge", "m6i.xlarge", "r6id.2xlarge", "m6a.4xlarge", "c6a.4xlarge", "r7g.2xlarge", "m6i.8xlarge", "m6id.4xlarge", "c6i.2xlarge", "m6i.large", "r6i.4xlarge", "x2idn.16xlarge", "m6i.2xlarge", "c7i.4xlarge", "m7i.2xlarge", "t3.large"}
	clusterPools  = buildPools()
	defaultNodes  = sumSizes(clusterPools)
	baseTime      = time.Date(2024, 9, 2, 7, 0, 0, 0, time.UTC)
	heartbeatTime = time.Date(2024, 11, 21, 14, 0, 0, 0, time.UTC)
)

// buildPools is the cluster of the scenario: 40 pools, 5,000 nodes.
func buildPools() []pool {
	gpu := func(name, typ string, size int, zs []string) pool {
		it := instances[typ]
		return pool{name: name, instanceType: typ, size: size, zones: zs, taints: []nodeTaint{gpuTaint},
			labels: []kv{{"nvidia.com/gpu.present", "true"}, {"nvidia.com/gpu.product", it.gpuProduct}, {gpuCountLabel, it.gpuNum}}}
	}
	pools := []pool{
		{name: "control-plane", instanceType: "m6i.xlarge", size: 3,
			labels: []kv{{controlPlane, ""}}, taints: []nodeTaint{{controlPlane, "", "NoSchedule"}}},
		gpu("gpu-l4", "g6.xlarge", 64, nil),
		gpu("gpu-t4", "g4dn.12xlarge", 48, nil),
		gpu("gpu-a100", "p4d.24xlarge", 24, zones[:2]),
		gpu("gpu-h100", "p5.48xlarge", 12, zones[:1]),
		{name: "ingress", instanceType: "c6in.2xlarge", size: 18,
			labels: []kv{{"node-role.kubernetes.io/ingress", ""}}, taints: []nodeTaint{{"dedicated", "ingress", "NoSchedule"}}},
		{name: "infra", instanceType: "m6i.4xlarge", size: 30,
			labels: []kv{{"node-role.kubernetes.io/infra", ""}}, taints: []nodeTaint{{"node-role.kubernetes.io/infra", "", "NoSchedule"}}},
		{name: "batch", instanceType: "c6i.8xlarge", size: 400,
			labels: []kv{{"workload", "batch"}}, taints: []nodeTaint{{"workload", "batch", "PreferNoSchedule"}}},
		{name: "spot-amd64", instanceType: "m6i.2xlarge", size: 300, spot: true, taints: []nodeTaint{spotTaint}},
		{name: "spot-arm64", instanceType: "m7g.2xlarge", size: 150, spot: true, taints: []nodeTaint{spotTaint}},
	}
	for i, team := range tenantTeams {
		p := pool{name: "tenant-" + team, instanceType: tenantTypes[i], size: tenantSizes[i],
			labels: []kv{{"dedicated", team}}, taints: []nodeTaint{{"dedicated", team, "NoSchedule"}}}
		if strings.HasPrefix(p.instanceType, "r6id") {
			p.labels = append(p.labels, localSSD...)
		}
		pools = append(pools, p)
	}
	for i, size := range generalSizes {
		p := pool{name: fmt.Sprintf("general-%02d", i+1), instanceType: generalTypes[i], size: size}
		if strings.Contains(p.instanceType, "d.") || strings.Contains(p.instanceType, "dn.") {
			p.labels = localSSD
		}
		if i == 20 {
			p.zones = zones[2:]
		}
		pools = append(pools, p)
	}
	return pools
}

func sumSizes(pools []pool) int {
	n := 0
	for _, p := range pools {
		n += p.size
	}
	return n
}

// condition is a node's trouble, if any: the condition the kubelet reports
// and the taints the node lifecycle controller puts on for it.
type condition struct {
	name, condType, status, reason, message string
	taints                                  []nodeTaint
}

// troubles are the unhealthy states a few nodes are in, with how many in
// 1,000 nodes; they exercise the DaemonSet controller's own tolerations.
var troubles = []struct {
	condition
	perMille int
}{
	{condition{"not-ready", "Ready", "False", "KubeletNotReady", "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized",
		[]nodeTaint{{"node.kubernetes.io/not-ready", "", "NoSchedule"}, {"node.kubernetes.io/not-ready", "", "NoExecute"}}}, 2},
	{condition{"unreachable", "Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.",
		[]nodeTaint{{"node.kubernetes.io/unreachable", "", "NoSchedule"}, {"node.kubernetes.io/unreachable", "", "NoExecute"}}}, 1},
	{condition{"memory-pressure", "MemoryPressure", "True", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available",
		[]nodeTaint{{"node.kubernetes.io/memory-pressure", "", "NoSchedule"}}}, 2},
	{condition{"disk-pressure", "DiskPressure", "True", "KubeletHasDiskPressure", "kubelet has disk pressure",
		[]nodeTaint{{"node.kubernetes.io/disk-pressure", "", "NoSchedule"}}}, 1},
	{condition{"pid-pressure", "PIDPressure", "True", "KubeletHasInsufficientPID", "kubelet has insufficient PID available",
		[]nodeTaint{{"node.kubernetes.io/pid-pressure", "", "NoSchedule"}}}, 1},
	{condition{"network-unavailable", "NetworkUnavailable", "True", "NoRouteCreated", "Node created without a route",
		[]nodeTaint{{"node.kubernetes.io/network-unavailable", "", "NoSchedule"}}}, 1},
}

// cordonPerMille is how many nodes in 1,000 are cordoned (spec.unschedulable).
const cordonPerMille = 10

// node is one Node of the inventory.
type node struct {
	name, ip, zone string
	pool           *pool
	labels         []kv // sorted by key, as kubectl prints them
	labelMap       map[string]string
	taints         []nodeTaint
	unschedulable  bool
	trouble        *condition
	kubelet        string
	created        time.Time
}

// cluster is the inventory: pools and their nodes, sorted by name as the
// API server lists them (so pools interleave).
type cluster struct {
	pools  []pool
	nodes  []*node
	byPool map[string][]*node
	calls  map[string]int // per case, for the variants every run must have
	api    []*v1.Node     // the nodes as API objects (apiNodes)
}

// call counts the calls of a case: 0 the first time.
func (c *cluster) call(caseName string) int {
	n := c.calls[caseName]
	c.calls[caseName]++
	return n
}

func (c *cluster) cordoned() int {
	n := 0
	for _, nd := range c.nodes {
		if nd.unschedulable {
			n++
		}
	}
	return n
}

// cluster draws every node: name, zone, labels, taints, then marks a few
// (outside the control plane) cordoned or unhealthy.
func (g *gen) cluster(pools []pool) *cluster {
	c := &cluster{pools: pools, byPool: map[string][]*node{}, calls: map[string]int{}}
	used := map[string]bool{}
	for i := range c.pools {
		p := &c.pools[i]
		kubelet := "v1.31.2-eks-7f9249a"
		if g.chance(15) { // the pools the upgrade has not reached yet
			kubelet = "v1.30.6-eks-7f9249a"
		}
		zs := p.zones
		if zs == nil {
			zs = zones
		}
		for j := range p.size {
			nd := &node{pool: p, zone: zs[j%len(zs)], kubelet: kubelet,
				created: baseTime.Add(time.Duration(g.r.IntN(80*24*3600)) * time.Second)}
			nd.ip = g.nodeIP(slices.Index(zones, nd.zone), used)
			nd.name = "ip-" + strings.ReplaceAll(nd.ip, ".", "-") + "." + region + ".compute.internal"
			nd.taints = append(nd.taints, p.taints...)
			c.nodes = append(c.nodes, nd)
		}
	}
	g.markTroubles(c.nodes)
	for _, nd := range c.nodes {
		nd.labels = nodeLabels(nd)
		nd.labelMap = map[string]string{}
		for _, l := range nd.labels {
			nd.labelMap[l.k] = l.v
		}
	}
	slices.SortFunc(c.nodes, func(a, b *node) int { return strings.Compare(a.name, b.name) })
	for _, nd := range c.nodes {
		c.byPool[nd.pool.name] = append(c.byPool[nd.pool.name], nd)
	}
	return c
}

// nodeIP is an unused address in the zone's /11 (10.0/11, 10.32/11, 10.64/11).
func (g *gen) nodeIP(zone int, used map[string]bool) string {
	for {
		ip := fmt.Sprintf("10.%d.%d.%d", 32*zone+g.r.IntN(32), g.r.IntN(256), 4+g.r.IntN(250))
		if !used[ip] {
			used[ip] = true
			return ip
		}
	}
}

// markTroubles cordons about 1% of the workers and gives a few others a
// condition, each node at most one.
func (g *gen) markTroubles(nodes []*node) {
	var workers []*node
	for _, nd := range nodes {
		if nd.pool.name != "control-plane" {
			workers = append(workers, nd)
		}
	}
	perm := g.r.Perm(len(workers))
	next := 0
	take := func(perMille int) []*node {
		k := min(max(1, (len(workers)*perMille+500)/1000), len(workers)-next)
		out := make([]*node, k)
		for i := range out {
			out[i] = workers[perm[next+i]]
		}
		next += k
		return out
	}
	for _, nd := range take(cordonPerMille) {
		nd.unschedulable = true
		nd.taints = append(nd.taints, nodeTaint{unschedTaint, "", "NoSchedule"})
	}
	for i := range troubles {
		for _, nd := range take(troubles[i].perMille) {
			nd.trouble = &troubles[i].condition
			nd.taints = append(nd.taints, troubles[i].taints...)
		}
	}
}

// nodeLabels are the kubelet's well-known labels, the pool label and the
// pool's own labels, sorted by key.
func nodeLabels(nd *node) []kv {
	it := instances[nd.pool.instanceType]
	capacity := "on-demand"
	if nd.pool.spot {
		capacity = "spot"
	}
	labels := []kv{
		{"beta.kubernetes.io/arch", it.arch},
		{"beta.kubernetes.io/instance-type", nd.pool.instanceType},
		{"beta.kubernetes.io/os", "linux"},
		{"failure-domain.beta.kubernetes.io/region", region},
		{"failure-domain.beta.kubernetes.io/zone", nd.zone},
		{capacityLabel, capacity},
		{"kubernetes.io/arch", it.arch},
		{hostnameLabel, nd.name},
		{"kubernetes.io/os", "linux"},
		{"node.kubernetes.io/instance-type", nd.pool.instanceType},
		{poolLabel, nd.pool.name},
		{"topology.ebs.csi.aws.com/zone", nd.zone},
		{"topology.kubernetes.io/region", region},
		{"topology.kubernetes.io/zone", nd.zone},
	}
	labels = append(labels, nd.pool.labels...)
	slices.SortStableFunc(labels, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	return labels
}

// writeNodeList writes the cluster as `kubectl get nodes -o yaml` does:
// keys sorted, sequences not indented under their key, strings quoted only
// where YAML would read them as something else.
func (g *gen) writeNodeList(buf *bytes.Buffer, c *cluster) {
	w := &yw{buf: buf}
	w.f("apiVersion: v1")
	w.f("items:")
	for _, nd := range c.nodes {
		w.item("apiVersion: v1", func() {
			w.f("kind: Node")
			g.nodeMeta(w, nd)
			g.nodeSpec(w, nd)
			g.nodeStatus(w, nd)
		})
	}
	w.f("kind: List")
	w.f("metadata:")
	w.in(func() { w.f(`resourceVersion: ""`) })
}

func (g *gen) nodeMeta(w *yw, nd *node) {
	w.f("metadata:")
	w.in(func() {
		w.f("annotations:")
		w.in(func() {
			w.f("alpha.kubernetes.io/provided-node-ip: %s", nd.ip)
			w.f("csi.volume.kubernetes.io/nodeid: '{\"ebs.csi.aws.com\":\"i-%s\"}'", g.hex(17))
			w.f(`node.alpha.kubernetes.io/ttl: "0"`)
			w.f(`volumes.kubernetes.io/controller-managed-attach-detach: "true"`)
		})
		w.f("creationTimestamp: %q", stamp(nd.created))
		w.f("labels:")
		w.in(func() {
			for _, l := range nd.labels {
				w.f("%s: %s", l.k, scalar(l.v))
			}
		})
		w.f("name: %s", nd.name)
		w.f("resourceVersion: %q", fmt.Sprint(100000000+g.r.IntN(900000000)))
		w.f("uid: %s", g.uuid())
	})
}

func (g *gen) nodeSpec(w *yw, nd *node) {
	w.f("spec:")
	w.in(func() {
		w.f("providerID: aws:///%s/i-%s", nd.zone, g.hex(17))
		if len(nd.taints) > 0 {
			w.f("taints:")
			for _, t := range nd.taints {
				w.item("effect: "+t.effect, func() {
					w.f("key: %s", t.key)
					if t.effect == "NoExecute" || t.key == unschedTaint {
						w.f("timeAdded: %q", stamp(heartbeatTime.Add(-time.Duration(g.r.IntN(86400))*time.Second)))
					}
					if t.value != "" {
						w.f("value: %s", scalar(t.value))
					}
				})
			}
		}
		if nd.unschedulable {
			w.f("unschedulable: true")
		}
	})
}

// nodeStatus is a modest status: addresses, capacity, conditions and
// nodeInfo, without the images list that dominates real output.
func (g *gen) nodeStatus(w *yw, nd *node) {
	it := instances[nd.pool.instanceType]
	w.f("status:")
	w.in(func() {
		w.f("addresses:")
		w.item("address: "+nd.ip, func() { w.f("type: InternalIP") })
		w.item("address: "+nd.name, func() { w.f("type: InternalDNS") })
		w.item("address: "+nd.name, func() { w.f("type: Hostname") })
		memKi := it.memGiB * 1024 * 1024 * 97 / 100
		w.f("allocatable:")
		w.in(func() {
			writeResources(w, it, fmt.Sprintf("%dm", it.cpu*1000-70-10*it.cpu), "95491281146", memKi-(255+11*it.pods)*1024)
		})
		w.f("capacity:")
		w.in(func() { writeResources(w, it, strconv.Quote(fmt.Sprint(it.cpu)), "104845292Ki", memKi) })
		g.conditions(w, nd)
		w.f("daemonEndpoints:")
		w.in(func() {
			w.f("kubeletEndpoint:")
			w.in(func() { w.f("Port: 10250") })
		})
		g.nodeInfo(w, nd, it)
	})
}

func writeResources(w *yw, it instance, cpu, storage string, memKi int) {
	w.f("cpu: %s", cpu)
	w.f("ephemeral-storage: %s", scalar(storage))
	w.f(`hugepages-1Gi: "0"`)
	w.f(`hugepages-2Mi: "0"`)
	w.f("memory: %dKi", memKi)
	if it.gpus > 0 {
		w.f("nvidia.com/gpu: %q", fmt.Sprint(it.gpus))
	}
	w.f("pods: %q", fmt.Sprint(it.pods))
}

// healthy are the conditions of a node with no trouble, in kubelet order.
var healthy = []condition{
	{"", "MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", nil},
	{"", "DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", nil},
	{"", "PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", nil},
	{"", "Ready", "True", "KubeletReady", "kubelet is posting ready status", nil},
}

func (g *gen) conditions(w *yw, nd *node) {
	conds := slices.Clone(healthy)
	if t := nd.trouble; t != nil {
		i := slices.IndexFunc(conds, func(c condition) bool { return c.condType == t.condType })
		if i < 0 {
			conds = append([]condition{*t}, conds...)
		} else {
			conds[i] = *t
		}
		if t.status == "Unknown" { // the kubelet went silent: every condition is unknown
			for i := range conds {
				conds[i].status, conds[i].reason, conds[i].message = "Unknown", t.reason, t.message
			}
		}
	}
	beat := heartbeatTime.Add(-time.Duration(g.r.IntN(60)) * time.Second)
	w.f("conditions:")
	for _, c := range conds {
		w.item(fmt.Sprintf("lastHeartbeatTime: %q", stamp(beat)), func() {
			w.f("lastTransitionTime: %q", stamp(nd.created.Add(90*time.Second)))
			w.f("message: %s", scalar(c.message))
			w.f("reason: %s", c.reason)
			w.f("status: %q", c.status)
			w.f("type: %s", c.condType)
		})
	}
}

func (g *gen) nodeInfo(w *yw, nd *node, it instance) {
	kernelArch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[it.arch]
	w.f("nodeInfo:")
	w.in(func() {
		w.f("architecture: %s", it.arch)
		w.f("bootID: %s", g.uuid())
		w.f("containerRuntimeVersion: containerd://1.7.22")
		w.f("kernelVersion: 6.1.112-124.190.amzn2023.%s", kernelArch)
		w.f("kubeProxyVersion: %s", nd.kubelet)
		w.f("kubeletVersion: %s", nd.kubelet)
		w.f("machineID: %s", g.hex(16)+g.hex(16))
		w.f("operatingSystem: linux")
		w.f("osImage: Amazon Linux 2023.6.20241031")
		w.f("systemUUID: ec2%s", g.uuid()[3:])
	})
}

func (g *gen) uuid() string {
	h := g.hex(16) + g.hex(16)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func stamp(t time.Time) string { return t.Format(time.RFC3339) }

// scalar quotes a string the way kubectl's YAML does when YAML would read
// it as something else: empty, a number (also "04"), a boolean, null.
func scalar(s string) string {
	if s == "" {
		return `""`
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~":
		return strconv.Quote(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.Quote(s)
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.ContainsAny(s[:1], "{}[]&*!|>'\"%@`,?:-#") {
		return strconv.Quote(s)
	}
	return s
}
