package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/manifest"
)

// TestScheduleExampleCluster places the shipped example workloads on the
// example cluster and checks the eligible nodes of each.
func TestScheduleExampleCluster(t *testing.T) {
	code, out, errOut := run(t, "", "schedule", "-f", "json", "--nodes", "../../examples/nodes.yaml", "../../examples/manifests")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Version    int
		Nodes      []struct{ Name, Pool string }
		Placements []struct {
			Object   struct{ Kind, Namespace, Name string }
			File     string
			Line     int
			Eligible []string
			Blocked  []struct{ Node, Reason, Detail string }

			Replicas, Placed int
			PlacedExact      bool   `json:"placed_exact"`
			BlockedBy        string `json:"blocked_by"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || len(doc.Nodes) != 11 || len(doc.Placements) != 15 {
		t.Fatalf("version %d, %d nodes, %d placements; want 1, 11, 15", doc.Version, len(doc.Nodes), len(doc.Placements))
	}
	// How many replicas land: replicas, placed, placed_exact, blocked_by.
	capacity := map[string]string{
		"alertmanager":             "3 2 true anti-affinity", // one per node, two infra nodes
		"ingress-nginx-controller": "3 2 true ports",         // hostPort 80 and 443
		"traffic-inspector":        "2 0 true resources",     // 4Gi on 3.1Gi nodes: DESIRED 2
		"finetune-llm":             "1 0 true resources",     // 4 GPUs, 1 per node
		"cert-manager":             "1 0 true placement",     // the infra taint
		"fluent-bit":               "4 4 true none",          // DESIRED 4
		"inference":                "2 2 true none",
	}
	for _, p := range doc.Placements {
		if w, ok := capacity[p.Object.Name]; ok {
			if got := fmt.Sprintf("%d %d %v %s", p.Replicas, p.Placed, p.PlacedExact, p.BlockedBy); got != w {
				t.Errorf("%s: replicas, placed, placed_exact, blocked_by = %s, want %s", p.Object.Name, got, w)
			}
		}
	}
	want := map[string][]string{
		"cert-manager":         {},
		"nightly-report":       {},
		"finetune-llm":         {}, // 4 GPUs; each GPU node allocates 1
		"nvidia-device-plugin": {"gpu-1", "gpu-2"},
		"fluent-bit":           {"general-1", "general-2", "general-3", "general-4"}, // DaemonSets ignore cordoning
		"web":                  {"general-1", "general-2", "general-3"},
		"train-resnet":         {"gpu-1", "gpu-2", "general-1", "general-2", "general-3"},
		"node-exporter":        {"cp-1", "gpu-1", "gpu-2", "ingress-1", "ingress-2", "infra-1", "infra-2", "general-1", "general-2", "general-3", "general-4"},
	}
	for _, p := range doc.Placements {
		if w, ok := want[p.Object.Name]; ok && !slices.Equal(p.Eligible, w) {
			t.Errorf("%s: eligible %v, want %v", p.Object.Name, p.Eligible, w)
		}
		if len(p.Eligible)+len(p.Blocked) != 11 {
			t.Errorf("%s: %d eligible + %d blocked, want 11 nodes", p.Object.Name, len(p.Eligible), len(p.Blocked))
		}
		if p.Object.Name == "finetune-llm" {
			for _, b := range p.Blocked {
				if strings.HasPrefix(b.Node, "gpu-") && (b.Reason != "resources" || b.Detail != "request nvidia.com/gpu 4: the node allocates 1") {
					t.Errorf("finetune-llm on %s: %s %q, want the GPU request", b.Node, b.Reason, b.Detail)
				}
			}
		}
		if p.Object.Name == "cert-manager" {
			for _, b := range p.Blocked {
				if strings.HasPrefix(b.Node, "infra-") && (b.Reason != "taint" || b.Detail != "untolerated taint dedicated=infra:NoSchedule") {
					t.Errorf("cert-manager on %s: %s %q, want the untolerated infra taint", b.Node, b.Reason, b.Detail)
				}
			}
		}
	}
}

func TestScheduleText(t *testing.T) {
	code, out, errOut := run(t, "", "schedule", "--nodes", "../../examples/nodes.yaml", "../../examples/manifests")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantAll(t, "matrix", out, []string{
		"15 workloads on 11 nodes in 6 pools",
		"POOL                NODES  TAINTS                                            ALLOCATABLE",
		"gpu                 2      nvidia.com/gpu=present:NoSchedule                 cpu 7910m, memory 30.0Gi, pods 58, nvidia.com/gpu 1",
		"ml/finetune-llm                         Job          0      -        0/1 resources      ✗ selector  ✗ resources",
		"infra/alertmanager                      Deployment   2      -        2/3 anti-affinity  ✗ selector  ✗ selector   ✗ selector  ✓",
		"general (cordoned)",
		"logging/fluent-bit                      DaemonSet    4      4",
		"Workloads that fit no node (dslint lint says why in full):",
		"Deployment infra/cert-manager (../../examples/manifests/infra.yaml:31): node-selector on control-plane, gpu, ingress, 2 more; taint on infra",
		"shop/payments                           Deployment   3      -        2/2                ✓           ✗ selector",
		"security/traffic-inspector              DaemonSet    2      2        0/2 resources",
		"Workloads with replicas that never land:",
		"Deployment infra/alertmanager (../../examples/manifests/infra.yaml:52): 2 of 3 replicas: required pod anti-affinity on kubernetes.io/hostname allows 2, one per node: only infra-1 and infra-2 are eligible",
		"Not modelled:",
	})
	code, md, _ := run(t, "", "schedule", "-f", "markdown", "--nodes", "../../examples/nodes.yaml", "../../examples/manifests")
	if code != ExitOK || !strings.Contains(md, "| infra/cert-manager | Deployment | 0 | - | 0/1 placement |") || !strings.Contains(md, "| infra/alertmanager | Deployment | 2 | - | 2/3 anti-affinity |") {
		t.Errorf("markdown matrix (exit %d) lacks the cert-manager row:\n%s", code, md)
	}
}

// TestScheduleCustomResourcePods: each pod template of a custom resource is
// placed on its own and named by where it is written; a workload with one
// pod template keeps its one row, without a template.
func TestScheduleCustomResourcePods(t *testing.T) {
	dir := t.TempDir()
	nodes := filepath.Join(dir, "nodes.yaml")
	write(t, nodes, `apiVersion: v1
kind: List
items:
  - {apiVersion: v1, kind: Node, metadata: {name: cpu-1, labels: {pool: cpu}}}
  - apiVersion: v1
    kind: Node
    metadata: {name: gpu-1, labels: {pool: gpu}}
    spec: {taints: [{key: gpu, effect: NoSchedule}]}
`)
	workloads := filepath.Join(dir, "ray.yaml")
	write(t, workloads, `apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: ray, namespace: ml}
spec:
  headGroupSpec:
    template:
      spec:
        containers: [{name: head, image: ray:2.34.0}]
  workerGroupSpecs:
    - groupName: gpu
      template:
        spec:
          nodeSelector: {pool: gpu}
          tolerations: [{key: gpu, operator: Exists}]
          containers: [{name: worker, image: ray:2.34.0}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx:1.27}]
