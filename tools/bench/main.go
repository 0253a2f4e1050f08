// Command bench measures dslint on a generated corpus (make bench):
//
//	go run ./tools/bench [-n 10000] [-runs 5] [-keep]
//
// It builds cmd/dslint, generates the corpus with tools/gencorpus into
// .bench/corpus (reused while its parameters and the generator's source are
// unchanged), then times `dslint lint --parse-only` and `dslint lint` as
// subprocesses and compares them with the performance targets. It reports
// misses; it does not fail on them, since timings depend on the machine.
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
	"strings"
)

type config struct {
	n, runs int
	keep    bool
}

func main() {
	var c config
	flag.IntVar(&c.n, "n", 10000, "number of workload objects in the corpus")
	flag.IntVar(&c.runs, "runs", 5, "timed runs per scenario")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary directory holding the built binary")
	flag.Parse()
	if c.n < 1 || c.runs < 1 || flag.NArg() > 0 {
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
	corpus, desc, err := ensureCorpus(root, c.n)
	if err != nil {
		return err
	}
	fmt.Printf("%s %s/%s, %d CPUs (GOMAXPROCS %d)\n", runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Printf("corpus %s: %s\n\n", relTo(root, corpus), desc)
	results, err := measure(bin, corpus, c.runs)
	if err != nil {
		return err
	}
	report(c, results)
	return nil
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
