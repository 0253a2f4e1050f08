package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/manifest"
)

var knownRules = []string{
	"daemonset-missing-control-plane-toleration",
	"invalid-toleration",
	"wildcard-toleration",
}

// loadText writes text to .dslint.yaml in a fresh working directory and
// loads it, so messages name the file as a user in that directory sees it.
func loadText(t *testing.T, text string) (*Config, error) {
	t.Helper()
	t.Chdir(t.TempDir())
	if err := os.WriteFile(".dslint.yaml", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(".dslint.yaml", knownRules)
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"unknown key", "failOn: warning\nrulez: {}\n", []string{
			`.dslint.yaml:2:1: unknown key "rulez" (known: failOn, rules, systemTaints, nodes, pools, kubernetesVersion, charts, featureGates, exclude, policies)`}},
		{"unknown rule, near", "rules:\n  wildcard-tolerations: off\n", []string{
			`.dslint.yaml:2:3: rules.wildcard-tolerations: unknown rule "wildcard-tolerations" (did you mean "wildcard-toleration"?)`}},
		{"unknown rule, far", "rules: {invalid-toleration: error, foo-bar: off}\n", []string{
			`.dslint.yaml:1:36: rules.foo-bar: unknown rule "foo-bar" (run "dslint rules" to list them)`}},
		{"rule severity", "rules:\n  invalid-toleration: warn\n  wildcard-toleration: false\n", []string{
			`.dslint.yaml:2:23: rules.invalid-toleration: "warn" is not one of off, info, warning, error`,
			`.dslint.yaml:3:24: rules.wildcard-toleration: expected one of off, info, warning, error, got boolean false`}},
		{"failOn value", "# comment\nfailOn: \"warn\"\n", []string{
			`.dslint.yaml:2:9: failOn: "warn" is not one of error, warning, info, none`}},
		{"failOn type", "failOn: [error]\n", []string{
			`.dslint.yaml:1:9: failOn: expected one of error, warning, info, none, got a sequence`}},
		{"rules type", "rules: [invalid-toleration]\n", []string{
			`.dslint.yaml:1:8: rules: expected a mapping, got a sequence`}},
		{"count string", "pools:\n  - name: gpu\n    count: \"3\"\n", []string{
			`.dslint.yaml:3:12: pools[0].count: expected an integer, got string "3"`}},
		{"count float", "pools: [{name: gpu, count: 1.5}]\n", []string{
			`.dslint.yaml:1:28: pools[0].count: expected an integer, got number 1.5`}},
		{"count zero", "pools:\n  - name: gpu\n    count: 0\n", []string{
			`.dslint.yaml:3:12: pools[0].count: must be at least 1, got 0 (leave count out to declare the pool without nodes)`}},
		{"count huge", "pools: [{name: gpu, count: 100000}]\n", []string{
			`.dslint.yaml:1:28: pools[0].count: must be at most 5000 (the most nodes a Kubernetes cluster supports), got 100000`}},
		{"pool name required", "pools:\n  - count: 2\n", []string{
			`.dslint.yaml:2:5: pools[0]: name is required`}},
		{"pool name empty", "pools: [{name: \"\"}]\n", []string{
			`.dslint.yaml:1:16: pools[0].name: must not be empty`}},
		{"pool name type", "pools: [{name: 7}]\n", []string{
			`.dslint.yaml:1:16: pools[0].name: expected a string, got integer 7 (quote it: "7")`}},
		{"pool name unique", "pools:\n  - {name: gpu, count: 1}\n  - {name: cpu, count: 1}\n  - {name: gpu, count: 1}\n", []string{
			`.dslint.yaml:4:12: pools[2].name: duplicate pool name "gpu" (first at 2:12)`}},
		{"declaration without labels", "pools:\n  - name: gpu\n    taints: [{key: hw, value: gpu, effect: NoSchedule}]\n", []string{
			`.dslint.yaml:3:5: pools[0].taints: taints without labels: the pods meant for the pool have no label to select its nodes by, so they land on other nodes too; add labels: the labels its nodes carry`}},
		{"owned inventory without labels", "pools: [{name: gpu, count: 2, taints: [{key: hw, effect: NoSchedule}], owners: {namespaces: [ml]}}]\n", []string{
			`.dslint.yaml:1:31: pools[0].taints: taints without labels: the pods meant for the pool have no label to select its nodes by, so they land on other nodes too; add labels: the labels its nodes carry`}},
		{"empty declaration", "pools:\n  - name: gpu\n", []string{
			`.dslint.yaml:2:5: pools[0]: declares no labels and no taints: give the labels its nodes carry and the taints that keep other pods off (with count, the pool is also nodes to place workloads on)`}},
		{"allocatable without count", "pools:\n  - name: gpu\n    labels: {hw: gpu}\n    allocatable: {cpu: \"8\"}\n", []string{
			`.dslint.yaml:4:5: pools[0].allocatable: is what each node of the pool offers pods, and a pool without count has no nodes: add count (how many nodes the pool has)`}},
		{"owners empty", "pools: [{name: gpu, labels: {hw: gpu}, owners: {}}]\n", []string{
			`.dslint.yaml:1:48: pools[0].owners: name namespaces (globs such as ml-*), a selector of pod labels, or both`}},
		{"owners no namespace", "pools: [{name: gpu, labels: {hw: gpu}, owners: {namespaces: []}}]\n", []string{
			`.dslint.yaml:1:61: pools[0].owners.namespaces: lists no namespace; leave namespaces out to take every namespace`}},
		{"owners bad glob", "pools: [{name: gpu, labels: {hw: gpu}, owners: {namespaces: [ML, \"team-?\"]}}]\n", []string{
			`.dslint.yaml:1:62: pools[0].owners.namespaces[0]: "ML" is not a namespace glob: a namespace name has lowercase letters, digits and '-', and '*' stands for any run of them`,
			`.dslint.yaml:1:66: pools[0].owners.namespaces[1]: "team-?" is not a namespace glob: a namespace name has lowercase letters, digits and '-', and '*' stands for any run of them`}},
		{"owners unknown key", "pools: [{name: gpu, labels: {hw: gpu}, owners: {namespace: [ml]}}]\n", []string{
			`.dslint.yaml:1:48: pools[0].owners: name namespaces (globs such as ml-*), a selector of pod labels, or both`,
			`.dslint.yaml:1:49: pools[0].owners: unknown key "namespace" (known: namespaces, selector)`}},
		{"owners selector", "pools:\n  - name: gpu\n    labels: {hw: gpu}\n    owners:\n      selector:\n        matchExpressions:\n          - {key: team, operator: In}\n          - {key: team, operator: Exists, values: [a]}\n          - {key: team, operator: in, values: [a]}\n", []string{
			`.dslint.yaml:7:13: pools[0].owners.selector.matchExpressions[0]: operator In needs values`,
			`.dslint.yaml:8:13: pools[0].owners.selector.matchExpressions[1]: operator Exists takes no values`,
			`.dslint.yaml:9:35: pools[0].owners.selector.matchExpressions[2].operator: "in" is not one of In, NotIn, Exists, DoesNotExist`}},
		{"owners overlap", "pools:\n  - name: gpu\n    labels: {pool: gpu}\n    owners: {namespaces: [ml, \"ml-*\"]}\n  - name: ingress\n    labels: {pool: ingress}\n    owners: {namespaces: [\"*-web\"]}\n", []string{
			`.dslint.yaml:7:5: pools[1].owners: overlaps the owners of pool "gpu" (4:5): namespace "ml-web" matches both "ml-*" and "*-web"; a workload owns one pool's nodes, so narrow one of them, or give both pools the same owners`}},
		{"owners overlap by selector", "pools:\n  - {name: gpu, labels: {pool: gpu}, owners: {selector: {matchLabels: {team: ml}}}}\n  - {name: infra, labels: {pool: infra}, owners: {selector: {matchLabels: {tier: infra}}}}\n  - {name: edge, labels: {pool: edge}, owners: {namespaces: [ml]}}\n", []string{
			`.dslint.yaml:3:42: pools[1].owners: overlaps the owners of pool "gpu" (2:38): both take pods of every namespace; a workload owns one pool's nodes, so narrow one of them, or give both pools the same owners`}},
		{"pool not a mapping", "pools: [gpu]\n", []string{
			`.dslint.yaml:1:9: pools[0]: expected a mapping, got string "gpu"`}},
		{"pool unknown key", "pools:\n  - name: gpu\n    lables: {a: b}\n", []string{
			`.dslint.yaml:3:5: pools[0]: unknown key "lables" (known: name, count, labels, taints, allocatable, owners)`}},
		{"label value type", "pools: [{name: gpu, labels: {tier: 1, empty: }}]\n", []string{
			`.dslint.yaml:1:36: pools[0].labels.tier: expected a string, got integer 1 (quote it: "1")`}},
		{"taint effect", "pools:\n  - name: gpu\n    taints: [{key: hw, value: gpu, effect: NoSchedul}]\n", []string{
			`.dslint.yaml:3:44: pools[0].taints[0].effect: "NoSchedul" is not one of NoSchedule, PreferNoSchedule, NoExecute`}},
		{"taint effect case", "pools: [{name: gpu, taints: [{key: hw, effect: noschedule}]}]\n", []string{
			`.dslint.yaml:1:48: pools[0].taints[0].effect: "noschedule" is not one of NoSchedule, PreferNoSchedule, NoExecute`}},
		{"taint required fields", "pools:\n  - name: gpu\n    taints:\n      - value: gpu\n", []string{
			`.dslint.yaml:4:9: pools[0].taints[0]: effect is required`,
			`.dslint.yaml:4:9: pools[0].taints[0]: key is required`}},
		{"taint unknown key", "pools: [{name: gpu, taints: [{key: hw, effect: NoSchedule, efect: NoExecute}]}]\n", []string{
			`.dslint.yaml:1:60: pools[0].taints[0]: unknown key "efect" (known: key, value, effect)`}},
		{"taint duplicate", "pools: [{name: gpu, taints: [{key: hw, effect: NoSchedule}, {key: hw, value: x, effect: NoSchedule}]}]\n", []string{
			`.dslint.yaml:1:61: pools[0].taints[1]: duplicate taint "hw:NoSchedule" (first at 1:30)`}},
		{"feature gate unknown", "featureGates:\n  TaintTolerationComparisonOperator: true\n", []string{
			`.dslint.yaml:2:3: featureGates.TaintTolerationComparisonOperator: unknown feature gate "TaintTolerationComparisonOperator" (known: TaintTolerationComparisonOperators)`}},
		{"feature gate type", "featureGates: {TaintTolerationComparisonOperators: yes}\n", []string{
			`.dslint.yaml:1:52: featureGates.TaintTolerationComparisonOperators: expected true or false, got string "yes"`}},
		{"kubernetesVersion too old", "kubernetesVersion: \"1.19\"\n", []string{
			`.dslint.yaml:1:20: kubernetesVersion: "1.19": dslint supports Kubernetes 1.20 to 1.36`}},
		{"kubernetesVersion too new", "kubernetesVersion: v1.37.0\n", []string{
			`.dslint.yaml:1:20: kubernetesVersion: "v1.37.0": dslint supports Kubernetes 1.20 to 1.36`}},
		{"kubernetesVersion malformed", "kubernetesVersion: latest\n", []string{
			`.dslint.yaml:1:20: kubernetesVersion: "latest": not a Kubernetes version: write MAJOR.MINOR, such as 1.36 (dslint supports Kubernetes 1.20 to 1.36)`}},
		{"kubernetesVersion number YAML shortens", "kubernetesVersion: 1.30\n", []string{
			`.dslint.yaml:1:20: kubernetesVersion: YAML reads the number 1.30 as 1.3: quote the version (kubernetesVersion: "1.30")`}},
		{"kubernetesVersion integer", "kubernetesVersion: 1\n", []string{
			`.dslint.yaml:1:20: kubernetesVersion: "1": not a Kubernetes version: write MAJOR.MINOR, such as 1.36 (dslint supports Kubernetes 1.20 to 1.36)`}},
		{"kubernetesVersion type", "kubernetesVersion: [\"1.30\"]\n", []string{
			`.dslint.yaml:1:20: kubernetesVersion: expected a string, got a sequence`}},
		{"list type", "nodes: cluster/nodes.yaml\n", []string{
			`.dslint.yaml:1:8: nodes: expected a sequence, got string "cluster/nodes.yaml" (write ["cluster/nodes.yaml"] for a list of one)`}},
		{"list items", "systemTaints: [example.com/, 3, \"\"]\n", []string{
			`.dslint.yaml:1:30: systemTaints[1]: expected a string, got integer 3 (quote it: "3")`,
			`.dslint.yaml:1:33: systemTaints[2]: must not be empty`}},
		{"exclude globs", "exclude:\n  - /abs/**\n  - ../up\n  - \"a/[b\"\n", []string{
			`.dslint.yaml:2:5: exclude[0]: "/abs/**" must be relative to the config file's directory, inside it`,
			`.dslint.yaml:3:5: exclude[1]: "../up" must be relative to the config file's directory, inside it`,
			`.dslint.yaml:4:5: exclude[2]: "a/[b" is not a valid glob: syntax error in pattern`}},
		{"duplicate key", "failOn: warning\nfailOn: error\n", []string{
			`.dslint.yaml:2:1: duplicate key "failOn" (first at 1:1)`}},
		{"key not a string", "1: a\n", []string{
			`.dslint.yaml:1:1: expected a string key, got integer 1`}},
		{"top level sequence", "- failOn: warning\n", []string{
			`.dslint.yaml:1:1: expected a mapping of settings (failOn, rules, ...), got a sequence`}},
		{"two documents", "failOn: warning\n---\nrules: {}\n", []string{
			`.dslint.yaml:3:1: a config file holds one YAML document; merge this one into the first`}},
		{"syntax error", "failOn: warning\nrules:\n\tfoo: off\n", []string{
			`.dslint.yaml:3:2: invalid YAML: found character that cannot start any token`}},
		{"syntax error in value", "failOn: warning\nrules:\n  a: b: c\n", []string{
			`.dslint.yaml:3:3: invalid YAML: mapping values are not allowed in this context`}},
		{"merge of a scalar", "pools: [{<<: 3, name: gpu}]\n", []string{
			`.dslint.yaml:1:14: pools[0]: <<: expected a mapping or a sequence of mappings, got integer 3`}},
		{"every error reported", "failOn: warn\nrulez: {}\nrules: {foo: off}\npools:\n  - name: gpu\n    count: \"3\"\n    taints: [{key: hw, effect: Never}]\n", []string{
			`.dslint.yaml:1:9: failOn: "warn" is not one of error, warning, info, none`,
			`.dslint.yaml:2:1: unknown key "rulez" (known: failOn, rules, systemTaints, nodes, pools, kubernetesVersion, charts, featureGates, exclude, policies)`,
			`.dslint.yaml:3:9: rules.foo: unknown rule "foo" (run "dslint rules" to list them)`,
			`.dslint.yaml:6:12: pools[0].count: expected an integer, got string "3"`,
			`.dslint.yaml:7:32: pools[0].taints[0].effect: "Never" is not one of NoSchedule, PreferNoSchedule, NoExecute`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadText(t, tc.text)
			if c != nil {
				t.Errorf("Load returned a config along with errors")
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Load error = %v (%T), want Errors", err, err)
			}
			if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, tc.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestErrorsAs(t *testing.T) {
	_, err := loadText(t, "failOn: warn\nrulez: 1\n")
	var e *manifest.Error
	if !errors.As(err, &e) {
		t.Fatalf("errors.As(%v, *manifest.Error) = false", err)
	}
	if e.File != ".dslint.yaml" || e.Line != 1 || e.Column != 9 {
		t.Errorf("first error at %s:%d:%d, want .dslint.yaml:1:9", e.File, e.Line, e.Column)
	}
}

func TestLoadValid(t *testing.T) {
	cases := map[string]string{
		"empty":          "",
		"comments only":  "# nothing yet\n",
		"document start": "---\n",
		"null document":  "~\n",
		"BOM":            "\xef\xbb\xbf",
		"null values":    "failOn:\nrules:\n  # wildcard-toleration: off\nnodes: ~\npools:\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := loadText(t, text)
			if err != nil {
				t.Fatal(err)
			}
			for _, key := range topKeys {
				if c.Has(key) {
					t.Errorf("Has(%q) = true for a key with no value", key)
				}
			}
			if c.FailOn != "" || c.Rules != nil || c.Nodes != nil || c.Pools != nil {
				t.Errorf("empty config decoded as %+v", c)
			}
		})
	}
}

func TestLoadFull(t *testing.T) {
	c, err := Load(filepath.Join("testdata", "full.yaml"), knownRules)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		File:         "testdata/full.yaml",
		Dir:          "testdata",
		FailOn:       "warning",
		Rules:        map[string]string{"daemonset-missing-control-plane-toleration": "off"},
		SystemTaints: []string{"node.kubernetes.io/", "node-role.kubernetes.io/", "node.cloudprovider.kubernetes.io/"},
		Nodes:        []string{filepath.Join("testdata", "cluster", "nodes.yaml")},
		Pools: []Pool{{
			Name: "gpu", Count: 3, Labels: map[string]string{"hw-type": "gpu"}, Pos: manifest.Pos{File: "testdata/full.yaml", Line: 7, Column: 5},
			Taints: []Taint{{Key: "hw-type", Value: "gpu", Effect: "NoSchedule", Pos: manifest.Pos{File: "testdata/full.yaml", Line: 10, Column: 14}}},
		}},
		FeatureGates:      map[string]bool{"TaintTolerationComparisonOperators": false},
		KubernetesVersion: "1.33",
		Charts: []Chart{{Path: filepath.Join("testdata", "charts", "app"), ValueSets: []ValueSet{
			{Name: "default", Files: []string{}},
			{Name: "prod", Files: []string{filepath.Join("testdata", "charts", "app", "values-prod.yaml"), filepath.Join("testdata", "prod.yaml")}},
		}}},
		Exclude:  []string{"charts/**", "**/testdata/**"},
		Policies: []string{filepath.Join("testdata", "policy")},
	}
	got := *c
	got.name, got.set, got.pos = "", nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load(full.yaml) =\n%+v\nwant\n%+v", got, want)
	}
	for _, key := range topKeys {
		if !c.Has(key) {
			t.Errorf("Has(%q) = false", key)
		}
	}
	if c.Has("rulez") {
		t.Errorf(`Has("rulez") = true`)
	}
}

