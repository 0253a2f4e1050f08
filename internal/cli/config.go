package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/spf13/pflag"

	"github.com/dslint/dslint"
	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/helm"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/suggest"
)

// runConfig is what a lint or schedule run takes from .dslint.yaml and the
// flags, flags first.
type runConfig struct {
	file      *config.Config    // nil without a config file
	cluster   engine.Cluster    // what rules read of the target cluster
	rules     engine.RuleConfig // the rules turned off or set to another severity
	nodes     []*inventory.Node
	probes    []*inventory.Node // the pools declared without nodes (lint.Options.Probes)
	nodeFiles []string          // the inventory files: --nodes, else nodes: of the config
	failOn    string
	// compiled waits for the rules, compiled while the inventory loads.
	compiled func() (*engine.Compiled, error)
	helm     lint.Charts // how charts are rendered
}

// helmOptions checks the Helm flags and takes the value sets of the
// config's charts; the charts' Kubernetes version is the target one
// unless --kube-version says otherwise.
func (rc *runConfig) helmOptions(o helm.Options) error {
	if o.KubeVersion == "" {
		o.KubeVersion = rc.cluster.KubernetesVersion
	} else if err := helm.CheckKubeVersion(o.KubeVersion); err != nil {
		return usagef("--kube-version %s: %v", o.KubeVersion, err)
	}
	if o.ReleaseName != "" {
		if err := helm.CheckReleaseName(o.ReleaseName); err != nil {
			return usagef("--release-name %s: %v", o.ReleaseName, err)
		}
	}
	rc.helm = lint.Charts{Options: o}
	if rc.file == nil {
		return nil
	}
	rc.helm.ValueSets = map[string][]lint.ValueSet{}
	for i, c := range rc.file.Charts {
		if !manifest.ChartIn(c.Path) {
			return usageError{rc.file.Errorf([]any{"charts", i, "path"}, "%s holds no Chart.yaml: not a Helm chart", manifest.DisplayName(c.Path))}
		}
		var sets []lint.ValueSet
		for _, s := range c.ValueSets {
			for j, f := range s.Files {
				if info, err := os.Stat(f); err != nil || !info.Mode().IsRegular() {
					return usageError{rc.file.Errorf([]any{"charts", i, "values", s.Name, j}, "values file %s does not exist", manifest.DisplayName(f))}
				}
			}
			sets = append(sets, lint.ValueSet{Name: s.Name, Files: s.Files})
		}
		rc.helm.ValueSets[manifest.RealPath(c.Path)] = sets
	}
	return nil
}

// configFlags are the flags lint and schedule share with the config file.
type configFlags struct {
	config   string
	nodes    []string
	version  string   // --kubernetes-version
	enable   []string // rules turned on whatever the config says (lint only)
	disable  []string // rules turned off (lint only)
	policies []string // custom policy directories, added to the config's (lint only)
	helm     helm.Options
}

func (c *configFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&c.config, "config", "c", "", "config `FILE` (default: .dslint.yaml here or in the nearest parent up to the repository root)")
	fs.StringVar(&c.version, kubernetesVersionFlag, "", fmt.Sprintf("target Kubernetes version `X.Y`, 1.%d to 1.%d (default: kubernetesVersion of the config, else %s)", config.OldestKubernetesMinor, config.NewestKubernetesMinor, config.DefaultKubernetesVersion))
	fs.StringArrayVar(&c.nodes, "nodes", nil, "node inventory `FILE` (kubectl get nodes -o yaml or -o json; repeatable; - for stdin; replaces nodes: of the config)")
	fs.Bool(noKustomizeFlag, false, "lint the files of a directory that holds a kustomization.yaml as written, instead of what kustomize build makes of them")
	c.registerHelm(fs)
}

