package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const gpuDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: trainer, namespace: ml}
spec:
  selector: {matchLabels: {app: trainer}}
  template:
    metadata: {labels: {app: trainer}}
    spec:
      nodeSelector: {hw: gpu}
      containers: [{name: t, image: trainer:1.0}]
`

// TestConfigPools places workloads on the pools of a config file.
func TestConfigPools(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, `failOn: error
pools:
  - name: gpu
    count: 2
    labels: {hw: gpu}
    taints: [{key: hw, value: gpu, effect: NoSchedule}]
  - name: general
    count: 3
`)
	manifest := filepath.Join(dir, "trainer.yaml")
	write(t, manifest, gpuDeployment)
	code, out, errOut := run(t, "", "schedule", "-c", cfg, manifest)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, s := range []string{"1 workload on 5 nodes in 2 pools", "ml/trainer", "hw=gpu:NoSchedule"} {
		if !strings.Contains(out, s) {
			t.Errorf("matrix lacks %q:\n%s", s, out)
		}
	}
	code, out, _ = run(t, "", "-c", cfg, manifest)
	if code != ExitFindings || !strings.Contains(out, `deployment "trainer" fits no node of the inventory: node selector hw=gpu blocks 3 nodes (general); untolerated taint hw=gpu:NoSchedule blocks 2 nodes (gpu)`) {
		t.Errorf("exit %d, want 1 and no-matching-nodes:\n%s", code, out)
	}
}

func TestConfigInvalidPoolTaint(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, `pools:
  - name: gpu
    labels: {"bad key!": x}
    taints:
      - {key: "-hw", effect: NoSchedule}
`)
	manifest := filepath.Join(dir, "trainer.yaml")
	write(t, manifest, gpuDeployment)
	code, _, errOut := run(t, "", "-c", cfg, manifest)
	if code != ExitUsage {
		t.Fatalf("exit %d, want 2: %s", code, errOut)
	}
	name := filepath.ToSlash(cfg)
	for _, s := range []string{name + `:3:14: pool "gpu": label key "bad key!"`, name + `:5:9: pool "gpu": taint key "-hw"`} {
		if !strings.Contains(errOut, s) {
			t.Errorf("stderr lacks %q:\n%s", s, errOut)
		}
	}
}

func TestConfigErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, "failOn: warn\nrules:\n  wildcard-tolerations: off\n")
	code, _, errOut := run(t, "", "-c", cfg, "../../examples/manifests")
	if code != ExitUsage || !strings.Contains(errOut, `:1:9: failOn: "warn" is not one of`) || !strings.Contains(errOut, `did you mean "wildcard-toleration"?`) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestConfigRulesAndFailOn(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, "failOn: error\nrules:\n  invalid-toleration: warning\n  deprecated-master-key: off\n")
	code, out, errOut := run(t, "", "-c", cfg, "../../examples/manifests/ingress.yaml", "../../examples/manifests/logging.yaml")
	if code != ExitOK {
		t.Errorf("exit %d, want 0 (nothing at error once invalid-toleration is a warning): %s%s", code, out, errOut)
	}
	if !strings.Contains(out, "warning: toleration value \"ingress\"") || strings.Contains(out, "deprecated-master-key") {
		t.Errorf("severity override or rule off not applied:\n%s", out)
	}
	if code, _, _ := run(t, "", "-c", cfg, "--fail-on", "warning", "../../examples/manifests/ingress.yaml"); code != ExitFindings {
		t.Errorf("--fail-on warning: exit %d, want 1 (flags override the file)", code)
	}
}

// TestRuleFlags turns rules on and off over the config.
func TestRuleFlags(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, "rules:\n  toleration-without-node-selector: off\n")
	cases := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"the config turns the rule off", []string{"-c", cfg, "-"}, ExitOK, ""},
		{"--enable wins over the config", []string{"-c", cfg, "--enable", "toleration-without-node-selector", "-"}, ExitFindings, ""},
		{"--disable without a config", []string{"--disable", "toleration-without-node-selector", "-"}, ExitOK, ""},
		{"an unknown rule", []string{"--disable", "toleration-without-nodeselector", "-"}, ExitUsage, `did you mean "toleration-without-node-selector"`},
		{"on and off at once", []string{"--enable", "wildcard-toleration", "--disable", "wildcard-toleration", "-"}, ExitUsage, "both enabled and disabled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := run(t, gpuJob, c.args...)
			if code != c.code || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, c.code, c.err)
			}
		})
	}
}

// TestSuppressedFindingsDoNotFail: a suppressed warning passes the run and
// shows only with --show-suppressed.
func TestSuppressedFindingsDoNotFail(t *testing.T) {
	src := strings.Replace(gpuJob, "        - key: nvidia.com/gpu", "        # dslint:ignore toleration-without-node-selector any idle node may run it\n        - key: nvidia.com/gpu", 1)
	code, out, _ := run(t, src, "-")
	if code != ExitOK || strings.Contains(out, "toleration-without-node-selector") || !strings.Contains(out, "(1 suppressed)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = run(t, src, "--show-suppressed", "-")
	if code != ExitOK || !strings.Contains(out, "suppressed") || !strings.Contains(out, "[toleration-without-node-selector]") {
		t.Errorf("--show-suppressed: exit %d:\n%s", code, out)
	}
}

// TestInit writes a starter config that loads as it is, and refuses to
// overwrite one.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "init", dir); code != ExitOK || !strings.Contains(errOut, "wrote") {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	cfg := filepath.Join(dir, ".dslint.yaml")
	if code, _, errOut := run(t, gpuJob, "-c", cfg, "-"); code != ExitFindings {
		t.Errorf("the starter config changes the run: exit %d: %s", code, errOut)
	}
	write(t, cfg, "failOn: none\n")
	if code, _, errOut := run(t, "", "init", dir); code != ExitUsage || !strings.Contains(errOut, "already exists") {
		t.Errorf("second init: exit %d: %s", code, errOut)
	}
	if code, _, _ := run(t, gpuJob, "-c", cfg, "-"); code != ExitOK {
		t.Error("init overwrote the existing config")
	}
	if code, _, _ := run(t, "", "init", "--force", dir); code != ExitOK {
		t.Error("init --force failed")
	}
	if code, _, _ := run(t, gpuJob, "-c", cfg, "-"); code != ExitFindings {
		t.Error("init --force did not overwrite the config")
	}
	if code, out, _ := run(t, "", "init", "--stdout"); code != ExitOK || !strings.Contains(out, "#failOn: warning") {
		t.Errorf("init --stdout: exit %d: %s", code, out)
	}
}

const gpuPolicy = `# METADATA
# title: GPU workloads set a priority class
# description: Pods on the GPU pool must be able to preempt batch work.
# custom:
#   severity: error
#   remediation: Set priorityClassName.
package dslint.rules["gpu-priority-class"]

