// Command bench measures dslint on generated inputs (make bench):
//
//	go run ./tools/bench [-scenario all|lint|placement|bigfile|startup|helm] [-n 10000] [-runs 5] [-startup-runs 30] [-timeout 10m] [-keep]
//
// It builds cmd/dslint and generates its inputs with tools/gencorpus (each
// reused while its parameters and the generator's source are unchanged):
//
//   - lint: .bench/corpus, n workloads; times `dslint lint --parse-only` and
//     `dslint lint`.
//   - placement: .bench/placement, 2,000 workloads and nodes.yaml, 5,000
//     nodes in 40 pools; times `dslint schedule` (text and JSON) and
//     `dslint lint --nodes`. Until dslint has `schedule` and `--nodes`, these
//     are reported as not available.
//   - bigfile: .bench/bigfile.yaml, 50,000 workloads in one multi-document
//     file (bigfile.go); times `dslint lint` on it.
//   - startup: `dslint version` (the process floor) and `dslint lint` of
//     one small file (startup.go), timed -startup-runs times each.
//
// Commands run as subprocesses, their output discarded; the results are
// compared with the performance targets. It reports misses; it does not
// fail on them, since timings depend on the machine. It fails when a
// command fails (exit status other than 0 or 1).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

type config struct {
	n, runs  int
	startups int // runs of the startup scenario
	keep     bool
	scenario string
	timeout  time.Duration
}

func (c config) lint() bool      { return c.scenario == "all" || c.scenario == "lint" }
func (c config) placement() bool { return c.scenario == "all" || c.scenario == "placement" }
func (c config) bigfile() bool   { return c.scenario == "all" || c.scenario == "bigfile" }
func (c config) startup() bool   { return c.scenario == "all" || c.scenario == "startup" }
func (c config) helm() bool      { return c.scenario == "all" || c.scenario == "helm" }

func main() {
	var c config
	flag.IntVar(&c.n, "n", 10000, "number of workload objects in the lint scenario's corpus")
	flag.IntVar(&c.runs, "runs", 5, "timed runs per command")
	flag.IntVar(&c.startups, "startup-runs", 30, "timed runs per command of the startup scenario")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary directory holding the built binary")
	flag.StringVar(&c.scenario, "scenario", "all", "what to time: all, lint (the corpus), placement (nodes and workloads), bigfile (one large file), helm (real charts rendered in process) or startup (version, one small file)")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Minute, "kill a dslint run after this long and report the command as failed")
	flag.Parse()
	if c.n < 1 || c.runs < 1 || c.startups < 1 || c.timeout <= 0 || flag.NArg() > 0 || !slices.Contains([]string{"all", "lint", "placement", "bigfile", "startup", "helm"}, c.scenario) {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "dslint-bench-")
	if err != nil {
		return err
	}
	if c.keep {
		defer fmt.Printf("kept %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	bin := filepath.Join(tmp, "dslint")
	if err := goCmd(root, nil, "build", "-o", bin, "./cmd/dslint"); err != nil {
		return fmt.Errorf("build dslint: %w", err)
	}
	var cmds []command
	var descs []string
	if c.lint() {
		corpus, desc, err := ensureCorpus(root, c.n)
		if err != nil {
			return err
		}
		descs = append(descs, fmt.Sprintf("corpus %s: %s", relTo(root, corpus), desc))
		cmds = append(cmds, lintCommands(corpus, c.n)...)
	}
	if c.bigfile() {
		path, desc, err := ensureBigfile(root)
		if err != nil {
			return err
		}
		descs = append(descs, fmt.Sprintf("bigfile %s: %s", relTo(root, path), desc))
		cmds = append(cmds, bigfileCommands(path)...)
	}
	if c.helm() {
		helmCmds, desc := helmCommands(root)
		descs = append(descs, desc)
		cmds = append(cmds, helmCmds...)
	}
	if c.placement() {
		dir, desc, err := ensurePlacement(root)
		if err != nil {
			return err
		}
		descs = append(descs, fmt.Sprintf("placement %s: %s", relTo(root, dir), desc))
		cmds = append(cmds, placementCommands(dir)...)
	}
	fmt.Printf("%s %s/%s, %d CPUs (GOMAXPROCS %d)\n", runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), runtime.GOMAXPROCS(0))
	if len(descs) > 0 {
		fmt.Printf("%s\n\n", strings.Join(descs, "\n"))
	}
	var results []result
	if len(cmds) > 0 {
		results = measure(bin, cmds, c.runs, c.timeout)
		report(c, results)
	}
	if c.startup() {
		results = append(results, runStartup(bin, root, c.startups, c.timeout)...)
	}
	var failed []string
	for _, r := range results {
		if r.err != nil {
			failed = append(failed, r.name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("failed: %s (see the table)", strings.Join(failed, ", "))
	}
	return nil
}

// lintCommands time the lint scenario: parsing alone, then linting.
func lintCommands(corpus string, n int) []command {
	return []command{
		{name: "parse-only", args: []string{"lint", "--parse-only", "-q", "-f", "json", corpus}, objects: n},
		{name: "lint", args: []string{"lint", "-q", "-f", "json", corpus}, objects: n},
	}
}

// placementCommands time the placement scenario; they are optional until
// dslint has `schedule` and `--nodes`.
func placementCommands(dir string) []command {
	nodes, workloads := filepath.Join(dir, "nodes.yaml"), filepath.Join(dir, "workloads")
	return []command{
		{name: "schedule", args: []string{"schedule", "--nodes", nodes, workloads}, objects: placementWorkloads, optional: true},
		{name: "schedule -f json", args: []string{"schedule", "--format", "json", "--nodes", nodes, workloads}, objects: placementWorkloads, optional: true},
		{name: "lint --nodes", args: []string{"lint", "--nodes", nodes, workloads}, objects: placementWorkloads, optional: true},
	}
}

// moduleRoot is the directory of the main module's go.mod, so the tool
// works from any directory of the repository.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// goCmd runs the go command in dir, its stdout into stdout (or the
// terminal when nil) and its stderr to ours, so build errors show.
func goCmd(dir string, stdout *bytes.Buffer, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if stdout != nil {
		cmd.Stdout = stdout
	}
	return cmd.Run()
}

func relTo(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil {
		return rel
	}
	return path
}