// registerHelm adds the flags of helm template that say how a chart is
// rendered; -f stays --format.
func (c *configFlags) registerHelm(fs *pflag.FlagSet) {
	h := &c.helm
	fs.StringSliceVar(&h.Files, "values", nil, "Helm values `FILE` for every chart (repeatable or comma-separated; after a value set's files)")
	fs.StringArrayVar(&h.Set, "set", nil, "Helm value `KEY=VALUE` for every chart (repeatable)")
	fs.StringArrayVar(&h.SetString, "set-string", nil, "Helm string value `KEY=VALUE` (repeatable)")
	fs.StringArrayVar(&h.SetFile, "set-file", nil, "Helm value `KEY=FILE`, the file's content (repeatable)")
	fs.StringArrayVar(&h.SetJSON, "set-json", nil, "Helm JSON value `KEY=JSON` (repeatable)")
	fs.StringVar(&h.ReleaseName, "release-name", "", "Helm release `NAME` (default: the chart's name)")
	fs.StringVar(&h.Namespace, "namespace", "", "Helm release `NAMESPACE` (default: default)")
	fs.StringVar(&h.KubeVersion, "kube-version", "", "Capabilities.KubeVersion of the charts, `VERSION` (default: the target Kubernetes version)")
	fs.StringSliceVar(&h.APIVersions, "api-versions", nil, "Capabilities.APIVersions of the charts, `GROUP/VERSION` (repeatable or comma-separated)")
	fs.Bool(noHelmFlag, false, "lint the files of a directory that holds a Chart.yaml as written (templates skipped), instead of rendering the chart")
}

const (
	noKustomizeFlag       = "no-kustomize"
	noHelmFlag            = "no-helm"
	kubernetesVersionFlag = "kubernetes-version"
)

// discovery is how the PATH arguments are read (lint and schedule).
func discovery(fs *pflag.FlagSet) manifest.Discovery {
	noKustomize, _ := fs.GetBool(noKustomizeFlag)
	noHelm, _ := fs.GetBool(noHelmFlag)
	return manifest.Discovery{NoKustomize: noKustomize, NoHelm: noHelm}
}

// registerRules adds --enable and --disable, which only lint has.
func (c *configFlags) registerRules(fs *pflag.FlagSet) {
	fs.StringArrayVar(&c.enable, "enable", nil, "turn `RULE` on, whatever the config says (repeatable)")
	fs.StringArrayVar(&c.disable, "disable", nil, "turn `RULE` off (repeatable)")
	registerPolicies(fs, &c.policies)
}

// registerPolicies adds --policy, for the commands that run or describe rules.
func registerPolicies(fs *pflag.FlagSet, dirs *[]string) {
	fs.StringArrayVar(dirs, "policy", nil, "custom Rego rules from `DIR` (a directory or a .rego file; repeatable; added to policies: of the config)")
}

// loadRunConfig reads the config file (the named one, or the one found) and
// the inventory, and merges them with the flags.
func loadRunConfig(e *env, fl configFlags, paths []string, failOnFlag string, failOnSet, parseOnly bool) (rc *runConfig, err error) {
	rc = &runConfig{failOn: failOnFlag}
	var version string
	if fl.version != "" {
		if version, err = config.KubernetesVersion(fl.version); err != nil {
			return nil, usagef("--%s %s: %v", kubernetesVersionFlag, fl.version, err)
		}
	}
	ids, err := builtinRuleIDs()
	if err != nil {
		return nil, err
	}
	file := fl.config
	if file == "" {
		found, err := config.Find(".", "")
		if err != nil {
			return nil, usagef("find config: %v", err)
		}
		file = found
	}
	// The config's policies: add rules, which its rules: may name.
	var policies []*ast.Module
	var policyErr error
	known := func(dirs []string) []string {
		policies, policyErr = loadPolicies(append(slices.Clone(dirs), fl.policies...))
		return append(slices.Clone(ids), policyRuleIDs(policies)...)
	}
	if file != "" {
		c, err := config.LoadWithPolicies(file, known)
		if policyErr != nil {
			return nil, policyErr
		}
		if err != nil {
			return nil, configError(file, err)
		}
		rc.file = c
		if err := rc.apply(c, failOnSet); err != nil {
			return nil, err
		}
	}
	if file == "" {
		known(nil)
		if policyErr != nil {
			return nil, policyErr
		}
	}
	rc.cluster.KubernetesVersion = cmp.Or(version, rc.cluster.KubernetesVersion, config.DefaultKubernetesVersion)
	if err := rc.helmOptions(fl.helm); err != nil {
		return nil, err
	}
	ids = append(ids, policyRuleIDs(policies)...)
	if err := rc.applyRuleFlags(fl, ids); err != nil {
		return nil, err
	}
	// Compiling the rules takes as long as reading a large inventory: do
	// both at once (not for --parse-only, which runs no rule).
	rc.compiled = func() (*engine.Compiled, error) { return nil, errors.New("no rules with --parse-only") }
	if !parseOnly {
		compiled := make(chan struct{})
		var c *engine.Compiled
		var err error
		rules := rc.rules
		go func() {
			defer close(compiled)
			c, err = engine.Compile(dslint.Policies, policies, rules)
		}()
		rc.compiled = func() (*engine.Compiled, error) {
			<-compiled
			return c, err
		}
	}
	defer func() {
		// A policy that does not compile is the user's to fix (exit 2),
		// not an internal error of the run.
		if err == nil && len(policies) > 0 && !parseOnly {
			if _, cerr := rc.compiled(); cerr != nil {
				err = policyUsageError(cerr)
			}
		}
	}()
	nodeFiles := fl.nodes
	if len(nodeFiles) == 0 && rc.file != nil {
		nodeFiles = rc.file.Nodes
	}
	if err := checkNodesStdin(nodeFiles, paths); err != nil {
		return nil, err
	}
	nodes, err := loadNodes(e, nodeFiles)
	if err != nil {
		return nil, err
	}
	rc.nodes = append(rc.nodes, nodes...)
	rc.nodeFiles = nodeFiles
	if rc.file != nil {
		if err := unlabelledPools(rc.file, nodes); err != nil {
			return nil, err
		}
	}
	return rc, nil
}

