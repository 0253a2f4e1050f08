package lint

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/manifest"
)

// cluster holds two Node objects and a Deployment that selects the tainted
// pool without tolerating its taint: no-matching-nodes, with the nodes as
// the inventory.
const cluster = `apiVersion: v1
kind: Node
metadata: {name: infra-1, labels: {pool: infra}}
spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}]}
---
apiVersion: v1
kind: Node
metadata: {name: general-1, labels: {pool: general}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cert-manager}
spec:
  selector: {matchLabels: {app: cert-manager}}
  template:
    metadata: {labels: {app: cert-manager}}
    spec:
      nodeSelector: {pool: infra}
      containers: [{name: c, image: c:1.0}]
`

// TestNodesAmongInputsAreNotAnInventory: Node objects among the inputs do
// not become the inventory; they are counted, with their file, for the
// note. From a file also named as an inventory file, they are the
// inventory's own.
func TestNodesAmongInputsAreNotAnInventory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(path, []byte(cluster), 0o644); err != nil {
		t.Fatal(err)
	}
	compiled := newRules(t)
	src := []manifest.Source{{Path: path, Name: "cluster.yaml"}}
	out, problems := Run(context.Background(), src, nil, Options{Rules: compiled})
	if err := problems.Err(); err != nil {
		t.Fatal(err)
	}
	if !out.Inventory.Empty() || out.Summary.Nodes != 0 {
		t.Errorf("the inputs' Node objects made an inventory of %d nodes", len(out.Inventory.Nodes))
	}
	if rules := rulesOf(out.Result, false); slices.Contains(rules, "no-matching-nodes") {
		t.Errorf("no-matching-nodes without an inventory: %v", rules)
	}
	if out.UnusedNodes != 2 || !slices.Equal(out.UnusedNodeFiles, []string{"cluster.yaml"}) {
		t.Errorf("unused nodes %d in %v, want 2 in [cluster.yaml]", out.UnusedNodes, out.UnusedNodeFiles)
	}
	if out.Summary.Objects != 3 || out.Summary.Workloads != 1 {
		t.Errorf("%d objects, %d workloads; want 3 and 1", out.Summary.Objects, out.Summary.Workloads)
	}

	// As with --nodes cluster.yaml cluster.yaml (./ and a link make no
	// difference: files are compared by their real path).
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	nodes, err := fixture.Nodes("cluster.yaml", []byte(cluster))
	if err != nil {
		t.Fatal(err)
	}
	out, problems = Run(context.Background(), src, nil, Options{Rules: compiled, Nodes: nodes, NodeFiles: []string{link}})
	if err := problems.Err(); err != nil {
		t.Fatal(err)
	}
	if out.UnusedNodes != 0 || out.UnusedNodeFiles != nil {
		t.Errorf("the inventory file's nodes are reported unused: %d in %v", out.UnusedNodes, out.UnusedNodeFiles)
	}
	if rules := rulesOf(out.Result, false); !slices.Contains(rules, "no-matching-nodes") || out.Summary.Nodes != 2 {
		t.Errorf("with the inventory: %v on %d nodes, want no-matching-nodes on 2", rules, out.Summary.Nodes)
	}
}
