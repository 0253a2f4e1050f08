package yamlvalue

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// TestAnchorsConvertOnce: every alias to an anchor shares the anchor's one
// value, merge keys still apply, and a cycle of aliases (which
// manifest.Parse refuses) ends at the depth limit instead of recursing.
func TestAnchorsConvertOnce(t *testing.T) {
	f := manifest.Parse("a.yaml", []byte("a: &a {x: [1, 2]}\nb: *a\nc: {<<: *a, y: 3}\nd: [*a, *a]\n"))
	v, err := Rego(f.Docs[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(ast.Object)
	get := func(k string) ast.Value { return obj.Get(ast.StringTerm(k)).Value }
	if get("a") != get("b") || get("d").(*ast.Array).Elem(1).Value != get("a") {
		t.Error("aliases to one anchor are converted apart")
	}
	if want := ast.MustParseTerm(`{"x": [1, 2], "y": 3}`).Value; get("c").Compare(want) != 0 {
		t.Errorf("merged %v, want %v", get("c"), want)
	}
	cycle := &yaml.Node{Kind: yaml.SequenceNode, Anchor: "x"}
	cycle.Content = []*yaml.Node{{Kind: yaml.AliasNode, Value: "x", Alias: cycle}}
	if _, err := Rego(cycle, nil); err == nil || !strings.Contains(err.Error(), "nested more than 1000 levels") {
		t.Errorf("a cycle of aliases: %v", err)
	}
}