// unlabelledPools checks the pools declared without nodes against the
// inventory files: where nodes carry a pool's taints, the pool's labels must
// be on some of them, or the pods that select the pool find no node.
func unlabelledPools(c *config.Config, nodes []*inventory.Node) error {
	var errs config.Errors
	for i, p := range c.Pools {
		if p.Inventory() || len(p.Taints) == 0 {
			continue
		}
		var tainted []*inventory.Node
		for _, n := range nodes {
			if carriesTaints(n, p.Taints) {
				tainted = append(tainted, n)
			}
		}
		if len(tainted) == 0 {
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(p.Labels)) {
			if !slices.ContainsFunc(tainted, func(n *inventory.Node) bool { return n.Labels[key] == any(p.Labels[key]) }) {
				errs = append(errs, c.Errorf([]any{"pools", i, "labels", key},
					"no node that carries the pool's taints has the label %s=%s (%s); pods that select it find no node: give the label the nodes carry",
					key, p.Labels[key], nodeList(tainted)))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return usageError{errs}
}

// carriesTaints is true when the node carries each of the taints, equal in
// key, value and effect.
func carriesTaints(n *inventory.Node, taints []config.Taint) bool {
	for _, t := range taints {
		if !slices.ContainsFunc(n.Taints, func(x any) bool {
			m, _ := x.(map[string]any)
			value, _ := m["value"].(string)
			return m["key"] == any(t.Key) && value == t.Value && m["effect"] == any(t.Effect)
		}) {
			return false
		}
	}
	return true
}

// nodeList names up to three nodes and where they are defined.
func nodeList(nodes []*inventory.Node) string {
	var names []string
	for _, n := range nodes[:min(len(nodes), 3)] {
		names = append(names, n.Name)
	}
	s := strings.Join(names, ", ")
	if len(nodes) > 3 {
		s += fmt.Sprintf(" and %d more", len(nodes)-3)
	}
	return s + " in " + nodes[0].Pos.File
}

// apply takes the settings of a loaded config file.
func (rc *runConfig) apply(c *config.Config, failOnSet bool) error {
	if c.Has("failOn") && !failOnSet {
		rc.failOn = c.FailOn
	}
	rc.rules.Severity = map[string]finding.Severity{}
	for id, level := range c.Rules {
		if level == "off" {
			rc.rules.Off = append(rc.rules.Off, id)
			continue
		}
		sev, err := finding.ParseSeverity(level)
		if err != nil {
			return c.Errorf([]any{"rules", id}, "%v", err)
		}
		rc.rules.Severity[id] = sev
	}
	slices.Sort(rc.rules.Off)
	rc.cluster = engine.ClusterOf(c)
	nodes, probes := inventory.FromConfig(c)
	rc.nodes = append(rc.nodes, nodes...)
	rc.probes = probes
	return nil
}

// applyRuleFlags turns the rules of --enable and --disable on and off; a
// rule named by both is an error.
func (rc *runConfig) applyRuleFlags(fl configFlags, ids []string) error {
	for _, id := range slices.Concat(fl.enable, fl.disable) {
		if slices.Contains(ids, id) {
			continue
		}
		msg := fmt.Sprintf("unknown rule %q", id)
		if s := suggest.Closest(id, ids); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return usagef("%s; dslint rules lists them", msg)
	}
	for _, id := range fl.enable {
		if slices.Contains(fl.disable, id) {
			return usagef("rule %q is both enabled and disabled", id)
		}
		rc.rules.Off = slices.DeleteFunc(rc.rules.Off, func(d string) bool { return d == id })
	}
	for _, id := range fl.disable {
		if !slices.Contains(rc.rules.Off, id) {
			rc.rules.Off = append(rc.rules.Off, id)
		}
	}
	slices.Sort(rc.rules.Off)
	return nil
}

// options are the options of a lint or schedule run with this config: its
// inventory and cluster settings, and the rules compiled once (none with
// --parse-only, which runs no rule).
func (rc *runConfig) options(parseOnly bool) (lint.Options, error) {
	opts := lint.Options{ParseOnly: parseOnly, Nodes: rc.nodes, Probes: rc.probes, NodeFiles: rc.nodeFiles, Cluster: rc.cluster, Helm: rc.helm}
	if parseOnly {
		return opts, nil
	}
	rules, err := rc.compiled()
	if err != nil {
		return opts, fmt.Errorf("load rules: %w", err)
	}
	opts.Rules = rules
	return opts, nil
}

// exclude drops the sources the config's exclude globs match.
func (rc *runConfig) exclude(srcs []manifest.Source) []manifest.Source {
	if rc.file == nil {
		return srcs
	}
	return slices.DeleteFunc(srcs, func(s manifest.Source) bool {
		if _, listed := rc.helm.ValueSets[manifest.RealPath(s.Path)]; s.Chart && listed {
			return false // named in charts:, which exclude globs do not undo
		}
		return s.Path != manifest.Stdin && rc.file.Excluded(s.Path)
	})
}

// builtinRuleIDs are the ids of the built-in rules, read from the names of
// their files (rules/<id>.rego, which TestRuleContract holds every rule to)
// rather than by parsing the Rego: every lint run needs them, before the
// rules are compiled.
func builtinRuleIDs() ([]string, error) {
	files, err := fs.Glob(dslint.Policies, "rules/*.rego")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.rego") {
			ids = append(ids, strings.TrimSuffix(path.Base(f), ".rego"))
		}
	}
	return ids, nil
}

// loadPolicies parses the custom policies of dirs; nil for none.
func loadPolicies(dirs []string) ([]*ast.Module, error) {
	if len(dirs) == 0 {
		return nil, nil
	}
	modules, err := engine.LoadPolicies(dirs, false)
	if err != nil {
		return nil, policyUsageError(err)
	}
	return modules, nil
}

// policyRuleIDs are the ids of the rules the policies define.
func policyRuleIDs(policies []*ast.Module) []string {
	var ids []string
	for _, m := range policies {
		if id := engine.RuleID(m); id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// policyUsageError is a problem in a custom policy as a usage error (exit 2),
// each problem on its own line with its file:line:col.
func policyUsageError(err error) error {
	var perrs engine.PolicyErrors
	if errors.As(err, &perrs) {
		return usageError{fmt.Errorf("invalid policy:\n%w", err)}
	}
	return err
}

// configError is a config problem as a usage error (exit 2), each problem
// on its own line.
func configError(file string, err error) error {
	var errs config.Errors
	if errors.As(err, &errs) {
		return usageError{fmt.Errorf("invalid config:\n%w", err)}
	}
	return usagef("config %s: %v", file, err)
}
