package admission

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/fixture"
)

// fixturesDir holds the fixtures of every rule; those with a config
// (X.dslint.yaml, or the directory's .dslint.yaml) that gives a pool owners
// are compared: pool-ownership's own, and the declared-pool fixtures of the
// other rules, whose outsiders pool-ownership reports.
const fixturesDir = "../../../fixtures"

// TestFixturesDifferential runs the exported policy of each such fixture's
// config on every object of the fixture and wants, per object and pool,
// the denials to be dslint's findings.
func TestFixturesDifferential(t *testing.T) {
	files, err := fixture.Find(fixturesDir)
	if err != nil {
		t.Fatal(err)
	}
	rules := ownershipRules(t)
	compared := 0
	for _, file := range files {
		c, err := fixture.Config(file, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || !slices.ContainsFunc(c.Pools, func(p config.Pool) bool { return p.Owners != nil }) {
			continue
		}
		t.Run(fixture.Rule(file)+"/"+filepath.Base(file), func(t *testing.T) {
			cmp := newComparison(t, c)
			reported := lintVerdicts(t, rules, file)
			for _, d := range documents(t, file) {
				cmp.object(t, d.obj, d.yaml, reported[keyOf(t, d.obj)])
			}
			cmp.report(t, file)
			compared += cmp.pairs
		})
	}
	if compared == 0 {
		t.Fatalf("no verdict compared: no fixture with objects in %s", fixturesDir)
	}
}

// document is one object of a file, decoded as the API server decodes it.
type document struct {
	obj  runtime.Object
	yaml []byte
}

// documents are the objects of a YAML file of client-go's scheme; the
// documents that are not (custom resources, empty ones) are left out.
func documents(t testing.TB, file string) []document {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []document
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		obj, _, err := Decode(doc)
		if err != nil {
			t.Logf("%s: left out: %v", file, err)
			continue
		}
		out = append(out, document{obj, doc})
	}
}

func stripComments(doc []byte) string {
	var b strings.Builder
	for line := range strings.Lines(string(doc)) {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}
