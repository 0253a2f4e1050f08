package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
)

// fileCoverage is how much of one policy file (not a test) the tests
// evaluate, in lines that hold a rule head or an expression.
type fileCoverage struct {
	File       string   `json:"file"`
	Covered    int      `json:"covered"`
	Total      int      `json:"total"`
	Percent    float64  `json:"percent"`
	NotCovered [][2]int `json:"not_covered"` // first and last line of each uncovered span
}

// coverageOf reads OPA's coverage report of the policy files, sorted by
// file; the report also covers the built-in modules and the tests, which
// are left out. A line the tests evaluated in part (one of two rule bodies
// on it, say) counts as covered.
func coverageOf(report cover.Report, policies map[string]*ast.Module) []fileCoverage {
	out := []fileCoverage{}
	for file, fr := range report.Files {
		if policies[file] == nil {
			continue
		}
		covered := rows(fr.Covered)
		uncovered := rows(fr.NotCovered)
		uncovered = slices.DeleteFunc(uncovered, func(r int) bool { return slices.Contains(covered, r) })
		fc := fileCoverage{File: file, Covered: len(covered), Total: len(covered) + len(uncovered), NotCovered: spans(uncovered)}
		if fc.Total > 0 {
			fc.Percent = float64(int(1000*float64(fc.Covered)/float64(fc.Total))) / 10
		}
		out = append(out, fc)
	}
	slices.SortFunc(out, func(a, b fileCoverage) int { return strings.Compare(a.File, b.File) })
	return out
}

// rows are the distinct lines of ranges, sorted.
func rows(ranges []cover.Range) []int {
	var out []int
	for _, r := range ranges {
		for row := r.Start.Row; row <= r.End.Row; row++ {
			out = append(out, row)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// spans groups sorted lines into runs of consecutive lines.
func spans(lines []int) [][2]int {
	out := [][2]int{}
	for _, l := range lines {
		if n := len(out); n > 0 && out[n-1][1] == l-1 {
			out[n-1][1] = l
			continue
		}
		out = append(out, [2]int{l, l})
	}
	return out
}

func writeCoverage(w io.Writer, files []fileCoverage) {
	fmt.Fprintln(w, "coverage of the policies (lines with a rule or an expression):")
	if len(files) == 0 {
		fmt.Fprintln(w, "  no policy files (only tests)")
	}
	var covered, total int
	for _, f := range files {
		covered, total = covered+f.Covered, total+f.Total
		fmt.Fprintf(w, "  %s: %d/%d lines, %s", f.File, f.Covered, f.Total, percent(f.Covered, f.Total))
		if len(f.NotCovered) > 0 {
			fmt.Fprintf(w, "; not covered: %s", formatSpans(f.NotCovered))
		}
		fmt.Fprintln(w)
	}
	if len(files) > 1 {
		fmt.Fprintf(w, "  total: %d/%d lines, %s\n", covered, total, percent(covered, total))
	}
}

func percent(covered, total int) string {
	if total == 0 {
		return "no rules"
	}
	return fmt.Sprintf("%.1f%%", float64(int(1000*float64(covered)/float64(total)))/10)
}

func formatSpans(ss [][2]int) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(s[0])
		if s[1] != s[0] {
			parts[i] += "-" + strconv.Itoa(s[1])
		}
	}
	return strings.Join(parts, ", ")
}