`)
	code, out, errOut := run(t, "", "schedule", "-f", "json", "--nodes", nodes, workloads)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Placements []struct {
			Object   struct{ Kind, Name string }
			Line     int
			Template *string
			Eligible []string
			Blocked  []struct{ Node, Reason string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Placements {
		template := "(none)"
		if p.Template != nil {
			template = *p.Template
		}
		got = append(got, fmt.Sprintf("%s/%s line %d %s: %v", p.Object.Kind, p.Object.Name, p.Line, template, p.Eligible))
	}
	want := []string{
		"RayCluster/ray line 2 spec.headGroupSpec.template.spec: [cpu-1]",
		"RayCluster/ray line 2 spec.workerGroupSpecs[0].template.spec: [gpu-1]",
		"Deployment/web line 18 (none): [cpu-1]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("placements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	code, out, errOut = run(t, "", "schedule", "--nodes", nodes, workloads)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantAll(t, "matrix", out, []string{
		"2 workloads on 2 nodes in 2 pools",
		"ml/ray spec.headGroupSpec.template.spec        RayCluster  1      -        1/1   ✓           ✗ taint",
		"ml/ray spec.workerGroupSpecs[0].template.spec  RayCluster  1      -        1/1   ✗ selector  ✓",
	})
}

// TestScheduleNeedsNodes: schedule without an inventory is a usage error,
// also when Node objects are among the inputs (examples/nodes.yaml here):
// they are an inventory only from a --nodes file.
func TestScheduleNeedsNodes(t *testing.T) {
	for _, dir := range []string{"../../examples/manifests", "../../examples"} {
		code, _, errOut := run(t, "", "schedule", dir)
		if code != ExitUsage || !strings.Contains(errOut, "schedule needs nodes: pass --nodes FILE") || !strings.Contains(errOut, "Node objects among the inputs are used only from a file named with --nodes") {
			t.Errorf("schedule %s: exit %d, stderr %q; want 2 and a hint about --nodes", dir, code, errOut)
		}
	}
}

// TestNodesAmongInputsNote: Node objects among the linted files are not the
// inventory unless their file is named with --nodes or nodes:; the summary
// says how many were left out and how to use them, in text and JSON.
func TestNodesAmongInputsNote(t *testing.T) {
	const note = "note: 11 Node objects among the inputs (../../examples/nodes.yaml) are not used as the node inventory; to check placement against them, name their file with --nodes (or nodes: in .dslint.yaml)\n"
	code, out, errOut := run(t, "", "../../examples")
	if code != ExitFindings || !strings.Contains(out, note) || strings.Contains(out, "no-matching-nodes") || strings.Contains(out, "against 11 nodes") {
		t.Errorf("dslint examples: exit %d, want 1, the note and no inventory finding:\n%s%s", code, out, errOut)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(note) + `\d+ files, \d+ objects, \d+ workloads checked: [^\n]*\n$`).MatchString(out) {
		t.Errorf("the note is not right above the summary line:\n%s", out)
	}
	_, out, _ = run(t, "", "-f", "json", "../../examples")
	var report struct{ Notes []string }
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSuffix(strings.TrimPrefix(note, "note: "), "\n"); len(report.Notes) != 1 || report.Notes[0] != want {
		t.Errorf("JSON notes = %q, want [%q]", report.Notes, want)
	}
	if _, out, _ := run(t, "", "-q", "../../examples"); strings.Contains(out, "note:") {
		t.Errorf("--quiet prints the note:\n%s", out)
	}
	// Named with --nodes (or nodes: in the config), the same file is the
	// inventory, and nothing is left out.
	cfg := filepath.Join(t.TempDir(), ".dslint.yaml")
	abs, err := filepath.Abs("../../examples/nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write(t, cfg, "nodes: ["+abs+"]\n")
	for _, args := range [][]string{
		{"--nodes", "../../examples/nodes.yaml", "../../examples"},
		{"--nodes", "./../../examples/nodes.yaml", "../../examples/"},
		{"-c", cfg, "../../examples"},
	} {
		code, out, errOut := run(t, "", args...)
		if code != ExitFindings || strings.Contains(out+errOut, "note:") || !strings.Contains(out, "[no-matching-nodes]") || !strings.Contains(out, "against 11 nodes in 6 pools") {
			t.Errorf("dslint %v: exit %d, want the inventory findings and no note:\n%s%s", args, code, out, errOut)
		}
	}
	// schedule says it on stderr: its stdout is the matrix.
	code, out, errOut = run(t, "", "schedule", "--nodes", "../../examples/nodes.yaml", "../../examples/manifests", "../../fixtures/no-matching-nodes/fail_selector_without_toleration.yaml", "../../fixtures/no-matching-nodes/pass_pinned_with_both_halves.yaml")
	if code != ExitOK || strings.Contains(out, "note:") || !strings.Contains(errOut, "dslint: note: 4 Node objects among the inputs (../../fixtures/no-matching-nodes/fail_selector_without_toleration.yaml, ../../fixtures/no-matching-nodes/pass_pinned_with_both_halves.yaml) are not used") {
		t.Errorf("schedule with Node objects among the inputs: exit %d\n%s\nstderr: %s", code, out, errOut)
	}
}

func TestInvalidInventory(t *testing.T) {
	dir := t.TempDir()
	nodes := filepath.Join(dir, "nodes.yaml")
	write(t, nodes, `apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {"bad key!": x}
