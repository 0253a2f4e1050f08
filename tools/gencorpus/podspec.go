package main

import (
	"fmt"
	"strings"
)

// volume is a pod volume and where containers mount it.
type volume struct {
	name, source, mountPath string
	readOnly, sidecars      bool // sidecars: mounted by every container, not only the main one
}

// podSpec writes a PodSpec: scheduling fields first (what dslint reads),
// then containers and volumes (what makes the documents realistically big).
func (g *gen) podSpec(w *yw, m meta) {
	w.f("serviceAccountName: %s", m.app)
	if g.chance(40) {
		w.f("terminationGracePeriodSeconds: %d", g.between(45, 120))
	}
	switch m.kind {
	case "Job", "CronJob":
		w.f("restartPolicy: %s", g.pick([]string{"OnFailure", "Never"}))
	case "DaemonSet":
		w.f("priorityClassName: system-node-critical")
		g.hostNetwork = g.chance(40)
		w.f("hostNetwork: %t", g.hostNetwork)
	}
	w.f("securityContext: {runAsNonRoot: true, runAsUser: %d, fsGroup: 2000}", g.between(1000, 65000))
	if g.placement != nil {
		g.writeScheduling(w, *g.placement)
	} else {
		g.writeScheduling(w, g.scheduling(m))
	}
	vols := g.volumes(m)
	// 10-30 variables per pod: sidecars take a few, the application the rest.
	side := sidecars[:g.sidecarCount()]
	envs := make([]int, len(side))
	mainEnv := g.envCount()
	for i := range envs {
		envs[i] = g.between(2, 4)
		mainEnv = max(mainEnv-envs[i], 6)
	}
	if g.chance(5) {
		w.f("initContainers:")
		g.container(w, m, "init-migrate", vols, 3, false)
	}
	w.f("containers:")
	g.container(w, m, m.app, vols, mainEnv, true)
	for i, name := range side {
		g.container(w, m, name, vols, envs[i], false)
	}
	writeVolumes(w, vols)
}

var sidecars = []string{"metrics-exporter", "log-shipper"}

// sidecarCount is 0 for most pods, 1 or 2 for the rest.
func (g *gen) sidecarCount() int {
	switch r := g.r.IntN(100); {
	case r < 60:
		return 0
	case r < 90:
		return 1
	}
	return 2
}

// envCount is 10-30, skewed low (mean about 17): most pods set a dozen or
// so variables, a few set many.
func (g *gen) envCount() int {
	return 10 + min(g.r.IntN(21), g.r.IntN(21))
}

// container writes one container; main is the application container, the
// one with service ports, probes and every volume mounted.
func (g *gen) container(w *yw, m meta, name string, vols []volume, nEnv int, main bool) {
	w.item("name: "+name, func() {
		w.f("image: %s", g.image(m, name))
		if main {
			w.f("imagePullPolicy: IfNotPresent")
		}
		if main || name == "metrics-exporter" {
			g.ports(w, m, main)
		}
		g.env(w, m, nEnv)
		g.resources(w)
		if main && m.kind != "Job" && m.kind != "CronJob" {
			g.probes(w)
		}
		writeMounts(w, vols, main)
		if main {
			w.f("securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}")
		}
	})
}

// image is pinned by tag, sometimes also by digest, as CI-rendered
// manifests are.
func (g *gen) image(m meta, name string) string {
	img := fmt.Sprintf("registry.example.com/%s/%s:%s", m.team, name, g.version())
	if g.chance(15) {
		img += "@sha256:" + g.hex(16) + g.hex(16) + g.hex(16) + g.hex(16)
	}
	return img
}

// ports gives the main container http and metrics ports, the exporter a
// metrics port. DaemonSets often, and other kinds rarely, bind a hostPort.
func (g *gen) ports(w *yw, m meta, main bool) {
	w.f("ports:")
	if main {
		w.item("name: http", func() {
			w.f("containerPort: 8080")
			if (m.kind == "DaemonSet" && g.chance(40)) || g.chance(3) {
				w.f("hostPort: %d", g.between(8000, 9999))
			}
		})
	}
	w.item("name: metrics", func() {
		w.f("containerPort: %d", g.between(9090, 9199))
	})
}

