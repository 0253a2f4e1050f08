// Package config loads .dslint.yaml: it finds the file, decodes it with
// kyaml, and validates every key and value with the position it is written
// at, so a mistake is reported as FILE:LINE:COL and never ignored.
package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/suggest"
)

// fileNames are the names a config file may have, in order of preference.
// FileName is the name dslint init writes; Find also accepts ".dslint.yml".
const FileName = ".dslint.yaml"

var fileNames = []string{FileName, ".dslint.yml"}

// failOnValues are the severities failOn may name (the lowest that fails the run).
var failOnValues = []string{"error", "warning", "info", "none"}

// RuleSeverities are the values a rule may be set to in `rules`.
var ruleSeverities = []string{"off", "info", "warning", "error"}

// taintEffects are the effects the API server accepts on a node taint.
var taintEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

// knownGates are the Kubernetes feature gates whose semantics dslint models.
var knownGates = []string{"TaintTolerationComparisonOperators"}

// MaxPoolCount bounds a pool's count: Kubernetes supports clusters of at
// most 5000 nodes, and every node of a pool is simulated.
const MaxPoolCount = 5000

// Config is a loaded .dslint.yaml. A key that is absent or null in the file
// is left at its zero value and Has reports false for it, so that defaults
// and flags apply.
type Config struct {
	File string // the path it was loaded from
	Dir  string // the directory of File; relative paths in the file are relative to it

	FailOn       string            // error, warning, info or none
	Rules        map[string]string // rule id -> off, info, warning or error
	SystemTaints []string          // exact taint keys, or prefixes ending in "/"
	Nodes        []string          // node inventory files, resolved against Dir
	Pools        []Pool
	// KubernetesVersion is the target Kubernetes version as "1.MINOR".
	KubernetesVersion string
	Charts            []Chart // Helm charts and the value sets to lint them with
	FeatureGates      map[string]bool
	Exclude           []string // slash-separated globs relative to Dir ("**" spans directories)
	Policies          []string // custom policy directories, resolved against Dir

	name string                  // File as messages name it
	set  map[string]bool         // top-level keys written with a value
	pos  map[string]manifest.Pos // formatted field path -> where it is written
}

// Pool is a named pool of the config. Every pool declares the dedicated
// pattern of its nodes: the labels pods select, the taints that keep other
// pods off, and who may use it (Owners). With Count it is also inventory:
// Count identical nodes that workloads are placed on.
//
// The JSON of a Pool is the declaration as rules read it, at
// data.dslint.config.pools: name, count, labels, taints and owners.
type Pool struct {
	Name   string            `json:"name"`
	Count  int               `json:"count,omitempty"` // 0 when not written: a declaration, with no nodes
	Labels map[string]string `json:"labels,omitempty"`
	Taints []Taint           `json:"taints,omitempty"`
	// Allocatable is what each node of the pool offers pods, quantities as
	// written ("32", 256Gi); nil when not written.
	Allocatable map[string]string `json:"-"`
	Owners      *Owners           `json:"owners,omitempty"` // nil when not written: the pool has no owners
	Pos         manifest.Pos      `json:"-"`                // the pool's item in the pools sequence
}

// Inventory is true for a pool with a count: its nodes are placed on.
func (p Pool) Inventory() bool { return p.Count > 0 }

// Owners are who may use a pool: workloads in one of Namespaces (globs in
// which "*" stands for any run of characters; nil: any namespace) whose pod
// labels Selector matches (nil: any labels).
type Owners struct {
	Namespaces []string     `json:"namespaces,omitempty"`
	Selector   *Selector    `json:"selector,omitempty"`
	Pos        manifest.Pos `json:"-"` // the owners mapping
}

// Selector is a Kubernetes label selector over a workload's pod labels.
type Selector struct {
	MatchLabels      map[string]string `json:"matchLabels,omitempty"`
	MatchExpressions []Requirement     `json:"matchExpressions,omitempty"`
}