// A target Kubernetes version is written X.Y, with or without a "v" and a
// patch; an unquoted number is taken when YAML reads it as written.
func TestKubernetesVersionAccepted(t *testing.T) {
	for text, want := range map[string]string{
		`"1.30"`:           "1.30",
		`v1.20`:            "1.20",
		`"1.30.2"`:         "1.30",
		`v1.29.4-eks-1234`: "1.29",
		`1.36`:             "1.36",
		`1.21`:             "1.21",
		`"1.036"`:          "1.36",
		`v1.31.1+k3s1`:     "1.31",
	} {
		c, err := loadText(t, "kubernetesVersion: "+text+"\n")
		if err != nil {
			t.Errorf("kubernetesVersion: %s: %v", text, err)
			continue
		}
		if c.KubernetesVersion != want || !c.Has("kubernetesVersion") {
			t.Errorf("kubernetesVersion: %s read as %q, want %q", text, c.KubernetesVersion, want)
		}
	}
}

func TestKubernetesVersion(t *testing.T) {
	for in, want := range map[string]string{
		"1.20": "1.20", "1.36": "1.36", "v1.25": "1.25", "1.30.2": "1.30", "v1.30.0-rc.1": "1.30",
		"1.19": "", "1.37": "", "2.30": "", "0.30": "", "1": "", "1.": "", ".30": "", "1.30.": "", "1.x": "",
		"": "", "V1.30": "", " 1.30": "", "1.30.2.1": "", "1.30-rc": "",
	} {
		got, err := KubernetesVersion(in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("KubernetesVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
		if err != nil && !strings.Contains(err.Error(), "dslint supports Kubernetes 1.20 to 1.36") {
			t.Errorf("KubernetesVersion(%q): %v does not name the supported range", in, err)
		}
	}
}

func TestMergeKeys(t *testing.T) {
	c, err := loadText(t, "pools:\n  - &gpu {name: gpu, count: 2, labels: {hw: gpu}}\n  - <<: *gpu\n    name: gpu-b\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Pools) != 2 || c.Pools[1].Name != "gpu-b" || c.Pools[1].Count != 2 || c.Pools[1].Labels["hw"] != "gpu" {
		t.Errorf("pools = %+v, want gpu-b merged from gpu", c.Pools)
	}
}

func TestPathsResolved(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "elsewhere", "nodes.yaml")
	text := "nodes: [cluster/nodes.yaml, ./a/../b.yaml, " + abs + "]\npolicies: [policy/, ../shared]\n"
	sub := filepath.Join(dir, "repo")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sub, ".dslint.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Dir != sub {
		t.Errorf("Dir = %q, want %q", c.Dir, sub)
	}
	wantNodes := []string{filepath.Join(sub, "cluster", "nodes.yaml"), filepath.Join(sub, "b.yaml"), abs}
	if !slices.Equal(c.Nodes, wantNodes) {
		t.Errorf("Nodes = %q, want %q", c.Nodes, wantNodes)
	}
	wantPolicies := []string{filepath.Join(sub, "policy"), filepath.Join(dir, "shared")}
	if !slices.Equal(c.Policies, wantPolicies) {
		t.Errorf("Policies = %q, want %q", c.Policies, wantPolicies)
	}
}