spec:
  taints:
    - {key: dedicated, value: gpu, effect: NoSchedul}
`)
	code, _, errOut := run(t, "", "--nodes", nodes, "../../examples/manifests")
	if code != ExitUsage {
		t.Fatalf("exit %d, want 2: %s", code, errOut)
	}
	wantAll(t, "stderr", errOut, []string{
		nodes + `:5:12: node "n1": label key "bad key!"`,
		nodes + `:8:36: node "n1": taint effect "NoSchedul": must be NoSchedule, PreferNoSchedule or NoExecute`,
	})
	write(t, nodes, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
	if code, _, errOut := run(t, "", "--nodes", nodes, "../../examples/manifests"); code != ExitUsage || !strings.Contains(errOut, ":2:1: --nodes file holds a ConfigMap") {
		t.Errorf("exit %d, stderr %q; want 2 and the ConfigMap named", code, errOut)
	}
	write(t, nodes, "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- name: n2\n")
	if code, _, errOut := run(t, "", "--nodes", nodes, "../../examples/manifests"); code != ExitUsage || !strings.Contains(errOut, ":5:3: --nodes file holds something other than a Kubernetes object") {
		t.Errorf("exit %d, stderr %q; want 2 and the item named", code, errOut)
	}
	if code, _, errOut := run(t, "", "--nodes", filepath.Join(dir, "missing.yaml"), "../../examples/manifests"); code != ExitUsage || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("exit %d, stderr %q; want 2 and the file named", code, errOut)
	}
}

func TestNodesFromStdinAndInventoryRules(t *testing.T) {
	nodes, err := os.ReadFile("../../examples/nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, string(nodes), "--nodes", "-", "../../examples/manifests/infra.yaml")
	if code != ExitFindings || !strings.Contains(out, `infra.yaml:43:7: error: deployment "cert-manager" fits no node of the inventory`) || !strings.Contains(out, "against 11 nodes in 6 pools") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// largeNodeList is kubectl get nodes -o yaml for n nodes in three pools,
// each with the given number of images in its status, as a real node lists
// the images it holds. Node bad (if in range) has an invalid taint effect,
// whose key is at the line and column returned.
func largeNodeList(n, images, bad int) (text string, badLine, badColumn int) {
	var b strings.Builder
	line := 1
	w := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		line += strings.Count(format, "\n")
	}
	w("apiVersion: v1\nitems:\n")
	for i := range n {
		effect := "NoSchedule"
		if i == bad {
			effect = "NoSchedul"
			badLine, badColumn = line+7, 35
		}
		w("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-%d\n", i)
		w("    labels: {pool: p%d, kubernetes.io/hostname: node-%d}\n  spec:\n    taints:\n", i%3, i)
		w("    - {key: dedicated, value: p%d, effect: %s}\n", i%3, effect)
		w("  status:\n    images:\n")
		for j := range images {
			w("    - {names: [registry.example/i%d@sha256:%d, registry.example/i%d:v%d], sizeBytes: %d}\n", j, j, j, j, 1000+j)
		}
	}
	w("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.String(), badLine, badColumn
}

// TestLargeNodeList: a cluster's kubectl get nodes -o yaml beyond the limits
// of one document (2,500,000 YAML nodes) and of one manifest file (32 MiB)
// is read, a group of nodes at a time, with the positions of the file.
func TestLargeNodeList(t *testing.T) {
	dir := t.TempDir()
	nodes := filepath.Join(dir, "nodes.yaml")
	text, _, _ := largeNodeList(4000, 100, -1)
	if len(text) <= manifest.MaxFileBytes {
		t.Fatalf("the List has %d bytes, not more than a manifest file may", len(text))
	}
	write(t, nodes, text)
	code, out, errOut := run(t, "", "--nodes", nodes, "../../examples/manifests/infra.yaml")
	if code == ExitUsage || !strings.Contains(out, "against 4000 nodes in 3 pools") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	// Anything else is read up to 32 MiB.
	write(t, nodes, strings.Replace(text, "items:\n", "items: !!seq\n", 1))
	code, _, errOut = run(t, "", "--nodes", nodes, "../../examples/manifests/infra.yaml")
	if want := "larger than 32 MiB, and not a List in block style"; code != ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}

	// A bad node is named at its line, and so is a syntax error (where
	// the flow mapping that is not closed starts).
	text, line, column := largeNodeList(3000, 10, 2900)
	write(t, nodes, text)
	code, _, errOut = run(t, "", "--nodes", nodes, "../../examples/manifests/infra.yaml")
	if want := fmt.Sprintf("%s:%d:%d: node \"node-2900\": taint effect \"NoSchedul\"", nodes, line, column); code != ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
	text, line, _ = largeNodeList(3000, 10, 2900)
	write(t, nodes, strings.Replace(text, "effect: NoSchedul}", "effect: NoSchedule", 1))
	code, _, errOut = run(t, "", "--nodes", nodes, "../../examples/manifests/infra.yaml")
	if want := fmt.Sprintf("%s:%d:5:", nodes, line); code != ExitUsage || !strings.Contains(errOut, want) || !strings.Contains(errOut, "syntax error") {
		t.Errorf("exit %d, stderr %q; want 2 and a syntax error at %q", code, errOut, want)
	}

	// Items that share an anchor cannot be read apart: the List is read
	// whole, and reads the same.
	text, _, _ = largeNodeList(3000, 10, -1)
	text = strings.Replace(text, "labels: {pool: p0, kubernetes.io/hostname: node-0}", "labels: &l {pool: p0, kubernetes.io/hostname: node-0}", 1)
	text = strings.Replace(text, "labels: {pool: p0, kubernetes.io/hostname: node-2999}", "labels: *l", 1)
	write(t, nodes, text)
	code, out, errOut = run(t, "", "--nodes", nodes, "../../examples/manifests/infra.yaml")
	if code == ExitUsage || !strings.Contains(out, "against 3000 nodes in 3 pools") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

// wantAll fails t for each of want that what (named name) lacks.
func wantAll(t *testing.T, name, what string, want []string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(what, s) {
			t.Errorf("%s lacks %q:\n%s", name, s, what)
		}
	}
}

// TestScheduleOwners: the pools of the config with owners are listed with
// them under the matrix, and a workload outside a pool's owners that
// tolerates its taint is marked where it fits the pool's nodes; the JSON
// says which ownership each placement breaks, and how.
func TestScheduleOwners(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg.yaml")
	write(t, cfg, `pools:
  - name: gpu
    count: 2
    labels: {pool: gpu}
    taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
    owners: {namespaces: [ml, "ml-*"]}
  - name: general
    count: 3
    labels: {pool: general}
  - name: tpu
    labels: {pool: tpu}
    taints: [{key: dedicated, value: tpu, effect: NoSchedule}]
    owners: {namespaces: [research]}