// envNames are the candidate variable names, distinct by construction so a
// container never repeats one.
var envNames = func() []string {
	var out []string
	for _, p := range []string{"APP", "DB", "CACHE", "QUEUE", "OTEL", "FEATURE", "HTTP", "AUTH"} {
		for _, s := range []string{"HOST", "PORT", "TIMEOUT_MS", "POOL_SIZE", "ENABLED", "ENDPOINT", "LOG_LEVEL", "RETRIES", "REGION", "MODE"} {
			out = append(out, p+"_"+s)
		}
	}
	return out
}()

// env writes n variables, about one in seven read from the downward
// API, a Secret or a ConfigMap instead of a literal.
func (g *gen) env(w *yw, m meta, n int) {
	w.f("env:")
	for _, i := range g.r.Perm(len(envNames))[:n] {
		name := envNames[i]
		switch r := g.r.IntN(100); {
		case r < 5:
			w.item("name: "+name, func() { w.f("valueFrom: {fieldRef: {fieldPath: metadata.name}}") })
		case r < 15:
			w.item("name: "+name, func() {
				w.f("valueFrom: {secretKeyRef: {name: %s-secrets, key: %s}}", m.app, strings.ToLower(name))
			})
		default:
			w.item("name: "+name, func() { w.f("value: %q", g.envValue(name)) })
		}
	}
}

func (g *gen) envValue(name string) string {
	switch {
	case strings.HasSuffix(name, "_HOST"):
		return g.pick(appNames) + "." + g.pick(namespaces) + ".svc.cluster.local"
	case strings.HasSuffix(name, "_ENDPOINT"):
		return "https://" + g.pick(appNames) + ".example.com/v1"
	case strings.HasSuffix(name, "_ENABLED"):
		return g.pick([]string{"true", "false"})
	case strings.HasSuffix(name, "_LOG_LEVEL"):
		return g.pick([]string{"debug", "info", "warn"})
	}
	return fmt.Sprint(g.r.IntN(10000))
}

func (g *gen) resources(w *yw) {
	cpu := g.pick([]string{"50m", "100m", "250m", "500m", "1"})
	mem := g.pick([]string{"64Mi", "128Mi", "256Mi", "512Mi", "1Gi", "2Gi"})
	w.f("resources: {requests: {cpu: %s, memory: %s}, limits: {memory: %s}}", cpu, mem, mem)
}

// probes are written in flow style, as many charts render them.
func (g *gen) probes(w *yw) {
	w.f("livenessProbe: {httpGet: {path: /healthz, port: http}, initialDelaySeconds: %d}", g.between(0, 30))
	w.f("readinessProbe: {httpGet: {path: /readyz, port: http}, periodSeconds: 5}")
}

// volumes always has config and scratch space, half the pods a secret;
// DaemonSets add host paths, a third of Deployments a claim.
func (g *gen) volumes(m meta) []volume {
	vols := []volume{
		{name: "config", source: fmt.Sprintf("configMap: {name: %s-config}", m.name), mountPath: "/etc/" + m.app, readOnly: true},
		{name: "tmp", source: "emptyDir: {sizeLimit: 1Gi}", mountPath: "/tmp", sidecars: true},
	}
	if g.chance(50) {
		vols = append(vols, volume{name: "tls", source: fmt.Sprintf("secret: {secretName: %s-tls}", m.name), mountPath: "/var/run/tls", readOnly: true})
	}
	switch {
	case m.kind == "DaemonSet":
		vols = append(vols,
			volume{name: "varlog", source: "hostPath: {path: /var/log, type: Directory}", mountPath: "/var/log", readOnly: true, sidecars: true},
			volume{name: "proc", source: "hostPath: {path: /proc}", mountPath: "/host/proc", readOnly: true})
	case m.kind == "Deployment" && g.chance(33):
		vols = append(vols, volume{name: "data", source: fmt.Sprintf("persistentVolumeClaim: {claimName: %s-data}", m.name), mountPath: "/data"})
	}
	return vols
}

func writeMounts(w *yw, vols []volume, main bool) {
	w.f("volumeMounts:")
	for _, v := range vols {
		if main || v.sidecars {
			w.item("name: "+v.name, func() {
				w.f("mountPath: %s", v.mountPath)
				if v.readOnly {
					w.f("readOnly: true")
				}
			})
		}
	}
}

func writeVolumes(w *yw, vols []volume) {
	w.f("volumes:")
	for _, v := range vols {
		w.item("name: "+v.name, func() { w.f("%s", v.source) })
	}
}
