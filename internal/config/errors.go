package config

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/manifest"
)

// Errors is every problem found in one config file, in file order, each at
// the position of the offending key or value. Its message is one line per
// problem (FILE:LINE:COL: message); errors.As finds the first
// *manifest.Error.
type Errors []*manifest.Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap exposes every problem to errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// sortErrors orders problems by position, then message, and drops exact
// repeats (a mapping reached through two aliases is checked twice).
func sortErrors(es Errors) Errors {
	slices.SortStableFunc(es, func(a, b *manifest.Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), strings.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(es, func(a, b *manifest.Error) bool { return *a == *b })
}
