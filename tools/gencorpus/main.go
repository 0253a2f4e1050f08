// Command gencorpus writes a synthetic corpus of Kubernetes workload
// manifests for benchmarking dslint. The output is deterministic: the same
// -n and -seed always give the same bytes, so timings taken on different
// days and machines measure the linter, not the input.
//
//	go run ./tools/gencorpus -n 10000 -o DIR
//
// It writes exactly -n workload objects (Deployment, DaemonSet, StatefulSet,
// Job, CronJob, Pod, ReplicaSet), about 3.5 KB of YAML each, spread like a
// real repository over nested directories: single-object files and
// multi-document files of 2-19 objects, the latter also carrying some
// ConfigMaps and Services. YAML is written with fmt rather than a YAML
// library so that the bytes do not depend on a library's formatting choices.
//
//	go run ./tools/gencorpus -placement [-n 2000] [-nodes 5000] -o DIR
//
// writes the placement scenario instead (see placement.go): nodes.yaml, a
// `kubectl get nodes -o yaml` inventory of 5,000 nodes in 40 pools, and
// 2,000 workloads under DIR/workloads whose node constraints cover every
// case of SPEC §6, with expected.json saying where each one fits.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

func main() {
	n := flag.Int("n", 10000, "number of workload objects to write (default 2000 with -placement)")
	out := flag.String("o", "", "output `DIR`; created, and must be absent or empty")
	seed := flag.Uint64("seed", 1, "random seed")
	placement := flag.Bool("placement", false, "write the placement scenario: nodes.yaml, workloads/, expected.json")
	nodes := flag.Int("nodes", defaultNodes, "with -placement: number of nodes, the 40 pools scaled to it")
	flag.Parse()
	if *placement && !flagSet("n") {
		*n = 2000
	}
	if *out == "" || *n < 1 || flag.NArg() > 0 || (*placement && (*n < 200 || *nodes < 100)) {
		fmt.Fprintln(os.Stderr, "usage: gencorpus [-n N] [-seed S] -o DIR\n       gencorpus -placement [-n N>=200] [-nodes N>=100] [-seed S] -o DIR")
		os.Exit(2)
	}
	var st fmt.Stringer
	var err error
	if *placement {
		st, err = generatePlacement(*out, *nodes, *n, *seed)
	} else {
		st, err = generate(*out, *n, *seed)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
	fmt.Println(st)
}

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// stats counts what was written; extras are the non-workload documents.
type stats struct {
	files, workloads, configMaps, services int
	bytes                                  int64
}

func (s stats) String() string {
	return fmt.Sprintf("files=%d objects=%d extra=%d (ConfigMap=%d Service=%d) bytes=%d (%.1f MB)",
		s.files, s.workloads, s.configMaps+s.services, s.configMaps, s.services,
		s.bytes, float64(s.bytes)/1e6)
}

// generate writes the corpus into dir, one file per iteration, until n
// workloads are written.
func generate(dir string, n int, seed uint64) (stats, error) {
	if err := ensureEmpty(dir); err != nil {
		return stats{}, err
	}
	// PCG is a fully specified algorithm, so the stream (and the corpus)
	// stays the same across Go releases, unlike the global source.
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
	var st stats
	var buf bytes.Buffer
	for st.workloads < n {
		k := min(g.docsInFile(), n-st.workloads)
		buf.Reset()
		g.file(&buf, k, &st)
		path := filepath.Join(dir, g.filePath(st.files, k))
		if err := writeFile(path, buf.Bytes()); err != nil {
			return st, err
		}
		st.files++
		st.bytes += int64(buf.Len())
	}
	return st, nil
}

// ensureEmpty creates dir, refusing one with contents: mixing two corpora
// would silently change the object count a benchmark divides by.
func ensureEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty; remove it first", dir)
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// file writes k workloads separated by "---"; multi-document files also get
// the odd ConfigMap or Service next to a workload, as bundles often do.
func (g *gen) file(buf *bytes.Buffer, k int, st *stats) {
	w := &yw{buf: buf}
	for i := range k {
		if i > 0 {
			buf.WriteString("---\n")
		}
		name := g.workload(w, st.workloads)
		st.workloads++
		if k == 1 {
			continue
		}
		switch r := g.r.IntN(100); {
		case r < 8:
			buf.WriteString("---\n")
			g.configMap(w, name)
			st.configMaps++
		case r < 18:
			buf.WriteString("---\n")
			g.service(w, name)
			st.services++
		}
	}
}

// docsInFile is the number of workloads in the next file: 40% single-object
// files, the rest bundles of 2-19, about 6.7 per file on average.
func (g *gen) docsInFile() int {
	if g.chance(40) {
		return 1
	}
	return g.between(2, 19)
}

var (
	envDirs   = []string{"base", "overlays/dev", "overlays/staging", "overlays/prod", "clusters/eu-west-1", "clusters/us-east-1"}
	teamDirs  = []string{"payments", "search", "identity", "platform", "data", "ml", "edge", "observability", "checkout", "catalog", "messaging", "billing"}
	appDirs   = []string{"api", "worker", "gateway", "scheduler", "exporter", "agent", "db", "cache"}
	fileStems = []string{"deploy", "workload", "app", "manifests", "all", "release", "bundle"}
)

// filePath places file number i (holding k objects) at env/team[/app]/stem,
// so directories nest two or three deep and hold a handful of files each.
func (g *gen) filePath(i, k int) string {
	dir := filepath.Join(g.pick(envDirs), g.pick(teamDirs))
	if g.chance(60) {
		dir = filepath.Join(dir, g.pick(appDirs))
	}
	stem := "object"
	if k > 1 {
		stem = g.pick(fileStems)
	}
	ext := ".yaml"
	if g.chance(10) {
		ext = ".yml"
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%04d%s", stem, i, ext))
}

// gen holds the random stream; every choice goes through it, in a fixed
// order, which is what makes the output reproducible.
//
// The placement scenario decides a pod's node constraints before writing it
// (to work out where it fits): placement, when set, replaces the random
// scheduling fields, and hostNetwork records what the last DaemonSet pod
// spec chose, since that changes which taints the DaemonSet tolerates.
type gen struct {
	r           *rand.Rand
	placement   *scheduling
	hostNetwork bool
}

func (g *gen) chance(percent int) bool   { return g.r.IntN(100) < percent }
func (g *gen) between(lo, hi int) int    { return lo + g.r.IntN(hi-lo+1) }
func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }
func (g *gen) pickKV(list []kv) kv       { return list[g.r.IntN(len(list))] }
func (g *gen) hex(n int) string          { return fmt.Sprintf("%0*x", n, g.r.Uint64())[:n] }
func (g *gen) version() string {
	return fmt.Sprintf("v%d.%d.%d", g.r.IntN(4), g.r.IntN(30), g.r.IntN(12))
}

// kv is a label, annotation, selector or env entry; slices of kv rather
// than maps keep the output order fixed.
type kv struct{ k, v string }

// yw writes YAML line by line at the current indentation.
type yw struct {
	buf    *bytes.Buffer
	indent int
}

// f writes one line at the current indentation.
func (w *yw) f(format string, args ...any) {
	for range w.indent {
		w.buf.WriteByte(' ')
	}
	fmt.Fprintf(w.buf, format, args...)
	w.buf.WriteByte('\n')
}

// in writes body one level deeper: the block under a "key:" line.
func (w *yw) in(body func()) {
	w.indent += 2
	body()
	w.indent -= 2
}

// item writes a sequence entry "- head" whose remaining fields, written by
// body, line up under head.
func (w *yw) item(head string, body func()) {
	w.f("- %s", head)
	if body != nil {
		w.in(body)
	}
}

// mapping writes "key:" and the pairs below it, quoting every value so that
// "true" or "8080" stay strings.
func (w *yw) mapping(key string, pairs []kv) {
	if len(pairs) == 0 {
		return
	}
	w.f("%s:", key)
	w.in(func() {
		for _, p := range pairs {
			w.f("%s: %q", p.k, p.v)
		}
	})
}
