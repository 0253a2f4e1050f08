package cli

import (
	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
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
	rules, err := loadRulesWith(policies)
	if err != nil {
		return 0, err
	}
	return ExitOK, report.WriteCatalogue(e.stdout, *format, rules.Rules())
}

// loadRulesWith compiles the built-in rules and the custom policies of dirs.
func loadRulesWith(dirs []string) (*engine.Compiled, error) {
	if len(dirs) == 0 {
		return loadRules()
	}
	policies, err := loadPolicies(dirs)
	if err != nil {
		return nil, err
	}
	c, err := engine.Compile(dslint.Policies, policies, engine.RuleConfig{})
	if err != nil {
		return nil, policyUsageError(err)
	}
	return c, nil
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
	rules, err := loadRulesWith(policies)
	if err != nil {
		return 0, err
	}
	id := fs.Arg(0)
	r, ok := rules.Rule(id)
	if !ok {
		var ids []string
		for _, r := range rules.Rules() {
			ids = append(ids, r.ID)
		}
		if s := suggest.Closest(id, ids); s != "" {
			return 0, usagef("unknown rule %q (did you mean %q?)", id, s)
		}
		return 0, usagef("unknown rule %q (see dslint rules)", id)
	}
	return ExitOK, report.Explain(e.stdout, r)
}