`)
	manifest := filepath.Join(dir, "manifest.yaml")
	write(t, manifest, `apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: web}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]
      containers: [{name: api, image: api:1.0}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: trainer, namespace: ml-vision}
spec:
  selector: {matchLabels: {app: trainer}}
  template:
    metadata: {labels: {app: trainer}}
    spec:
      nodeSelector: {pool: gpu}
      tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]
      containers: [{name: trainer, image: trainer:1.0}]
`)
	code, out, errOut := run(t, "", "schedule", "-c", cfg, manifest)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantAll(t, "matrix", out, []string{
		"WORKLOAD           KIND        NODES  DESIRED  FITS  general     gpu",
		"ml-vision/trainer  Deployment  2      -        1/1   ✗ selector  ✓\n",
		"web/api            Deployment  5      -        1/1   ✓           ✓ not owner\n",
		"not owner: the workload fits nodes of a pool that .dslint.yaml gives owners, and is not among them (dslint lint: pool-ownership)",
		"Pools with owners (.dslint.yaml):\n  pool gpu (2 nodes): owners namespaces ml, ml-*\n  pool tpu (no nodes in this inventory): owners namespaces research\n",
	})

	code, out, errOut = run(t, "", "schedule", "-c", cfg, "-f", "json", manifest)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Pools []struct {
			Name   string
			Owners struct{ Namespaces []string }
			Nodes  int
		}
		Placements []struct {
			Object    struct{ Name string }
			Ownership []struct{ Pool, Breaks string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(doc.Pools)
	if want := "[{gpu {[ml ml-*]} 2} {tpu {[research]} 0}]"; got != want {
		t.Errorf("pools %s, want %s", got, want)
	}
	got = fmt.Sprint(doc.Placements)
	if want := "[{{api} [{gpu lands}]} {{trainer} []}]"; got != want {
		t.Errorf("placements' ownership %s, want %s", got, want)
	}
	if strings.Count(out, `"ownership"`) != 1 {
		t.Errorf("want ownership on the one placement that breaks it:\n%s", out)
	}
}

// TestScheduleHelpOwners: dslint schedule --help says how the owners of
// the config's pools show.
func TestScheduleHelpOwners(t *testing.T) {
	_, out, errOut := run(t, "", "schedule", "--help")
	wantAll(t, "help", out+errOut, []string{"Pools declared with owners in .dslint.yaml", `reads "not`, `("ownership": "asks"`})
}
