package engine

import (
	"slices"

	"github.com/dslint/dslint/internal/finding"
)

// RuleConfig is what the config file (rules:) and the flags (--enable,
// --disable) say about rules.
type RuleConfig struct {
	Off      []string                    // rules turned off
	Severity map[string]finding.Severity // rules set to another severity
}

// RuleSetting is how one rule runs: what its metadata and the user's
// configuration say about it, decided once when the rules are compiled.
type RuleSetting struct {
	// On is false for a rule turned off: it is not compiled, and no finding
	// of it, raised in Rego or in Go, is ever made.
	On bool
	// Severity is the severity of the rule's findings: the config's, else
	// the metadata's custom.severity.
	Severity finding.Severity
	// Configured is true when the config set Severity: it then holds for
	// every finding of the rule, even one the rule gives a severity of its
	// own (result.with_severity).
	Configured bool
	// NeedsInventory (metadata custom.needs_inventory) marks a rule that
	// finds nothing without a node inventory.
	NeedsInventory bool
	// NeedsOwners (metadata custom.needs_owners) marks a rule that finds
	// nothing unless the config declares a pool with owners.
	NeedsOwners bool
}

// RuleSettings are the settings of every rule, by id.
type RuleSettings map[string]RuleSetting

// newRuleSettings is the table of the rules' metadata with the config
// applied.
func newRuleSettings(rules []finding.Rule, config RuleConfig) RuleSettings {
	s := make(RuleSettings, len(rules))
	for _, r := range rules {
		set := RuleSetting{On: !slices.Contains(config.Off, r.ID), Severity: r.Severity, NeedsInventory: r.NeedsInventory, NeedsOwners: r.NeedsOwners}
		if sev, ok := config.Severity[r.ID]; ok {
			set.Severity, set.Configured = sev, true
		}
		s[r.ID] = set
	}
	return s
}

// Ran is true when the rule could find something in a run: it is on, and
// has the inventory and the declared owners it needs.
func (s RuleSetting) Ran(hasInventory, hasOwners bool) bool {
	return s.On && (hasInventory || !s.NeedsInventory) && (hasOwners || !s.NeedsOwners)
}
