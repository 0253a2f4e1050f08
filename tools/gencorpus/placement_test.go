package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestPoolTable(t *testing.T) {
	if len(clusterPools) != 40 || defaultNodes != 5000 {
		t.Fatalf("%d pools of %d nodes, want 40 of 5000", len(clusterPools), defaultNodes)
	}
	seen := map[string]bool{}
	for _, p := range clusterPools {
		if seen[p.name] {
			t.Errorf("pool %s twice", p.name)
		}
		seen[p.name] = true
		if _, ok := instances[p.instanceType]; !ok {
			t.Errorf("pool %s: unknown instance type %s", p.name, p.instanceType)
		}
	}
	for _, total := range []int{100, 1000, 5000, 12345} {
		if got := sumSizes(scalePools(clusterPools, total)); got != total {
			t.Errorf("scalePools(%d) sums to %d", total, got)
		}
	}
}

// TestPlacementDeterministic generates a small scenario twice and checks
// that it is the same bytes, and that every case fits where it is meant to.
func TestPlacementDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	st, err := generatePlacement(a, 600, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generatePlacement(b, 600, 300, 1); err != nil {
		t.Fatal(err)
	}
	if ha, hb := treeHash(t, a), treeHash(t, b); ha != hb {
		t.Fatalf("two runs differ: %s vs %s", ha, hb)
	}
	if st.nodes != 600 || st.workloads != 300 || st.kinds["DaemonSet"] == 0 {
		t.Errorf("stats %v", st)
	}
}

// TestCaseExpectations checks the expectations the generator writes (from
// the upstream oracle) on the full scenario: the mistakes fit no node, the
// wildcard fits every node.
func TestCaseExpectations(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 5,000 nodes")
	}
	g := newPlacementGen(1)
	cl := g.cluster(clusterPools)
	var buf bytes.Buffer
	w := &yw{buf: &buf}
	for i := range placementCases {
		cs := &placementCases[i]
		kind := placementKinds[0]
		if cs.name[:3] == "ds-" {
			kind = placementKinds[len(placementKinds)-1]
		}
		for range 3 {
			p := g.placementWorkload(w, cl, planItem{cs, kind}, 0)
			switch cs.name {
			case "select-no-tolerate", "wrong-pool", "conflict", "legacy-master":
				if p.eligible != 0 {
					t.Errorf("%s: fits %d nodes, want none", cs.name, p.eligible)
				}
			case "wildcard", "ds-wildcard":
				if p.eligible != len(cl.nodes) {
					t.Errorf("%s: fits %d nodes, want all %d", cs.name, p.eligible, len(cl.nodes))
				}
			default:
				if p.eligible == 0 && cs.name != "node-name" && cs.name != "hostname" {
					t.Errorf("%s: fits no node", cs.name)
				}
			}
		}
	}
}

func treeHash(t *testing.T, dir string) string {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
