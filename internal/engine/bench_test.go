package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/manifest"
)

// benchObjects loads the first files of the generated benchmark corpus
// (make bench writes it to .bench/corpus).
func benchObjects(b *testing.B) []*yaml.Node {
	files, _ := filepath.Glob("../../.bench/corpus/*/*/*.yaml")
	if len(files) == 0 {
		b.Skip("no benchmark corpus: run make bench once to generate .bench/corpus")
	}
	var out []*yaml.Node
	for _, f := range files[:min(80, len(files))] {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range manifest.Parse(f, data).Docs {
			objs, _ := manifest.Objects(d)
			for _, o := range objs {
				out = append(out, o.Node)
			}
		}
	}
	return out
}

// BenchmarkRules measures the cost of one object's evaluation with no rule,
// with all rules, and with each rule alone: a rule's own cost is its figure
// minus "none". Run: go test ./internal/engine -run '^$' -bench Rules
func BenchmarkRules(b *testing.B) {
	objs := benchObjects(b)
	all, err := Compile(dslint.Policies, nil, RuleConfig{})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, r := range all.Rules() {
		ids = append(ids, r.ID)
	}
	for _, keep := range append([]string{"none", "all"}, ids...) {
		var disabled []string
		for _, id := range ids {
			if keep != "all" && id != keep {
				disabled = append(disabled, id)
			}
		}
		e := newRun(b, RuleConfig{Off: disabled})
		b.Run(keep, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := e.Check(context.Background(), objs[i%len(objs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
