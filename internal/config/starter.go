package config

// Starter returns the commented config file `dslint init` writes. Every
// setting is commented out, so the file changes nothing until edited.
// Explanations are "# text"; settings are "#key: value", nested lines
// "#  key: value", so removing the first "#" of those lines turns the
// examples on (a test loads the file both ways).
func Starter() string {
	return starter
}

const starter = `# dslint configuration.
#
# dslint reads .dslint.yaml from the current directory or the nearest parent,
# up to the repository root; -c/--config names another file. Unknown keys and
# wrong types are errors. Paths and globs are relative to this file's
# directory. Every setting is commented out: the values shown are the
# defaults or examples. Remove the "#" in front of a setting to use it.

# Lowest severity that fails the run (exit code 1): error, warning, info or
# none. The --fail-on flag overrides it.
#failOn: warning

# Severity of each rule: off, info, warning or error. "dslint rules" lists the
# rule ids, "dslint explain RULE" explains one. --enable and --disable
# override it.
#rules:
#  daemonset-missing-control-plane-toleration: off

# Taint keys that Kubernetes or the platform applies, rather than a dedicated
# pool: an entry ending in "/" is a prefix, any other entry an exact key.
# Tolerating a system taint does not dedicate a workload to a pool. Setting
# this replaces the default list, shown here.
#systemTaints:
#  - node.kubernetes.io/
#  - node-role.kubernetes.io/
#  - node.cloudprovider.kubernetes.io/
#  - node.kubernetes.io/out-of-service
#  - node.alpha.kubernetes.io/
#  - CriticalAddonsOnly
#  - ToBeDeletedByClusterAutoscaler
#  - DeletionCandidateOfClusterAutoscaler
#  - karpenter.sh/

# Node inventory files: Node manifests, a v1 List or NodeList, or the output
# of "kubectl get nodes -o yaml". With an inventory, dslint simulates where
# every workload can land. Node objects among the linted files are an
# inventory only when their file is named here or with --nodes, which
# replaces this list.
#nodes:
#  - cluster/nodes.yaml

# Node pools. Without count, a pool is a declaration of the dedicated
# pattern of nodes the cluster has (from nodes:, --nodes, or nowhere): the
# labels pods select to land on them, the taints (effect: NoSchedule,
# PreferNoSchedule or NoExecute) that keep other pods off, and owners, who
# may use them: namespaces (globs: "*" matches any run of characters) and a
# selector of pod labels (matchLabels, matchExpressions). The pool-ownership
# rule reports workloads outside the owners that ask for the nodes or can
# land on them, and dslint export-policy writes an admission policy that
# rejects them. With count, a pool is also inventory, when there is no
# inventory to export: count identical nodes named <name>-1 to <name>-N,
# with what each allocates to pods (pods: 110 unless given; without
# allocatable, resources are not judged).
#pools:
#  - name: gpu
#    labels: {hw-type: gpu}
#    taints:
#      - {key: hw-type, value: gpu, effect: NoSchedule}
#    owners:
#      namespaces: [ml, "ml-*"]
#  - name: batch
#    count: 3
#    labels: {pool: batch}
#    taints:
#      - {key: dedicated, value: batch, effect: NoSchedule}
#    allocatable: {cpu: "32", memory: 128Gi}

# The Kubernetes version the manifests are deployed to, 1.20 to 1.36 (the
# default is the newest). Quote it: YAML reads 1.30 unquoted as 1.3. The
# --kubernetes-version flag overrides it.
#kubernetesVersion: "1.36"

# Helm charts to lint under several configurations: each value set names
# values files merged in order (an empty list: the chart's own values.yaml).
# Every finding names its value set. A chart not listed here is rendered
# once, with the command line's --values and --set flags.
#charts:
#  - path: charts/app
#    values: {default: [], prod: [charts/app/values-prod.yaml]}

# Kubernetes feature gates that change what the API server accepts.
# TaintTolerationComparisonOperators (alpha, off by default) allows the Lt and
# Gt toleration operators.
#featureGates:
#  TaintTolerationComparisonOperators: false

# Files and directories not to lint: globs where "*" matches within one path
# element and "**" across any number of them.
#exclude:
#  - "charts/**"
#  - "**/testdata/**"

# Directories of custom Rego policies, written like the built-in rules.
# --policy adds more.
#policies:
#  - policy/
`
