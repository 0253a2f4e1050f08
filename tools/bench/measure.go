package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// result is one scenario's samples.
type result struct {
	name    string
	walls   []time.Duration
	peakKiB int64 // highest max RSS over the runs
}

func (r result) median() time.Duration {
	s := slices.Sorted(slices.Values(r.walls))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r result) min() time.Duration { return slices.Min(r.walls) }
func (r result) peakMiB() float64   { return float64(r.peakKiB) / 1024 }

// measure runs each scenario runs times. Scenarios alternate within a
// round so that drift (thermal throttling, a noisy neighbour) hits both
// alike; one untimed round first warms the page cache and the binary.
func measure(bin, corpus string, runs int) ([]result, error) {
	results := []result{{name: "parse-only"}, {name: "lint"}}
	args := [][]string{
		{"lint", "--parse-only", "-q", "-f", "json", corpus},
		{"lint", "-q", "-f", "json", corpus},
	}
	for round := -1; round < runs; round++ {
		for i := range results {
			wall, rss, err := runOnce(bin, args[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", results[i].name, err)
			}
			if round < 0 {
				continue
			}
			results[i].walls = append(results[i].walls, wall)
			results[i].peakKiB = max(results[i].peakKiB, rss)
		}
	}
	return results, nil
}

// runOnce runs dslint once with stdout discarded and returns its wall time
// and peak RSS in KiB. Exit 1 only means findings, which the corpus has on
// purpose; any other non-zero exit is a failure.
func runOnce(bin string, args []string) (time.Duration, int64, error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	defer devnull.Close()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = devnull, &stderr // a file: no copying goroutine
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return 0, 0, err
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		return 0, 0, fmt.Errorf("exit status %d: %s", code, strings.TrimSpace(stderr.String()))
	}
	return wall, maxRSSKiB(cmd.ProcessState), nil
}

// maxRSSKiB reads the child's peak RSS from its rusage: KiB on Linux,
// bytes on macOS.
func maxRSSKiB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
