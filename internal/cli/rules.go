package cli

import (
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/report"
	"github.com/dslint/dslint/internal/suggest"
)

func runRules(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "rules", "dslint rules [--format text|json|markdown]")
	format := fs.StringP("format", "f", "text", "output format: "+quoteList(report.CatalogueFormats))
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if !oneOf(*format, report.CatalogueFormats) {
		return 0, usagef("unknown --format %q (want %s)", *format, quoteList(report.CatalogueFormats))
	}
	if fs.NArg() > 0 {
		return 0, usagef("rules takes no arguments (did you mean dslint explain %s?)", fs.Arg(0))
	}
	eng, err := loadEngine(engine.Settings{})
	if err != nil {
		return 0, err
	}
	return ExitOK, report.WriteCatalogue(e.stdout, *format, eng.Rules())
}

func runExplain(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "explain", "dslint explain RULE")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() != 1 {
		return 0, usagef("explain takes one rule id (see dslint rules)")
	}
	eng, err := loadEngine(engine.Settings{})
	if err != nil {
		return 0, err
	}
	id := fs.Arg(0)
	r, ok := eng.Rule(id)
	if !ok {
		var ids []string
		for _, r := range eng.Rules() {
			ids = append(ids, r.ID)
		}
		if s := suggest.Closest(id, ids); s != "" {
			return 0, usagef("unknown rule %q (did you mean %q?)", id, s)
		}
		return 0, usagef("unknown rule %q (see dslint rules)", id)
	}
	return ExitOK, report.Explain(e.stdout, r)
}