func TestCheckRules(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile(".dslint.yaml", []byte("rules:\n  my-policy: error\n  wildcard-toleration: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(".dslint.yaml", nil) // custom policies are not compiled yet
	if err != nil {
		t.Fatalf("Load without known rules: %v", err)
	}
	if err := c.CheckRules(append(slices.Clone(knownRules), "my-policy")); err != nil {
		t.Errorf("CheckRules with the custom rule known: %v", err)
	}
	want := `.dslint.yaml:2:3: rules.my-policy: unknown rule "my-policy" (run "dslint rules" to list them)`
	if err := c.CheckRules(knownRules); err == nil || err.Error() != want {
		t.Errorf("CheckRules = %v, want %s", err, want)
	}
}

func TestErrorf(t *testing.T) {
	c, err := loadText(t, "nodes:\n  - cluster/nodes.yaml\npools:\n  - name: gpu\n    labels: {\"hw type\": gpu}\n")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path []any
		want string
	}{
		{[]any{"nodes", 0}, `.dslint.yaml:2:5: nodes[0]: no such file`},
		{[]any{"pools", 0, "labels", "hw type"}, `.dslint.yaml:5:14: pools[0].labels["hw type"]: no such file`},
		{[]any{"pools", 0, "taints", 3}, `.dslint.yaml:4:5: pools[0].taints[3]: no such file`}, // nearest written parent
		{[]any{"policies"}, `.dslint.yaml:1:1: policies: no such file`},
	}
	for _, tc := range cases {
		if got := c.Errorf(tc.path, "no such file").Error(); got != tc.want {
			t.Errorf("Errorf(%v) = %s, want %s", tc.path, got, tc.want)
		}
	}
}

func TestExcluded(t *testing.T) {
	dir := t.TempDir()
	c := &Config{Dir: dir, Exclude: []string{"charts/**", "**/testdata/**", "vendor", "*.tmp.yaml"}}
	cases := map[string]bool{
		"charts/app/templates/ds.yaml": true,
		"charts":                       true,
		"a/b/testdata/x.yaml":          true,
		"testdata/x.yaml":              true,
		"vendor/x/y.yaml":              true,
		"x.tmp.yaml":                   true,
		"sub/x.tmp.yaml":               false, // "*" stays within one path element
		"deploy/app.yaml":              false,
		"chartsy/app.yaml":             false,
		"../charts/app.yaml":           false, // outside the config's directory
	}
	for rel, want := range cases {
		if got := c.Excluded(filepath.Join(dir, rel)); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", rel, got, want)
		}
	}
}