// Requirement is one matchExpressions entry of a Selector.
type Requirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Taint is a taint of every node of a pool.
type Taint struct {
	Key    string       `json:"key"`
	Value  string       `json:"value,omitempty"`
	Effect string       `json:"effect"`
	Pos    manifest.Pos `json:"-"` // the taint's item in the taints sequence
}

// Load reads and validates the config file at path. knownRules are the rule
// ids `rules` may name; nil skips that check (see CheckRules). The error is
// Errors, holding every problem found, or the error reading the file.
func Load(path string, knownRules []string) (*Config, error) {
	data, err := manifest.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, knownRules)
}

// LoadWithPolicies reads and validates the config file at path, like Load;
// the rule ids it may name are those knownRules returns for the file's
// policies: (resolved), since custom policies add rules. Every problem is
// reported at once.
func LoadWithPolicies(path string, knownRules func(policies []string) []string) (*Config, error) {
	data, err := manifest.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parse(path, data, func(c *Config) []string { return knownRules(c.Policies) })
}

// Parse validates the config file content data as if read from path.
func Parse(path string, data []byte, knownRules []string) (*Config, error) {
	if knownRules == nil {
		return parse(path, data, nil)
	}
	return parse(path, data, func(*Config) []string { return knownRules })
}

func parse(path string, data []byte, knownRules func(*Config) []string) (*Config, error) {
	c := &Config{
		File: path,
		Dir:  filepath.Dir(path),
		name: manifest.DisplayName(path),
		set:  map[string]bool{},
	}
	c.pos = map[string]manifest.Pos{"": {File: c.name, Line: 1, Column: 1}}
	d := &decoder{cfg: c}
	d.document(manifest.Parse(c.name, data))
	if knownRules != nil {
		d.errs = append(d.errs, c.checkRules(knownRules(c))...)
	}
	if len(d.errs) > 0 {
		return nil, sortErrors(d.errs)
	}
	return c, nil
}

// Has reports whether the top-level key (as written in the file: "failOn",
// "rules", ...) is set to a value, as opposed to absent or null.
func (c *Config) Has(key string) bool { return c.set[key] }

// CheckRules reports every rule id in `rules` that is not one of known, for
// callers that learn the rule set after loading (custom policies come from
// the config itself).
func (c *Config) CheckRules(known []string) error {
	if errs := c.checkRules(known); len(errs) > 0 {
		return sortErrors(errs)
	}
	return nil
}

func (c *Config) checkRules(known []string) Errors {
	var errs Errors
	for _, id := range slices.Sorted(maps.Keys(c.Rules)) {
		if slices.Contains(known, id) {
			continue
		}
		hint := `run "dslint rules" to list them`
		if s := suggest.Closest(id, known); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		errs = append(errs, c.Errorf([]any{"rules", id}, "unknown rule %s (%s)", quote(id), hint))
	}
	return errs
}

// Pos returns where the field at path (string keys, int indexes, as in
// manifest.FormatPath) is written: a key where the key is, a sequence item
// where the item starts. A path that was not written falls back to its
// nearest written parent.
func (c *Config) Pos(path []any) manifest.Pos {
	for n := len(path); n >= 0; n-- {
		if p, ok := c.pos[manifest.FormatPath(path[:n])]; ok {
			return p
		}
	}
	return manifest.Pos{File: c.name, Line: 1, Column: 1}
}

// Errorf makes an error about the field at path, for problems found after
// loading (an inventory file that does not exist, an invalid label key):
// FILE:LINE:COL: path: message.
func (c *Config) Errorf(path []any, format string, args ...any) *manifest.Error {
	msg := fmt.Sprintf(format, args...)
	if p := manifest.FormatPath(path); p != "" {
		msg = p + ": " + msg
	}
	return &manifest.Error{Pos: c.Pos(path), Message: msg}
}

// resolve makes a path written in the config relative to the working
// directory (or absolute).
func (c *Config) resolve(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(c.Dir, p)
}
