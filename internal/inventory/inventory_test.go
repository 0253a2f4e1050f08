package inventory

import (
	"slices"
	"testing"

	"github.com/dslint/dslint/internal/manifest"
)

func node(name string, labels map[string]any, taints ...any) *Node {
	return &Node{Name: name, Labels: labels, Taints: taints}
}

func TestPoolsIgnorePerNodeLabels(t *testing.T) {
	gpu := map[string]any{"key": "hw", "value": "gpu", "effect": "NoSchedule"}
	inv := New([]*Node{
		node("worker-1", map[string]any{"kubernetes.io/hostname": "worker-1", "topology.kubernetes.io/zone": "a"}),
		node("gpu-a", map[string]any{"eks.amazonaws.com/nodegroup": "gpus", "kubernetes.io/hostname": "gpu-a"}, gpu),
		node("worker-2", map[string]any{"kubernetes.io/hostname": "worker-2", "topology.kubernetes.io/zone": "b"}),
		node("worker-2", map[string]any{"other": "duplicate name: dropped"}),
		node("cp", map[string]any{"node-role.kubernetes.io/control-plane": ""}),
		{Name: "worker-3", Labels: map[string]any{"kubernetes.io/hostname": "worker-3"}, Unschedulable: true},
	})
	var got [][]string
	for _, p := range inv.Pools {
		names := []string{p.Name}
		for _, n := range p.Nodes {
			names = append(names, n.Name)
		}
		got = append(got, names)
	}
	want := [][]string{{"worker", "worker-1", "worker-2"}, {"gpus", "gpu-a"}, {"control-plane", "cp"}, {"worker (cordoned)", "worker-3"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("pools %v, want %v", got, want)
	}
	if v := inv.Pools[0].Varying; !slices.Equal(v, []string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}) {
		t.Errorf("varying labels %v", v)
	}
	if len(inv.Nodes) != 5 {
		t.Errorf("%d nodes, want 5 (the duplicate dropped)", len(inv.Nodes))
	}
}

func TestPoolNamesAreUnique(t *testing.T) {
	inv := New([]*Node{
		node("a-1", map[string]any{"pool": "p", "x": "1"}),
		node("b-1", map[string]any{"pool": "p", "x": "2"}),
	})
	if inv.Pools[0].Name != "p" || inv.Pools[1].Name != "p-2" {
		t.Errorf("names %q, %q; want p, p-2", inv.Pools[0].Name, inv.Pools[1].Name)
	}
}

func TestFromPool(t *testing.T) {
	nodes := FromPool(PoolSpec{
		Name: "gpu", Count: 3, Labels: map[string]string{"hw": "gpu"},
		Taints: []TaintSpec{{Key: "hw", Value: "gpu", Effect: "NoSchedule", Pos: manifest.Pos{File: ".dslint.yaml", Line: 9, Column: 7}}},
		Pos:    manifest.Pos{File: ".dslint.yaml", Line: 5, Column: 5},
	})
	inv := New(nodes)
	if len(inv.Pools) != 1 || inv.Pools[0].Name != "gpu" || len(inv.Pools[0].Nodes) != 3 {
		t.Fatalf("pools %+v", inv.Pools)
	}
	n := nodes[2]
	if n.Name != "gpu-3" || n.Labels["kubernetes.io/hostname"] != "gpu-3" || n.Labels["kubernetes.io/os"] != "linux" || n.Labels["hw"] != "gpu" {
		t.Errorf("node %+v", n)
	}
	if p := n.Position([]any{"spec", "taints", 0, "effect"}); p.String() != ".dslint.yaml:9:7" {
		t.Errorf("taint position %s, want .dslint.yaml:9:7", p)
	}
	if p := n.Position([]any{"metadata", "labels", "hw"}); p.String() != ".dslint.yaml:5:5" {
		t.Errorf("label position %s, want the pool's .dslint.yaml:5:5", p)
	}
}
