package admission

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/dslint/dslint/internal/fixture"
)

// fixturesDir holds the fixtures of the pool-ownership rule, each with its
// config (X.dslint.yaml, or the directory's .dslint.yaml).
const fixturesDir = "../../../fixtures/" + rule

// TestFixturesDifferential runs the exported policy of each fixture's
// config on every object of the fixture and wants, per object and pool,
// the denials to be dslint's findings.
func TestFixturesDifferential(t *testing.T) {
	files, err := fixture.Find(filepath.Dir(fixturesDir))
	if err != nil {
		t.Fatal(err)
	}
	rules := ownershipRules(t)
	compared := 0
	for _, file := range files {
		if fixture.Rule(file) != rule {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			c, err := fixture.Config(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c == nil {
				t.Skipf("%s has no config: no pool to judge", file)
			}
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