import data.dslint.lib.k8s
import data.dslint.lib.result

report contains result.fail(array.concat(k8s.pod_spec_path, ["nodeSelector"]), "no priority class") if {
	k8s.pod_spec.nodeSelector.hw == "gpu"
	not k8s.pod_spec.priorityClassName
}
`

// TestCustomPolicies runs a user's rule from --policy and from the config,
// where rules: may name it.
func TestCustomPolicies(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "policy", "gpu.rego"), gpuPolicy)
	manifest := filepath.Join(dir, "trainer.yaml")
	write(t, manifest, gpuDeployment)

	code, out, errOut := run(t, "", "--policy", filepath.Join(dir, "policy"), manifest)
	if code != ExitFindings || !strings.Contains(out, "trainer.yaml:9:7: error: no priority class [gpu-priority-class]") {
		t.Errorf("--policy: exit %d\n%s%s", code, out, errOut)
	}

	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, "policies: [policy]\nrules:\n  gpu-priority-class: info\n")
	code, out, errOut = run(t, "", "-c", cfg, manifest)
	if code != ExitOK || !strings.Contains(out, "info: no priority class [gpu-priority-class]") {
		t.Errorf("policies: in the config: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = run(t, "", "-c", cfg, "--disable", "gpu-priority-class", manifest)
	if code != ExitOK || strings.Contains(out, "gpu-priority-class") {
		t.Errorf("--disable of a custom rule: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, "", "explain", "--policy", filepath.Join(dir, "policy"), "gpu-priority-class"); code != ExitOK || !strings.Contains(out, "GPU workloads set a priority class") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
}

// TestInvalidPolicy: a policy that does not compile stops the run with its
// position, exit 2.
func TestInvalidPolicy(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy")
	write(t, filepath.Join(policy, "gpu.rego"), strings.Replace(gpuPolicy, `k8s.pod_spec.nodeSelector.hw == "gpu"`, `http.send({"method": "get", "url": "http://x"})`, 1))
	code, _, errOut := run(t, gpuDeployment, "--policy", policy, "-")
	if code != ExitUsage || !strings.Contains(errOut, "gpu.rego:13:2: http.send is not available to policies") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	write(t, filepath.Join(policy, "gpu.rego"), "package dslint.custom.x\n\nx := \n")
	code, _, errOut = run(t, gpuDeployment, "--policy", policy, "-")
	if code != ExitUsage || !strings.Contains(errOut, "gpu.rego:") {
		t.Errorf("syntax error: exit %d: %s", code, errOut)
	}
}

// TestExcludedFilesPass: files named one by one (as pre-commit passes them)
// that the config excludes leave nothing to lint, which passes; a directory
// with nothing left is still an error.
func TestExcludedFilesPass(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, "exclude: [\"charts/**\"]\n")
	bad := filepath.Join(dir, "charts", "job.yaml")
	write(t, bad, gpuJob)
	code, out, errOut := run(t, "", "-c", cfg, "-f", "json", bad)
	if code != ExitOK || !strings.Contains(errOut, "nothing to lint") || !strings.Contains(out, `"files": 0`) {
		t.Errorf("excluded file: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := run(t, "", "-c", cfg, filepath.Join(dir, "charts")); code != ExitUsage || !strings.Contains(errOut, "no manifests left") {
		t.Errorf("excluded directory: exit %d: %s", code, errOut)
	}
}

// TestCustomRuleLinks: reports never send a custom rule's readers to
// dslint's own rule docs; its first related resource stands in.
func TestCustomRuleLinks(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy")
	write(t, filepath.Join(policy, "gpu.rego"), gpuPolicy)
	code, out, errOut := run(t, gpuDeployment, "--policy", policy, "-f", "sarif", "-")
	if code != ExitFindings || strings.Contains(out, "rules.md#gpu-priority-class") || !strings.Contains(out, `"id": "gpu-priority-class"`) {
		t.Errorf("sarif: exit %d: %s\n%s", code, errOut, out)
	}
	code, out, _ = run(t, gpuDeployment, "--policy", policy, "-f", "markdown", "-")
	if code != ExitFindings || strings.Contains(out, "rules.md#gpu-priority-class") || !strings.Contains(out, "`gpu-priority-class`") {
		t.Errorf("markdown: exit %d\n%s", code, out)
	}
	linked := strings.Replace(gpuPolicy, "# custom:", "# related_resources:\n#   - ref: https://wiki.example.com/gpu\n# custom:", 1)
	write(t, filepath.Join(policy, "gpu.rego"), linked)
	if _, out, _ := run(t, gpuDeployment, "--policy", policy, "-f", "sarif", "-"); !strings.Contains(out, `"helpUri": "https://wiki.example.com/gpu"`) {
		t.Errorf("sarif with a related resource:\n%s", out)
	}
}

// TestBuiltinRuleIDs: the ids read from file names are the rules' own.
func TestBuiltinRuleIDs(t *testing.T) {
	ids, err := builtinRuleIDs()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ruleCatalogue(nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range rules {
		want = append(want, r.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, want) {
		t.Errorf("builtinRuleIDs = %v\nrules = %v", ids, want)
	}
}

// versionPolicy reports the target Kubernetes version the rules see.
const versionPolicy = `# METADATA
# title: Target version
# description: Says which Kubernetes version the rules target.
# custom:
#   severity: info
#   remediation: None.
package dslint.rules["target-version"]

