package lint

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dslint/dslint/internal/manifest"
)

// corpusDir is the shared corpus of real public manifests, beside the clone
// in CI; DSLINT_CORPUS points elsewhere.
func corpusDir(t *testing.T) string {
	dir := os.Getenv("DSLINT_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus", "real")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("real-manifest corpus not found at %s (it sits beside the clone in CI; set DSLINT_CORPUS to run this test)", dir)
	}
	return dir
}

// TestRealCorpus lints every file of the real corpus: all of them are valid
// YAML or JSON, so there must be no parse error, no unreadable file and no
// internal error, and every finding must have a real position.
func TestRealCorpus(t *testing.T) {
	dir := corpusDir(t)
	srcs, err := manifest.Discover([]string{dir}, manifest.Discovery{})
	if err != nil {
		t.Fatal(err)
	}
	res, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t)})
	for _, p := range append(problems.Unreadable, problems.Internal...) {
		t.Errorf("%v", p)
	}
	byRule := map[string]int{}
	for _, f := range res.Findings {
		byRule[f.Rule]++
		if f.Rule == "parse-error" {
			t.Errorf("%s:%d:%d: parse error on a valid file: %s", f.File, f.Line, f.Column, f.Message)
		}
		if f.Line < 1 || f.Column < 1 || f.Path == "" {
			t.Errorf("%s: finding without a position or path: %+v", f.File, f)
		}
	}
	if len(srcs) < 170 || res.Summary.Objects < 500 || res.Summary.Workloads < 150 {
		t.Errorf("read %d files, %d objects, %d workloads: expected the whole corpus (171 files, 533 objects)", len(srcs), res.Summary.Objects, res.Summary.Workloads)
	}
	for _, s := range res.Skipped {
		if !s.IsDocument() {
			t.Errorf("%s: skipped in a corpus without templates: %s", s.File, s.Reason)
		}
	}
	t.Logf("%d files, %d objects, %d workloads; findings by rule: %v", len(srcs), res.Summary.Objects, res.Summary.Workloads, byRule)
}
