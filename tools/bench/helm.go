package main

import (
	"os"
	"path/filepath"
)

// The helm scenario: rendering real charts in process and linting what
// they render, under the values that switch their scheduling fields (the
// charts' README). nvidia-device-plugin with gfd.enabled is the largest
// render of ../shared/charts (24 objects, the vendored NFD subchart
// unpacked from its .tgz); ingress-nginx has the most template text.
func helmCommands(root string) ([]command, string) {
	dir := filepath.Join(root, "..", "shared", "charts")
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		return nil, "helm: ../shared/charts is not beside the project; skipped"
	}
	common := []string{"lint", "-q", "--release-name", "test", "--namespace", "dslint-test", "--kube-version", "1.33.0"}
	infra := []string{`--set-json`, `tolerations=[{"key":"dedicated","operator":"Equal","value":"infra","effect":"NoSchedule"}]`,
		`--set-json`, `nodeSelector={"kubernetes.io/os":"linux","node-role.kubernetes.io/infra":""}`}
	nvidia := append(append(append([]string{}, common...), infra...), "--set", "gfd.enabled=true", filepath.Join(dir, "nvidia-device-plugin"))
	ingress := append(append([]string{}, common...), "--set", "controller.kind=DaemonSet", "--set", "controller.hostNetwork=true",
		"--set", "controller.hostPort.enabled=true", filepath.Join(dir, "ingress-nginx"))
	return []command{
		{name: "helm nvidia-device-plugin gfd", args: nvidia, objects: 24},
		{name: "helm ingress-nginx DaemonSet", args: ingress, objects: 18},
	}, "helm: ../shared/charts, rendered in process and linted"
}