import data.dslint.lib.k8s
import data.dslint.lib.result
import data.dslint.lib.settings

report contains result.fail(["kind"], msg) if {
	input.kind == "Pod"
	msg := sprintf("targets kubernetes 1.%d (%s)", [settings.kubernetes_minor, data.dslint.config.kubernetesVersion])
}
`

// TestKubernetesVersion: the rules see the version of --kubernetes-version,
// else of kubernetesVersion: in the config, else the newest supported; a
// version dslint does not support is a usage error naming the range.
func TestKubernetesVersion(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy")
	write(t, filepath.Join(policy, "version.rego"), versionPolicy)
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, "kubernetesVersion: \"1.25\"\n")
	noConfig := filepath.Join(dir, "empty.yaml")
	write(t, noConfig, "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", noConfig}, "targets kubernetes 1.36 (1.36)"},
		{[]string{"-c", noConfig, "--kubernetes-version", "v1.30.2"}, "targets kubernetes 1.30 (1.30)"},
		{[]string{"-c", cfg}, "targets kubernetes 1.25 (1.25)"},
		{[]string{"-c", cfg, "--kubernetes-version=1.28"}, "targets kubernetes 1.28 (1.28)"},
	} {
		args := append([]string{"--fail-on", "none", "--policy", policy}, c.args...)
		code, out, errOut := run(t, cleanPod, append(args, "-")...)
		if code != ExitOK || !strings.Contains(out, c.want) {
			t.Errorf("dslint %v: exit %d, want %q in\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
	for _, args := range [][]string{
		{"--kubernetes-version", "1.19", "-"},
		{"schedule", "--kubernetes-version", "1.19", "-"},
	} {
		code, _, errOut := run(t, cleanPod, args...)
		if want := "--kubernetes-version 1.19: dslint supports Kubernetes 1.20 to 1.36"; code != ExitUsage || !strings.Contains(errOut, want) {
			t.Errorf("dslint %v: exit %d, want 2 and %q: %s", args, code, want, errOut)
		}
	}
	code, _, errOut := run(t, cleanPod, "--kubernetes-version", "latest", "-")
	if code != ExitUsage || !strings.Contains(errOut, "--kubernetes-version latest: not a Kubernetes version") || !strings.Contains(errOut, "1.20 to 1.36") {
		t.Errorf("--kubernetes-version latest: exit %d: %s", code, errOut)
	}
	write(t, cfg, "failOn: warning\nkubernetesVersion: 1.30\n")
	code, _, errOut = run(t, cleanPod, "-c", cfg, "-")
	if want := ".dslint.yaml:2:20: kubernetesVersion: YAML reads the number 1.30 as 1.3: quote the version"; code != ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("kubernetesVersion: 1.30 unquoted: exit %d, want 2 and %q: %s", code, want, errOut)
	}
	if code, out, _ := run(t, "", "init", "--stdout"); code != ExitOK || !strings.Contains(out, "\n#kubernetesVersion: \"1.36\"\n") {
		t.Errorf("init --stdout shows no kubernetesVersion: exit %d: %s", code, out)
	}
	for _, cmd := range []string{"lint", "schedule"} {
		if _, out, _ := run(t, "", cmd, "--help"); !strings.Contains(out, "--kubernetes-version X.Y") {
			t.Errorf("%s --help does not show --kubernetes-version:\n%s", cmd, out)
		}
	}
}

// TestDeclaredPools lints with pools declared without nodes: no inventory,
// and the declared pattern judges the workloads.
func TestDeclaredPools(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, `pools:
  - name: gpu
    labels: {hw: gpu}
    taints: [{key: hw, value: gpu, effect: NoSchedule}]
    owners: {namespaces: [research]}
