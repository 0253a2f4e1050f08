package main

import (
	"fmt"
	"os"
	"runtime"
	"text/tabwriter"
	"time"
)

// The targets of the performance issue, for 10,000 objects on a 2-CPU
// machine.
const (
	targetObjects = 10000
	targetCPUs    = 2
	maxRatio      = 1.5 // lint wall / parse-only wall
	maxWall       = 2 * time.Second
	maxPeakMiB    = 350.0
)

// report prints the results table and the targets; results[0] is
// parse-only, results[1] lint.
func report(c config, results []result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tobjects\tmedian wall\tmin wall\tobjects/s\tpeak RSS MiB\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.0f\t%.1f\t\n", r.name, c.n, secs(r.median()), secs(r.min()),
			float64(c.n)/r.median().Seconds(), r.peakMiB())
	}
	tw.Flush()
	parse, lint := results[0], results[1]
	ratio := lint.median().Seconds() / parse.median().Seconds()
	fmt.Printf("\nlint / parse-only (median wall): %.2fx   (%d runs each)\n\n", ratio, c.runs)

	fmt.Printf("targets (%d objects, %d CPUs):\n", targetObjects, targetCPUs)
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	target(tw, fmt.Sprintf("lint <= %.1fx parse-only", maxRatio), fmt.Sprintf("%.2fx", ratio), ratio <= maxRatio)
	target(tw, fmt.Sprintf("lint median wall <= %.1f s", maxWall.Seconds()), secs(lint.median()), lint.median() <= maxWall)
	target(tw, fmt.Sprintf("lint peak RSS <= %.0f MiB", maxPeakMiB), fmt.Sprintf("%.1f MiB", lint.peakMiB()), lint.peakMiB() <= maxPeakMiB)
	tw.Flush()
	if c.n != targetObjects || runtime.NumCPU() != targetCPUs {
		fmt.Printf("note: the targets are set for %d objects on %d CPUs; this run had %d objects on %d CPUs\n",
			targetObjects, targetCPUs, c.n, runtime.NumCPU())
	}
}

func target(tw *tabwriter.Writer, name, measured string, ok bool) {
	verdict := "MISS"
	if ok {
		verdict = "PASS"
	}
	fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, measured, verdict)
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }
