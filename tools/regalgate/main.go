// Command regalgate reads Regal's JSON report (regal lint --format json) on
// stdin, prints each violation and their count by category, and fails on
// any violation at Regal's error level.
package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// violation is one problem in Regal's JSON report.
type violation struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Category    string `json:"category"`
	Level       string `json:"level"`
	Location    struct {
		File     string `json:"file"`
		Row, Col int
	} `json:"location"`
}

type report struct {
	Violations []violation `json:"violations"`
	Summary    *struct {
		FilesScanned int `json:"files_scanned"`
	} `json:"summary"`
}

func main() {
	failed, err := run(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "regalgate:", err)
		os.Exit(2)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// run prints the violations of the report read from r and returns how many
// fail the gate.
func run(r io.Reader, w io.Writer) (int, error) {
	var rep report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return 0, fmt.Errorf("read Regal's JSON report: %w", err)
	}
	if rep.Summary == nil || rep.Summary.FilesScanned == 0 {
		return 0, fmt.Errorf("Regal linted no file")
	}
	vs := rep.Violations
	slices.SortFunc(vs, func(a, b violation) int {
		return cmp.Or(strings.Compare(a.Location.File, b.Location.File), cmp.Compare(a.Location.Row, b.Location.Row), cmp.Compare(a.Location.Col, b.Location.Col))
	})
	byCategory := map[string]int{}
	failed := 0
	for _, v := range vs {
		byCategory[v.Category]++
		mark := ""
		if v.Level != "error" {
			mark = " (" + v.Level + ")"
		} else {
			failed++
		}
		fmt.Fprintf(w, "%s:%d:%d: %s/%s: %s%s\n", v.Location.File, v.Location.Row, v.Location.Col, v.Category, v.Title, v.Description, mark)
	}
	var counts []string
	for _, c := range slices.Sorted(maps.Keys(byCategory)) {
		counts = append(counts, fmt.Sprintf("%s %d", c, byCategory[c]))
	}
	summary := fmt.Sprintf("regal: %d files, %d violations", rep.Summary.FilesScanned, len(vs))
	if len(counts) > 0 {
		summary += " (" + strings.Join(counts, ", ") + ")"
	}
	fmt.Fprintln(w, summary)
	return failed, nil
}
