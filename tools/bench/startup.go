package main

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"
)

// The startup scenario: what dslint costs before its input is large enough
// to matter. `dslint version` is the process floor (start, runtime, package
// initialisation); one small file adds compiling the rules and judging two
// objects, which is what a pre-commit hook or an editor pays on every call.
const (
	smallFile        = "examples/manifests/gpu-training.yaml"
	maxSmallFileWall = 40 * time.Millisecond
)

// startupCommands are the process floor and one small file, by absolute
// path: dslint runs in the temporary directory of its binary.
func startupCommands(root string) []command {
	return []command{
		{name: "dslint version", args: []string{"version"}},
		{name: "one small file", args: []string{"lint", filepath.Join(root, smallFile)}, objects: 2},
	}
}

// runStartup times the startup commands, runs times each, and prints them in
// milliseconds with the target; results are returned for the failure check.
func runStartup(bin, root string, runs int, timeout time.Duration) []result {
	results := measure(bin, startupCommands(root), runs, timeout)
	fmt.Printf("\nstartup (%s; %d runs each):\n", smallFile, runs)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tmedian wall\tmin wall\tpeak RSS MiB\t")
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(tw, "%s\t  failed: %v\n", r.name, r.err)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t\n", r.name, millis(r.median()), millis(r.min()), r.peakMiB())
	}
	tw.Flush()
	floor, small := results[0], results[1]
	fmt.Printf("\ntargets (startup, %d CPUs):\n", targetCPUs)
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	name := fmt.Sprintf("one small file median wall <= %s", millis(maxSmallFileWall))
	if !small.ok() {
		fmt.Fprintf(tw, "  %s\t-\tn/a\n", name)
	} else {
		target(tw, name, millis(small.median()), small.median() <= maxSmallFileWall)
	}
	if floor.ok() && small.ok() {
		fmt.Fprintf(tw, "  (of which the process floor, dslint version)\t%s\t\n", millis(floor.median()))
	}
	tw.Flush()
	return results
}

func millis(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
