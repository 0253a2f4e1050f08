package cli

import (
	"fmt"
	"slices"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/report"
	"github.com/dslint/dslint/internal/suggest"
)

func runRules(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "rules", "dslint rules [--format text|json|markdown] [--policy DIR]")
	format := fs.StringP("format", "f", "text", "output format: "+quoteList(report.CatalogueFormats))
	var policies []string
	registerPolicies(fs, &policies)
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if !oneOf(*format, report.CatalogueFormats) {
		return 0, usagef("unknown --format %q (want %s)", *format, quoteList(report.CatalogueFormats))
	}
	if fs.NArg() > 0 {
		return 0, usagef("rules takes no arguments (did you mean dslint explain %s?)", fs.Arg(0))
	}
	rules, err := ruleCatalogue(policies)
	if err != nil {
		return 0, err
	}
	return ExitOK, report.WriteCatalogue(e.stdout, *format, rules)
}

// ruleCatalogue is the metadata of the built-in rules and of the custom
// policies of dirs, sorted by id. The built-in rules alone are only parsed:
// compiling them would take most of the time. Policies are compiled with
// them, so that one that does not compile is reported.
func ruleCatalogue(dirs []string) ([]finding.Rule, error) {
	if len(dirs) == 0 {
		rules, err := engine.RulesIn(dslint.Policies)
		if err != nil {
			return nil, fmt.Errorf("load rules: %w", err)
		}
		return rules, nil
	}
	policies, err := loadPolicies(dirs)
	if err != nil {
		return nil, err
	}
	c, err := engine.Compile(dslint.Policies, policies, engine.RuleConfig{})
	if err != nil {
		return nil, policyUsageError(err)
	}
	return c.Rules(), nil
}

func runExplain(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "explain", "dslint explain [--policy DIR] RULE")
	var policies []string
	registerPolicies(fs, &policies)
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() != 1 {
		return 0, usagef("explain takes one rule id (see dslint rules)")
	}
	rules, err := ruleCatalogue(policies)
	if err != nil {
		return 0, err
	}
	id := fs.Arg(0)
	i := slices.IndexFunc(rules, func(r finding.Rule) bool { return r.ID == id })
	if i < 0 {
		var ids []string
		for _, r := range rules {
			ids = append(ids, r.ID)
		}
		if s := suggest.Closest(id, ids); s != "" {
			return 0, usagef("unknown rule %q (did you mean %q?)", id, s)
		}
		return 0, usagef("unknown rule %q (see dslint rules)", id)
	}
	return ExitOK, report.Explain(e.stdout, rules[i])
}