`)
	manifest := filepath.Join(dir, "trainer.yaml")
	write(t, manifest, gpuDeployment)
	code, out, errOut := run(t, "", "-c", cfg, manifest)
	if code != ExitFindings || !strings.Contains(out, `deployment "trainer" asks for the nodes of pool "gpu" (nodeSelector hw=gpu), but its namespace "ml" is not among the pool's owners`) {
		t.Errorf("exit %d, want 1 and pool-ownership:\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "against") {
		t.Errorf("a declaration is no inventory, yet the summary names nodes:\n%s", out)
	}
	if code, _, errOut := run(t, "", "schedule", "-c", cfg, manifest); code != ExitUsage || !strings.Contains(errOut, "schedule needs nodes") {
		t.Errorf("schedule with declared pools only: exit %d, want 2 (no nodes):\n%s", code, errOut)
	}
}

// TestDeclaredPoolProblems: a declaration's labels and taints are checked
// as a node's are, and against the inventory files.
func TestDeclaredPoolProblems(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".dslint.yaml")
	write(t, cfg, `nodes: [nodes.yaml]
pools:
  - name: gpu
    labels: {hw: gpu, "bad key!": x}
    taints: [{key: hw, value: gpu, effect: NoSchedule}]
  - name: edge
    labels: {role: edge}
    taints: [{key: edge, effect: NoSchedule}]
`)
	write(t, filepath.Join(dir, "nodes.yaml"), `apiVersion: v1
kind: Node
metadata: {name: edge-1, labels: {role: ingress}}
spec: {taints: [{key: edge, effect: NoSchedule}]}
`)
	manifest := filepath.Join(dir, "trainer.yaml")
	write(t, manifest, gpuDeployment)
	code, _, errOut := run(t, "", "-c", cfg, manifest)
	name := filepath.ToSlash(cfg)
	want := name + `:7:14: pools[1].labels.role: no node that carries the pool's taints has the label role=edge (edge-1 in ` + filepath.ToSlash(filepath.Join(dir, "nodes.yaml")) + `); pods that select it find no node: give the label the nodes carry`
	if code != ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want 2 and\n%s\nstderr:\n%s", code, want, errOut)
	}
	write(t, cfg, strings.Replace(strings.Replace(string(readFile(t, cfg)), "role: edge", "role: ingress", 1), "nodes: [nodes.yaml]\n", "", 1))
	code, _, errOut = run(t, "", "-c", cfg, manifest)
	if want := name + `:3:23: pool "gpu": label key "bad key!"`; code != ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want 2 and %q; stderr:\n%s", code, want, errOut)
	}
}
