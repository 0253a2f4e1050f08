package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"
)

// The targets of the performance issues, on a 2-CPU machine: the lint
// scenario for 10,000 objects, the placement scenario for its fixed size.
const (
	targetObjects = 10000
	targetCPUs    = 2
	maxRatio      = 1.5 // lint wall / parse-only wall
	maxWall       = 1500 * time.Millisecond
	maxPeakMiB    = 200.0

	placementWorkloads  = 2000
	placementNodes      = 5000
	placementPools      = 40
	maxPlacementWall    = 3 * time.Second
	maxPlacementPeakMiB = 500.0
)

// report prints one table of every command, then the targets of each
// scenario run.
func report(c config, results []result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tobjects\tmedian wall\tmin wall\tobjects/s\tpeak RSS MiB\t")
	for _, r := range results {
		switch {
		case r.unavailable != "": // not tab-terminated: no column widens to it
			fmt.Fprintf(tw, "%s\t%d\t  %s\n", r.name, r.objects, r.unavailable)
		case r.err != nil:
			fmt.Fprintf(tw, "%s\t%d\t  failed: %v\n", r.name, r.objects, r.err)
		default:
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.0f\t%.1f\t\n", r.name, r.objects, secs(r.median()), secs(r.min()),
				float64(r.objects)/r.median().Seconds(), r.peakMiB())
		}
	}
	tw.Flush()
	if c.lint() {
		lintTargets(c, results[0], results[1])
	} else {
		fmt.Printf("\n(%d runs each)\n", c.runs)
	}
	if c.bigfile() {
		bigfileTargets(results[slices.IndexFunc(results, func(r result) bool { return r.name == "bigfile" })])
	}
	if c.placement() {
		placementTargets(results[len(results)-3:])
	}
	if runtime.NumCPU() != targetCPUs {
		fmt.Printf("note: the targets are set for %d CPUs; this run had %d\n", targetCPUs, runtime.NumCPU())
	}
}

func lintTargets(c config, parse, lint result) {
	if !parse.ok() || !lint.ok() {
		fmt.Printf("\ntargets (%d objects, %d CPUs): not measured, a command failed\n", targetObjects, targetCPUs)
		return
	}
	ratio := lint.median().Seconds() / parse.median().Seconds()
	fmt.Printf("\nlint / parse-only (median wall): %.2fx   (%d runs each)\n\n", ratio, c.runs)
	fmt.Printf("targets (%d objects, %d CPUs):\n", targetObjects, targetCPUs)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	target(tw, fmt.Sprintf("lint <= %.1fx parse-only", maxRatio), fmt.Sprintf("%.2fx", ratio), ratio <= maxRatio)
	target(tw, fmt.Sprintf("lint median wall <= %.1f s", maxWall.Seconds()), secs(lint.median()), lint.median() <= maxWall)
	target(tw, fmt.Sprintf("lint peak RSS <= %.0f MiB", maxPeakMiB), fmt.Sprintf("%.1f MiB", lint.peakMiB()), lint.peakMiB() <= maxPeakMiB)
	tw.Flush()
	if c.n != targetObjects {
		fmt.Printf("note: the lint targets are set for %d objects; this run had %d\n", targetObjects, c.n)
	}
}

func placementTargets(results []result) {
	fmt.Printf("\ntargets (%s workloads x %s nodes in %d pools, %d CPUs):\n",
		thousands(placementWorkloads), thousands(placementNodes), placementPools, targetCPUs)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	for _, r := range results {
		wallName := fmt.Sprintf("%s median wall <= %.1f s", r.name, maxPlacementWall.Seconds())
		rssName := fmt.Sprintf("%s peak RSS <= %.0f MiB", r.name, maxPlacementPeakMiB)
		if !r.ok() {
			fmt.Fprintf(tw, "  %s\t-\tn/a\n  %s\t-\tn/a\n", wallName, rssName)
			continue
		}
		target(tw, wallName, secs(r.median()), r.median() <= maxPlacementWall)
		target(tw, rssName, fmt.Sprintf("%.1f MiB", r.peakMiB()), r.peakMiB() <= maxPlacementPeakMiB)
	}
	tw.Flush()
}

func target(tw *tabwriter.Writer, name, measured string, ok bool) {
	verdict := "MISS"
	if ok {
		verdict = "PASS"
	}
	fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, measured, verdict)
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

func thousands(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%s,%03d", thousands(n/1000), n%1000)
}