func TestCleanGlob(t *testing.T) {
	cases := map[string]string{"./charts/": "charts", "**/**/x": "**/x", "a//b": "a/b", "**": "**"}
	for in, want := range cases {
		if got, err := cleanGlob(in); err != nil || got != want {
			t.Errorf("cleanGlob(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestStarter(t *testing.T) {
	c, err := loadText(t, Starter())
	if err != nil {
		t.Fatalf("the starter config does not load:\n%v", err)
	}
	for _, key := range topKeys {
		if c.Has(key) {
			t.Errorf("starter sets %s; every setting should be commented out", key)
		}
	}
	// Turned on, every example must load too, and together they document
	// every key.
	c, err = loadText(t, uncomment(Starter()))
	if err != nil {
		t.Fatalf("the starter's examples do not load:\n%v\n%s", err, uncomment(Starter()))
	}
	for _, key := range topKeys {
		if !c.Has(key) {
			t.Errorf("starter has no example for %s", key)
		}
	}
	// The pools show both kinds: a declaration with owners, without count,
	// and an inventory pool, with count and allocatable.
	var declared, inventory bool
	for _, p := range c.Pools {
		declared = declared || (!p.Inventory() && p.Owners != nil && len(p.Owners.Namespaces) > 0 && len(p.Labels) > 0 && len(p.Taints) > 0)
		inventory = inventory || (p.Inventory() && p.Allocatable != nil)
	}
	if !declared || !inventory {
		t.Errorf("starter pools: a declaration with owners %v, an inventory pool %v; want both", declared, inventory)
	}
}

// uncomment removes the "#" of the starter's setting lines ("#key:",
// "#  nested"), leaving explanations ("# text") alone.
func uncomment(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") && len(l) > 1 && (l[1] != ' ' || strings.HasPrefix(l, "#  ")) {
			lines[i] = l[1:]
		}
	}
	return strings.Join(lines, "\n")
}

func TestFind(t *testing.T) {
	type layout struct {
		files []string // created empty; a name ending in "/" is a directory
		start string
		stop  string
		want  string // relative to the temp dir; "" for none
	}
	cases := map[string]layout{
		"in start":             {[]string{".git/", "a/.dslint.yaml"}, "a", "", "a/.dslint.yaml"},
		"yml":                  {[]string{".git/", "a/.dslint.yml"}, "a", "", "a/.dslint.yml"},
		"nearest parent":       {[]string{".git/", ".dslint.yaml", "a/.dslint.yaml", "a/b/c/"}, "a/b/c", "", "a/.dslint.yaml"},
		"at the repo root":     {[]string{"repo/.git/", "repo/.dslint.yaml", "repo/a/b/"}, "repo/a/b", "", "repo/.dslint.yaml"},
		"not above repo root":  {[]string{".dslint.yaml", "repo/.git/", "repo/a/"}, "repo/a", "", ""},
		".git file marks root": {[]string{".dslint.yaml", "repo/.git", "repo/a/"}, "repo/a", "", ""},
		"start is the root":    {[]string{".dslint.yaml", "repo/.git/"}, "repo", "", ""},
		"not above stop":       {[]string{".git/", ".dslint.yaml", "a/b/"}, "a/b", "a", ""},
		"at stop":              {[]string{".git/", "a/.dslint.yaml", "a/b/"}, "a/b", "a", "a/.dslint.yaml"},
		"directory is no file": {[]string{".git/", ".dslint.yaml", "a/.dslint.yaml/"}, "a", "", ".dslint.yaml"},
		"start is a file":      {[]string{".git/", "a/.dslint.yaml", "a/x.yaml"}, "a/x.yaml", "", "a/.dslint.yaml"},
		"none":                 {[]string{".git/", "a/b/"}, "a/b", "", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			makeFiles(t, root, tc.files)
			stop := ""
			if tc.stop != "" {
				stop = filepath.Join(root, tc.stop)
			}
			got, err := Find(filepath.Join(root, tc.start), stop)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tc.want != "" {
				want = filepath.Join(root, tc.want)
			}
			if got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}

func TestFindRelative(t *testing.T) {
	root := t.TempDir()
	makeFiles(t, root, []string{".git/", ".dslint.yaml", "a/"})
	t.Chdir(root)
	if got, err := Find(".", ""); err != nil || got != ".dslint.yaml" {
		t.Errorf(`Find(".") = %q, %v; want ".dslint.yaml"`, got, err)
	}
	t.Chdir("a")
	if got, err := Find(".", ""); err != nil || got != filepath.Join(root, ".dslint.yaml") {
		t.Errorf(`Find(".") in a subdirectory = %q, %v; want the absolute path`, got, err)
	}
}

func TestFindErrors(t *testing.T) {
	root := t.TempDir()
	makeFiles(t, root, []string{".git/", ".dslint.yaml", ".dslint.yml"})
	if _, err := Find(root, ""); err == nil || !strings.Contains(err.Error(), "both exist") {
		t.Errorf("Find with both names = %v, want an error", err)
	}
	if _, err := Find(filepath.Join(root, "missing"), ""); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Find(missing) = %v, want not exist", err)
	}
}

func makeFiles(t *testing.T, root string, files []string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzLoad feeds arbitrary bytes to Load: it must never panic, and every
// error it reports must point inside the file.
func FuzzLoad(f *testing.F) {
	full, err := os.ReadFile(filepath.Join("testdata", "full.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(full),
		Starter(),
		uncomment(Starter()),
		"",
		"failOn: warn\nrulez: {}\n",
		"a: &a {b: *a}\n<<: *a\n",
		"pools: [&p {name: a, <<: *p}, {<<: [*p, *p, 3]}]\n",
		"pools:\n  - name: gpu\n    count: 99999999999999999999\n    taints: [{key: k}, [x]]\n",
		"? [a]\n: b\n---\n- c\n",
		"rules:\n\tfoo: off\n",
	} {
		f.Add([]byte(seed))
	}
	path := filepath.Join(f.TempDir(), ".dslint.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path, knownRules)
		if err == nil {
			if c == nil {
				t.Fatal("Load returned neither a config nor an error")
			}
			return
		}
		var errs Errors
		if !errors.As(err, &errs) || len(errs) == 0 {
			t.Fatalf("Load error %v (%T) is not Errors", err, err)
		}
		lines := strings.Count(string(data), "\n") + strings.Count(string(data), "\r") + 2
		for _, e := range errs {
			if e.Line < 1 || e.Column < 1 || e.Line > lines {
				t.Fatalf("error outside the file (%d line breaks): %v", lines, e)
			}
		}
	})
}

// TestPoolAllocatable: a pool's allocatable keeps each quantity as written,
// a number as its text; a value that is neither is an error.
func TestPoolAllocatable(t *testing.T) {
	c, err := loadText(t, "pools:\n  - name: gpu\n    count: 1\n    allocatable: {cpu: 32, memory: 256Gi, nvidia.com/gpu: \"8\", storage: 1.5}\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"cpu": "32", "memory": "256Gi", "nvidia.com/gpu": "8", "storage": "1.5"}
	if len(c.Pools) != 1 || !maps.Equal(c.Pools[0].Allocatable, want) {
		t.Errorf("pools = %+v, want allocatable %v", c.Pools, want)
	}
	if _, err := loadText(t, "pools:\n  - name: gpu\n    count: 1\n    allocatable: {cpu: [32]}\n"); err == nil || !strings.Contains(err.Error(), "pools[0].allocatable.cpu: expected a string") {
		t.Errorf("allocatable cpu: [32]: %v, want an error naming the field", err)
	}
}

// TestGlobsMeet: two namespace globs meet when one namespace matches both,
// and the namespace named is one that does.
func TestGlobsMeet(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want string // "" when they do not meet
	}{
		{"ml", "ml", "ml"},
		{"ml", "web", ""},
		{"ml-*", "*-web", "ml-web"},
		{"ml-*", "ml", ""},
		{"*", "*", "x"},
		{"a*b*c", "*bc", "abc"},
		{"team-*-prod", "team-a*", "team-a-prod"},
		{"x*y", "y*x", ""},
	} {
		budget := 1000
		got, ok := globsMeet(c.a, c.b, &budget)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("globsMeet(%q, %q) = %q, %v; want %q", c.a, c.b, got, ok, c.want)
		}
	}
}

// TestOverlapBudget: a config of many long globs is refused, its overlap
// check cut short by the budget, rather than checked for hours.
func TestOverlapBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("pools:\n")
	glob := "*" + strings.Repeat("a*", 30) + "b"
	for i := range 300 {
		fmt.Fprintf(&b, "  - {name: p%d, labels: {p: p%d}, owners: {namespaces: [\"%s%d\"]}}\n", i, i, glob, i%10)
	}
	_, err := loadText(t, b.String())
	if err == nil || !strings.Contains(err.Error(), "too many, or too long, to check for overlap") {
		t.Errorf("err = %v, want the overlap budget's", err)
	}
}
