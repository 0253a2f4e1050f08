package main

import "testing"

// TestCorpusUnchanged pins the default corpus of the lint scenario: the
// placement scenario shares the pod spec code and must not change it. If
// the change is intended, update the hash (the cached .bench/corpus is
// regenerated anyway, since its stamp hashes the generator's source).
func TestCorpusUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 35 MB")
	}
	dir := t.TempDir()
	if _, err := generate(dir, 10000, 1); err != nil {
		t.Fatal(err)
	}
	const want = "80ad1dad291d9390d749d69724671ebe6112d6905f0876591e9f7a637335e7c9"
	if got := treeHash(t, dir); got != want {
		t.Errorf("corpus hash %s, want %s", got, want)
	}
}
