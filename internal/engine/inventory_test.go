package engine

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/inventory"
)

// TestRegoInventoryHelper holds the inventory the Rego tests build
// (data.dslint.test.inventory, rego/testing_test.rego) to the one dslint
// hands the rules (inventory.Data): the same pools built both ways must
// read the same.
func TestRegoInventoryHelper(t *testing.T) {
	gpu := map[string]any{"key": "hw", "value": "gpu", "effect": "NoSchedule"}
	cp := map[string]any{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}
	var nodes []*inventory.Node
	var allocatable map[string]any
	add := func(labels map[string]any, taints []any, unschedulable any, names ...string) {
		for _, name := range names {
			own := map[string]any{"kubernetes.io/hostname": name}
			for k, v := range labels {
				own[k] = v
			}
			nodes = append(nodes, &inventory.Node{Name: name, Labels: own, Taints: taints, Unschedulable: unschedulable, Allocatable: allocatable})
		}
	}
	add(map[string]any{"pool": "general"}, nil, nil, "g-1", "g-2")
	allocatable = map[string]any{"cpu": "32", "nvidia.com/gpu": "8", "pods": "110"}
	add(map[string]any{"pool": "gpu"}, []any{gpu}, nil, "gpu-1")
	allocatable = nil
	add(map[string]any{"node-role.kubernetes.io/control-plane": ""}, []any{cp}, true, "cp-1")
	want := jsonValue(t, inventory.New(nodes).Data())

	got := jsonValue(t, evalTestHelper(t, `data.dslint.test.inventory.indexed({"pools": [
		data.dslint.test.inventory.pool("general", {"pool": "general"}, [], ["g-1", "g-2"]),
		data.dslint.test.inventory.allocating(
			data.dslint.test.inventory.pool("gpu", {"pool": "gpu"}, [{"key": "hw", "value": "gpu", "effect": "NoSchedule"}], ["gpu-1"]),
			{"cpu": "32", "nvidia.com/gpu": "8", "pods": "110"},
		),
		data.dslint.test.inventory.cordoned(data.dslint.test.inventory.pool("control-plane (cordoned)",
			{"node-role.kubernetes.io/control-plane": ""},
			[{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}], ["cp-1"])),
	]})`))
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		w, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("data.dslint.test.inventory builds\n%s\ninventory.Data is\n%s", g, w)
	}
}

// evalTestHelper evaluates query on the built-in modules, tests included.
func evalTestHelper(t *testing.T, query string) any {
	t.Helper()
	modules, err := ParseModules(dslint.Policies, true)
	if err != nil {
		t.Fatal(err)
	}
	opts := []func(*rego.Rego){rego.Query(query), rego.SetRegoVersion(ast.RegoV1)}
	for _, m := range modules {
		opts = append(opts, rego.ParsedModule(m))
	}
	rs, err := rego.New(opts...).Eval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("%s: %d results", query, len(rs))
	}
	return rs[0].Expressions[0].Value
}

// jsonValue is v as JSON reads back: maps, slices, float64s.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
