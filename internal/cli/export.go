package cli

import (
	"errors"
	"os"

	"github.com/dslint/dslint/internal/admission"
	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/manifest"
)

const exportUsage = `dslint export-policy [flags]

Writes the pools of .dslint.yaml that have owners as a
ValidatingAdmissionPolicy and a ValidatingAdmissionPolicyBinding
(admissionregistration.k8s.io/v1, Kubernetes 1.30 or later), so that the
API server enforces at admission what the pool-ownership rule checks in
manifests: a Pod, Deployment, ReplicaSet, StatefulSet, Job, CronJob or
ReplicationController outside a pool's owners (namespaces, a selector of
pod labels) may neither select the pool's nodes (nodeSelector, an In or
Exists term of its required node affinity) nor tolerate the NoSchedule
and NoExecute taints that keep other pods off them while its node
constraint admits the pool's labels. DaemonSets, their pods and pods with
a nodeName are exempt. Each pool is one validation, whose message names
the pool, the namespace and the workload.

The binding applies in every namespace with --action Deny unless told
otherwise: start with --action Warn --action Audit to see what would be
denied. Apply with kubectl apply -f; run it again when the pools change.
More in docs/export-policy.md.`

func runExportPolicy(e *env, args []string) (int, error) {
	var configFile, output string
	var opts admission.Options
	fs := newFlagSet(e, "export-policy", exportUsage)
	fs.StringVarP(&configFile, "config", "c", "", "config `FILE` (default: .dslint.yaml here or in the nearest parent up to the repository root)")
	fs.StringVarP(&output, "output", "o", "", "write the policy to `FILE` instead of stdout")
	fs.StringVar(&opts.Name, "name", admission.DefaultName, "`NAME` of the policy and of its binding")
	fs.StringArrayVar(&opts.Actions, "action", nil, "what the binding does with a denial, `Deny|Warn|Audit`: reject the request, return a warning, add an audit annotation (repeatable; default Deny; not Deny with Warn)")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("export-policy takes no arguments, got %q (the config is named with --config)", fs.Arg(0))
	}
	c, err := exportConfig(configFile)
	if err != nil {
		return 0, err
	}
	opts.Source = manifest.DisplayName(c.File)
	policy, err := admission.Policy(c.Pools, c.FeatureGates, opts)
	switch {
	case errors.Is(err, admission.ErrNoOwners):
		return 0, usagef("%s declares no pool with owners: nothing to enforce; give a pool owners (namespaces: [...], a selector: of pod labels, or both)", opts.Source)
	case err != nil:
		return 0, usagef("export-policy: %v", err)
	}
	if output == "" {
		_, err = e.stdout.Write(policy)
		return ExitOK, err
	}
	if err := os.WriteFile(output, policy, 0o644); err != nil {
		return 0, usagef("write %s: %v", output, err)
	}
	return ExitOK, nil
}

// exportConfig loads the config named by --config, else the one lint
// would find.
func exportConfig(file string) (*config.Config, error) {
	if file == "" {
		found, err := config.Find(".", "")
		if err != nil {
			return nil, usagef("find config: %v", err)
		}
		if found == "" {
			return nil, usagef("export-policy needs the pools of a config: no %s here or in a parent directory up to the repository root; name one with --config, or write one with dslint init", config.FileName)
		}
		file = found
	}
	c, err := config.Load(file, nil)
	if err != nil {
		return nil, configError(file, err)
	}
	return c, nil
}
