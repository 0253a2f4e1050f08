package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/lint"
)

// ownedSample is a placement of four workloads on an inventory with pools
// the config declares with owners: gpu, with a count (its nodes are the
// inventory pool gpu); tpu, without a count, whose label two inventory
// pools of other names carry; edge, whose nodes the inventory lacks; and
// infra, without owners.
func ownedSample() (*lint.Outcome, []config.Pool) {
	dedicated := func(v string) []inventory.TaintSpec {
		return []inventory.TaintSpec{{Key: "dedicated", Value: v, Effect: "NoSchedule"}}
	}
	nodes := inventory.FromPool(inventory.PoolSpec{Name: "gpu", Count: 2, Labels: map[string]string{"pool": "gpu"}, Taints: dedicated("gpu")})
	nodes = append(nodes, inventory.FromPool(inventory.PoolSpec{Name: "general", Count: 3, Labels: map[string]string{"pool": "general"}})...)
	nodes = append(nodes, inventory.FromPool(inventory.PoolSpec{Name: "tpu-v4", Count: 2, Labels: map[string]string{"accelerator": "tpu", "generation": "v4"}, Taints: dedicated("tpu")})...)
	nodes = append(nodes, inventory.FromPool(inventory.PoolSpec{Name: "tpu-v5", Count: 1, Labels: map[string]string{"accelerator": "tpu", "generation": "v5"}, Taints: dedicated("tpu")})...)
	inv := inventory.New(nodes)

	taint := func(v string) engine.NodeVerdict {
		return engine.NodeVerdict{Reason: "taint", Detail: "untolerated taint dedicated=" + v + ":NoSchedule"}
	}
	selector := engine.NodeVerdict{Reason: "node-selector", Detail: "node selector pool=gpu: the node has pool=general"}
	fits := engine.NodeVerdict{Fits: true}
	whole := func(vs ...engine.NodeVerdict) []engine.PoolVerdict {
		out := make([]engine.PoolVerdict, len(vs))
		for i, v := range vs {
			out[i] = engine.PoolVerdict{Pool: i, NodeVerdict: v}
		}
		return out
	}
	placed := func(replicas, n int, by string) engine.Capacity {
		return engine.Capacity{Replicas: replicas, Placed: n, Exact: true, BlockedBy: by}
	}
	deployment := func(ns, name string) finding.Object {
		return finding.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: ns, Name: name}
	}
	// batch fits one node of tpu-v4 (its node affinity names it) and tpu-v5.
	batch := whole(taint("gpu"), fits, taint("tpu"), fits)
	batch[2] = engine.PoolVerdict{Pool: 2, Nodes: map[int]engine.NodeVerdict{0: fits},
		Others: engine.NodeVerdict{Reason: "node-affinity", Detail: "required node affinity: the node has kubernetes.io/hostname=tpu-v4-2"}}

	out := &lint.Outcome{Result: &finding.Result{Summary: finding.Summary{Workloads: 4}}, Inventory: inv}
	out.Placements = []lint.Placement{
		{Object: deployment("ml", "trainer"), File: "deploy/ml.yaml", Line: 1, Placement: engine.Placement{
			Pools: whole(fits, selector, taint("tpu"), taint("tpu")), Eligible: 2, Capacity: placed(2, 2, "none"),
		}},
		{Object: deployment("web", "api"), File: "deploy/web.yaml", Line: 1, Placement: engine.Placement{
			Pools: whole(fits, fits, taint("tpu"), taint("tpu")), Eligible: 5, Capacity: placed(3, 3, "none"),
			Ownership: []engine.OwnershipBreak{{Pool: "gpu", How: "lands"}},
		}},
		{Object: deployment("web", "batch"), File: "deploy/web.yaml", Line: 20, Placement: engine.Placement{
			Pools: batch, Eligible: 5, Capacity: placed(1, 1, "none"),
			Ownership: []engine.OwnershipBreak{{Pool: "tpu", How: "lands"}},
		}},
		{Object: finding.Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "web", Name: "report"}, File: "deploy/web.yaml", Line: 40, Placement: engine.Placement{
			Pools: whole(taint("gpu"), selector, taint("tpu"), taint("tpu")), Capacity: placed(1, 0, "placement"),
			Ownership: []engine.OwnershipBreak{{Pool: "gpu", How: "asks"}},
		}},
	}
	declared := []config.Pool{
		{Name: "gpu", Count: 2, Labels: map[string]string{"pool": "gpu"}, Owners: &config.Owners{Namespaces: []string{"ml", "ml-*"}}},
		{Name: "tpu", Labels: map[string]string{"accelerator": "tpu"}, Owners: &config.Owners{
			Namespaces: []string{"research"},
			Selector: &config.Selector{
				MatchLabels:      map[string]string{"team": "research"},
				MatchExpressions: []config.Requirement{{Key: "tier", Operator: "In", Values: []string{"batch", "train"}}},
			},
		}},
		{Name: "infra", Labels: map[string]string{"pool": "infra"}},
		{Name: "edge", Labels: map[string]string{"pool": "edge"}, Owners: &config.Owners{Namespaces: []string{"edge-*", "cdn-*"}}},
	}
	return out, declared
}

// TestScheduleOwnersGolden: the pools declared with owners are listed with
// them and their nodes, and a cell where a workload fits the nodes of a
// pool whose ownership it breaks is marked, in every format; folded
// columns keep the mark.
func TestScheduleOwnersGolden(t *testing.T) {
	cases := []struct {
		file, format string
		maxPools     int
	}{
		{"schedule-owners.text", "text", 0},
		{"schedule-owners-folded.text", "text", 2},
		{"schedule-owners.markdown", "markdown", 0},
		{"schedule-owners.json", "json", 0},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out, declared := ownedSample()
			var buf bytes.Buffer
			if err := WriteSchedule(&buf, c.format, out, ScheduleOptions{MaxPools: c.maxPools, Pools: declared}); err != nil {
				t.Fatal(err)
			}
			golden(t, c.file, buf.Bytes())
		})
	}
}

// TestScheduleJSONWithoutOwners: without pools declared with owners, the
// JSON document has no "pools" and no placement an "ownership" (SPEC §6).
func TestScheduleJSONWithoutOwners(t *testing.T) {
	out, declared := ownedSample()
	for i := range out.Placements {
		out.Placements[i].Ownership = nil
	}
	var buf bytes.Buffer
	if err := WriteSchedule(&buf, "json", out, ScheduleOptions{Pools: declared[2:3]}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if _, ok := doc["pools"]; ok {
		t.Errorf("pools without owners are listed:\n%s", buf.Bytes())
	}
	if bytes.Contains(buf.Bytes(), []byte(`"ownership"`)) {
		t.Errorf("a placement has ownership:\n%s", buf.Bytes())
	}
}
