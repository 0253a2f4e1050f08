// Command gendocs regenerates docs/rules.md and the rule table of README.md
// from the rules' metadata (make docs). A test fails when either is stale.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/report"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run() error {
	rules, err := engine.Compile(dslint.Policies, nil, engine.RuleConfig{})
	if err != nil {
		return err
	}
	var doc bytes.Buffer
	if err := report.WriteCatalogue(&doc, "markdown", rules.Rules()); err != nil {
		return err
	}
	if err := os.WriteFile("docs/rules.md", doc.Bytes(), 0o644); err != nil {
		return err
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		return err
	}
	updated, err := report.ReplaceRuleTable(readme, report.CatalogueTable(rules.Rules(), "docs/rules.md"))
	if err != nil {
		return fmt.Errorf("README.md: %w", err)
	}
	return os.WriteFile("README.md", updated, 0o644)
}
