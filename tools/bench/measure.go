package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// command is one timed dslint invocation. optional marks one that may not
// exist yet (a subcommand or flag still being written): dslint rejecting it
// as unknown makes it unavailable rather than a failure.
type command struct {
	name     string
	args     []string
	objects  int // workloads, for objects/s
	optional bool
}

// result is one command's samples, or why there are none.
type result struct {
	command
	walls       []time.Duration
	peakKiB     int64  // highest max RSS over the runs
	unavailable string // "not available: <dslint's first stderr line>"
	err         error
}

func (r result) ok() bool { return r.unavailable == "" && r.err == nil }

func (r result) median() time.Duration {
	s := slices.Sorted(slices.Values(r.walls))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r result) min() time.Duration { return slices.Min(r.walls) }
func (r result) peakMiB() float64   { return float64(r.peakKiB) / 1024 }

// measure runs each command runs times. Commands alternate within a round
// so that drift (thermal throttling, a noisy neighbour) hits all alike; one
// untimed round first warms the page cache and the binary, and finds the
// commands that are unavailable or fail, which are not run again.
func measure(bin string, cmds []command, runs int, timeout time.Duration) []result {
	results := make([]result, len(cmds))
	for i, c := range cmds {
		results[i].command = c
	}
	for round := -1; round < runs; round++ {
		for i := range results {
			r := &results[i]
			if !r.ok() {
				continue
			}
			wall, rss, err := runOnce(bin, r.args, timeout)
			if err != nil {
				if u, ok := err.(unknownError); ok && r.optional {
					r.unavailable = "not available: " + string(u)
				} else {
					r.err = err
				}
				continue
			}
			if round < 0 {
				continue
			}
			r.walls = append(r.walls, wall)
			r.peakKiB = max(r.peakKiB, rss)
		}
	}
	return results
}

// unknownError is dslint's usage error (exit 2) for something it does not
// know: a flag, or a subcommand, which it then reads as a missing PATH
// ("dslint: schedule: no such file or directory"); the value is stderr's
// first line.
type unknownError string

func (e unknownError) Error() string { return "exit status 2: " + string(e) }

// runOnce runs dslint once with stdout discarded and returns its wall time
// and peak RSS in KiB. Exit 1 only means findings, which the inputs have on
// purpose; any other non-zero exit is a failure.
func runOnce(bin string, args []string, timeout time.Duration) (time.Duration, int64, error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	defer devnull.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...) // killed at the timeout
	cmd.Dir = filepath.Dir(bin)                   // holds no file named like a subcommand
	cmd.Stdout, cmd.Stderr = devnull, &stderr     // a file: no copying goroutine
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return 0, 0, err
	}
	if ctx.Err() != nil {
		return 0, 0, fmt.Errorf("killed after %s (-timeout)", timeout)
	}
	msg := strings.TrimSpace(stderr.String())
	first, rest, _ := strings.Cut(msg, "\n")
	switch code := cmd.ProcessState.ExitCode(); {
	case code == 2 && (strings.Contains(msg, "unknown") || strings.Contains(first, args[0]+": no such file")):
		return 0, 0, unknownError(first)
	case code != 0 && code != 1:
		return 0, 0, fmt.Errorf("exit status %d: %s%s", code, first, moreLines(rest))
	}
	return wall, maxRSSKiB(cmd.ProcessState), nil
}

// moreLines says how much of stderr was left out: dslint may report the
// same error for every one of thousands of objects.
func moreLines(rest string) string {
	if rest == "" {
		return ""
	}
	return fmt.Sprintf(" (and %d more lines of stderr)", strings.Count(rest, "\n")+1)
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
