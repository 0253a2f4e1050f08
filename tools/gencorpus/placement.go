package main

// The placement scenario (-placement): a cluster inventory and the
// workloads to place on it, for timing `dslint schedule` and
// `dslint lint --nodes` (SPEC §6):
//
//	DIR/nodes.yaml         `kubectl get nodes -o yaml` of 5,000 nodes in 40 pools
//	DIR/workloads/**.yaml  2,000 workloads in files of 10-60 objects
//	DIR/expected.json      where each workload fits, by the upstream code (internal/differential/oracle)
//
// Its random stream is separate from the corpus's, so the two never shift
// each other.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// placementStream is the second PCG word of the placement scenario's
// stream (the corpus uses 0x5eed).
const placementStream = 0x91ace

// placementStats counts what the placement scenario wrote.
type placementStats struct {
	nodes, pools, cordoned, files, workloads int
	kinds                                    map[string]int
	nodeBytes, workloadBytes                 int64
	eligiblePairs, noFit                     int
}

func (s placementStats) String() string {
	var kinds []string
	for _, k := range placementKinds {
		kinds = append(kinds, fmt.Sprintf("%s=%d", k.kind, s.kinds[k.kind]))
	}
	pairs := s.nodes * s.workloads
	return fmt.Sprintf("nodes=%d pools=%d cordoned=%d nodes.yaml=%.1f MB; workloads=%d files=%d (%s) bytes=%.1f MB; "+
		"eligible pairs=%d of %d (%.1f%%), fitting no node=%d",
		s.nodes, s.pools, s.cordoned, float64(s.nodeBytes)/1e6,
		s.workloads, s.files, strings.Join(kinds, " "), float64(s.workloadBytes)/1e6,
		s.eligiblePairs, pairs, 100*float64(s.eligiblePairs)/float64(pairs), s.noFit)
}

// generatePlacement writes the scenario into dir: nNodes nodes (scaled pool
// sizes) and n workloads.
func generatePlacement(dir string, nNodes, n int, seed uint64) (placementStats, error) {
	if err := ensureEmpty(dir); err != nil {
		return placementStats{}, err
	}
	g := newPlacementGen(seed)
	st := placementStats{kinds: map[string]int{}}
	cl := g.cluster(scalePools(clusterPools, nNodes))
	st.nodes, st.pools, st.cordoned = len(cl.nodes), len(cl.pools), cl.cordoned()
	var buf bytes.Buffer
	g.writeNodeList(&buf, cl)
	st.nodeBytes = int64(buf.Len())
	if err := writeFile(filepath.Join(dir, "nodes.yaml"), buf.Bytes()); err != nil {
		return st, err
	}
	files, placed := g.placementWorkloads(cl, n)
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, f.path), f.data); err != nil {
			return st, err
		}
		st.files++
		st.workloadBytes += int64(len(f.data))
	}
	for _, p := range placed {
		st.workloads++
		st.kinds[p.kind]++
		st.eligiblePairs += p.eligible
		if p.eligible == 0 {
			st.noFit++
		}
	}
	data, err := expectedJSON(cl, placed)
	if err != nil {
		return st, err
	}
	return st, os.WriteFile(filepath.Join(dir, "expected.json"), data, 0o644)
}

func newPlacementGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, placementStream))}
}

// scalePools returns the pools resized to total nodes in proportion
// (largest remainder), each keeping at least one node; at the table's own
// total they are unchanged.
func scalePools(pools []pool, total int) []pool {
	sum := 0
	for _, p := range pools {
		sum += p.size
	}
	out := append([]pool(nil), pools...)
	left := total
	for i := range out {
		out[i].size = pools[i].size * total / sum
		left -= out[i].size
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	rem := func(i int) int { return pools[i].size * total % sum }
	slices.SortStableFunc(order, func(a, b int) int { return rem(b) - rem(a) })
	for _, i := range order[:left] {
		out[i].size++
	}
	for i := range out {
		if out[i].size == 0 {
			out[i].size = 1
			biggest := 0
			for j := range out {
				if out[j].size > out[biggest].size {
					biggest = j
				}
			}
			out[biggest].size--
		}
	}
	return out
}
