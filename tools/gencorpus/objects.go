package main

import "fmt"

// kinds are the workload kinds with their share of the corpus, roughly what
// an application repository holds: mostly Deployments.
var kinds = []kindInfo{
	{"Deployment", "apps/v1", 45},
	{"StatefulSet", "apps/v1", 12},
	{"DaemonSet", "apps/v1", 10},
	{"ReplicaSet", "apps/v1", 5},
	{"Job", "batch/v1", 10},
	{"CronJob", "batch/v1", 10},
	{"Pod", "v1", 8},
}

var (
	appNames   = []string{"api", "web", "worker", "ingest", "indexer", "gateway", "auth", "ledger", "notifier", "exporter", "collector", "reconciler", "scheduler", "renderer", "proxy"}
	namespaces = []string{"default", "payments", "search", "identity", "platform", "data", "ml", "edge", "monitoring", "kube-system", "ingress-nginx", "batch"}
)

type kindInfo struct {
	kind, apiVersion string
	weight           int // percent
}

// meta is what one object's metadata and selectors need; annotations are
// written after the owner annotation every object has.
type meta struct {
	kind, name, namespace, app, team string
	annotations                      []kv
}

// workload writes workload number id and returns its name, for the extras
// that follow it.
func (g *gen) workload(w *yw, id int) string {
	k := g.pickKind()
	m := meta{kind: k.kind, app: g.pick(appNames), team: g.pick(teamDirs), namespace: g.pick(namespaces)}
	m.name = fmt.Sprintf("%s-%s-%05d", m.team, m.app, id)
	g.writeWorkload(w, k.apiVersion, m)
	return m.name
}

// writeWorkload writes one workload object of kind m.kind.
func (g *gen) writeWorkload(w *yw, apiVersion string, m meta) {
	w.f("apiVersion: %s", apiVersion)
	w.f("kind: %s", m.kind)
	g.objectMeta(w, m)
	w.f("spec:")
	w.in(func() {
		switch m.kind {
		case "Pod":
			g.podSpec(w, m)
		case "Job":
			g.jobSpec(w, m)
		case "CronJob":
			g.cronJobSpec(w, m)
		default:
			g.controllerSpec(w, m)
		}
	})
}

func (g *gen) pickKind() (k kindInfo) {
	r := g.r.IntN(100)
	for _, k = range kinds {
		if r < k.weight {
			return k
		}
		r -= k.weight
	}
	return k
}

// objectMeta writes the metadata block with the usual recommended labels
// and an owner annotation.
func (g *gen) objectMeta(w *yw, m meta) {
	w.f("metadata:")
	w.in(func() {
		w.f("name: %s", m.name)
		w.f("namespace: %s", m.namespace)
		w.mapping("labels", g.labels(m))
		w.mapping("annotations", append([]kv{{"example.com/owner", m.team + "@example.com"}}, m.annotations...))
	})
}

func (g *gen) labels(m meta) []kv {
	return []kv{
		{"app.kubernetes.io/name", m.app},
		{"app.kubernetes.io/instance", m.name},
		{"app.kubernetes.io/part-of", m.team},
	}
}

// controllerSpec writes the spec of a Deployment, StatefulSet, DaemonSet or
// ReplicaSet: selector, kind-specific fields, then the pod template.
func (g *gen) controllerSpec(w *yw, m meta) {
	if m.kind != "DaemonSet" {
		w.f("replicas: %d", g.between(1, 6))
	}
	w.f("selector:")
	w.in(func() { w.mapping("matchLabels", selector(m)) })
	switch m.kind {
	case "Deployment":
		w.f("strategy:")
		w.in(func() {
			w.f("type: RollingUpdate")
			w.f("rollingUpdate: {maxSurge: 25%%, maxUnavailable: 0}")
		})
	case "DaemonSet":
		w.f("updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}")
	case "StatefulSet":
		w.f("serviceName: %s", m.name)
		w.f("podManagementPolicy: OrderedReady")
	}
	g.podTemplate(w, "template", m)
	if m.kind == "StatefulSet" {
		g.volumeClaimTemplates(w)
	}
}

func selector(m meta) []kv {
	return []kv{{"app.kubernetes.io/name", m.app}, {"app.kubernetes.io/instance", m.name}}
}

// podTemplate writes a PodTemplateSpec under key.
func (g *gen) podTemplate(w *yw, key string, m meta) {
	w.f("%s:", key)
	w.in(func() {
		w.f("metadata:")
		w.in(func() {
			w.mapping("labels", selector(m))
			if g.chance(50) {
				w.mapping("annotations", []kv{{"checksum/config", g.hex(16) + g.hex(16)}})
			}
		})
		w.f("spec:")
		w.in(func() { g.podSpec(w, m) })
	})
}

func (g *gen) jobSpec(w *yw, m meta) {
	w.f("backoffLimit: %d", g.between(0, 6))
	w.f("completions: %d", g.between(1, 3))
	w.f("ttlSecondsAfterFinished: 86400")
	g.podTemplate(w, "template", m)
}

func (g *gen) cronJobSpec(w *yw, m meta) {
	w.f("schedule: %q", fmt.Sprintf("%d %d * * *", g.r.IntN(60), g.r.IntN(24)))
	w.f("concurrencyPolicy: Forbid")
	w.f("successfulJobsHistoryLimit: 3")
	w.f("failedJobsHistoryLimit: 1")
	w.f("jobTemplate:")
	w.in(func() {
		w.f("spec:")
		w.in(func() { g.jobSpec(w, m) })
	})
}

func (g *gen) volumeClaimTemplates(w *yw) {
	w.f("volumeClaimTemplates:")
	w.item("metadata:", func() {
		w.in(func() { w.f("name: data") })
		w.f("spec:")
		w.in(func() {
			w.f("accessModes: [ReadWriteOnce]")
			w.f("storageClassName: %s", g.pick([]string{"standard", "ssd", "gp3"}))
			w.f("resources: {requests: {storage: %dGi}}", 10*g.between(1, 50))
		})
	})
}

// configMap writes the ConfigMap a workload in a bundle reads.
func (g *gen) configMap(w *yw, owner string) {
	w.f("apiVersion: v1")
	w.f("kind: ConfigMap")
	w.f("metadata: {name: %s-config}", owner)
	w.f("data:")
	w.in(func() {
		for i := range g.between(3, 10) {
			w.f("setting_%02d: %q", i, g.hex(12))
		}
	})
}

// service writes the Service in front of a workload in a bundle.
func (g *gen) service(w *yw, owner string) {
	w.f("apiVersion: v1")
	w.f("kind: Service")
	w.f("metadata: {name: %s}", owner)
	w.f("spec:")
	w.in(func() {
		w.f("selector: {app.kubernetes.io/instance: %s}", owner)
		w.f("ports:")
		w.item("name: http", func() {
			w.f("port: 80")
			w.f("targetPort: http")
		})
	})
}
