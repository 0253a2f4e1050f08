package policytest

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
)

// FileCoverage is how much of one policy file (not a test) the tests
// evaluate, in lines that hold a rule head or an expression.
type FileCoverage struct {
	File       string   `json:"file"`
	Covered    int      `json:"covered"`
	Total      int      `json:"total"`
	Percent    float64  `json:"percent"`     // to a tenth, rounded down
	NotCovered [][2]int `json:"not_covered"` // first and last line of each uncovered span
}

// coverageOf reads OPA's coverage report of the policy files, sorted by
// file; the report also covers the built-in modules and the tests, which
// are left out. A line the tests evaluated in part (one of two rule bodies
// on it, say) counts as covered.
func coverageOf(report cover.Report, policies map[string]*ast.Module) []FileCoverage {
	out := []FileCoverage{}
	for file, fr := range report.Files {
		if policies[file] == nil {
			continue
		}
		covered := rows(fr.Covered)
		uncovered := rows(fr.NotCovered)
		uncovered = slices.DeleteFunc(uncovered, func(r int) bool { return slices.Contains(covered, r) })
		fc := FileCoverage{File: file, Covered: len(covered), Total: len(covered) + len(uncovered), NotCovered: spans(uncovered)}
		fc.Percent = Percent(fc.Covered, fc.Total)
		out = append(out, fc)
	}
	slices.SortFunc(out, func(a, b FileCoverage) int { return strings.Compare(a.File, b.File) })
	return out
}

// Percent is covered out of total in percent, rounded down to a tenth; 0
// when total is 0.
func Percent(covered, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(int(1000*float64(covered)/float64(total))) / 10
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
