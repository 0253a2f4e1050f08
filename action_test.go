package dslint_test

// Tests of the GitHub Action (action.yml) and of the pins in the workflows.
// actionlint checks .github/workflows but not an action's own metadata, so
// the action's shell scripts are checked here: bash -n always, shellcheck when
// it is installed (.ci/run sets DSLINT_SHELLCHECK and so requires it). The
// step that runs dslint is also run for real, with this test binary standing
// in for dslint.

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/cli"
)

// asDSLint makes the test binary behave as dslint, for the action's script.
const asDSLint = "DSLINT_ACTION_TEST_AS_DSLINT"

func TestMain(m *testing.M) {
	if os.Getenv(asDSLint) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

type action struct {
	lines  []string // action.yml's text, for positions
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	Shell string            `yaml:"shell"`
	Run   yaml.Node         `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

// script is a run: step's shell script, the line of action.yml where it
// starts and its indentation there.
type script struct {
	step   string
	line   int
	indent int
	text   string
}

func readAction(t *testing.T) action {
	t.Helper()
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	a := action{lines: strings.Split(string(data), "\n")}
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using is %q, want composite", a.Runs.Using)
	}
	return a
}

func (a action) scripts() []script {
	var out []script
	for _, s := range a.Runs.Steps {
		if s.Run.Kind == 0 {
			continue
		}
		sc := script{step: s.Name, line: s.Run.Line, text: s.Run.Value}
		if s.Run.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			sc.line++ // the text starts below "run: |"
			first := a.lines[sc.line-1]
			sc.indent = len(first) - len(strings.TrimLeft(first, " "))
		}
		out = append(out, sc)
	}
	return out
}

func (a action) step(id string) actionStep {
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	return actionStep{}
}

// Inputs pasted into a script are code injection; they go through env:.
func TestActionScriptsTakeNoExpressions(t *testing.T) {
	a := readAction(t)
	for _, s := range a.Runs.Steps {
		if s.Run.Kind != 0 && s.Shell != "bash" {
			t.Errorf("action.yml:%d: step %q has shell %q, want bash", s.Run.Line, s.Name, s.Shell)
		}
	}
	for _, sc := range a.scripts() {
		for i, l := range strings.Split(sc.text, "\n") {
			if strings.Contains(l, "${{") {
				t.Errorf("action.yml:%d: step %q has an expression in its script; pass the value through env: instead", sc.line+i, sc.step)
			}
		}
	}
}

func TestActionScriptsParse(t *testing.T) {
	checker := os.Getenv("DSLINT_SHELLCHECK")
	if checker == "" {
		checker, _ = exec.LookPath("shellcheck")
	}
	if checker == "" {
		t.Log("shellcheck not found: bash -n only (set DSLINT_SHELLCHECK to require it)")
	}
	for _, sc := range readAction(t).scripts() {
		file := filepath.Join(t.TempDir(), "step.sh")
		if err := os.WriteFile(file, []byte(sc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("bash", "-n", file).CombinedOutput(); err != nil {
			t.Errorf("action.yml: step %q: bash -n: %v\n%s", sc.step, err, out)
		}
		if checker != "" {
			shellcheck(t, checker, file, sc)
		}
	}
}

// shellcheck reports the script's problems at their lines in action.yml.
var gccLine = regexp.MustCompile(`^[^:]+:(\d+):(\d+): (.*)$`)

func shellcheck(t *testing.T, checker, file string, sc script) {
	t.Helper()
	out, err := exec.Command(checker, "-s", "bash", "-f", "gcc", file).CombinedOutput()
	if err == nil {
		return
	}
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("run %s: %v", checker, err)
	}
	scan := bufio.NewScanner(strings.NewReader(string(out)))
	for scan.Scan() {
		m := gccLine.FindStringSubmatch(scan.Text())
		if m == nil {
			t.Errorf("action.yml: step %q: %s", sc.step, scan.Text())
			continue
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		t.Errorf("action.yml:%d:%d: step %q: shellcheck %s", sc.line+line-1, sc.indent+col, sc.step, m[3])
	}
}

// Every input reaches a script, and every input a step reads is declared.
func TestActionInputs(t *testing.T) {
	a := readAction(t)
	ref := regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`)
	used := map[string]bool{}
	for _, s := range a.Runs.Steps {
		for _, v := range s.Env {
			for _, m := range ref.FindAllStringSubmatch(v, -1) {
				used[m[1]] = true
				if _, ok := a.Inputs[m[1]]; !ok {
					t.Errorf("action.yml: step %q reads input %q, which inputs: does not declare", s.Name, m[1])
				}
			}
		}
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("action.yml: input %q is declared but no step's env: reads it", name)
		}
	}
}

// A tag can be moved to other code; a commit cannot. Every action this
// repository runs is pinned by its full commit, with the version beside it.
func TestActionsPinnedByCommit(t *testing.T) {
	files, _ := filepath.Glob(".github/workflows/*.yml")
	uses := regexp.MustCompile(`^\s*(?:-\s+)?uses:\s*(\S+)(.*)$`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$`)
	version := regexp.MustCompile(`^\s+#\s*v\d+(\.\d+)*\s*$`)
	for _, file := range append([]string{"action.yml"}, files...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			m := uses.FindStringSubmatch(l)
			if m == nil || strings.HasPrefix(m[1], "./") {
				continue
			}
			if !pinned.MatchString(m[1]) || !version.MatchString(m[2]) {
				t.Errorf("%s:%d: %q is not pinned; want owner/repo@<40-hex commit> # vX.Y.Z", file, i+1, strings.TrimSpace(l))
			}
		}
	}
}

// actionRun is one run of the action's dslint step.
type actionRun struct {
	status  int               // the step's exit status
	stdout  string            // the log
	outputs map[string]string // what the step wrote to GITHUB_OUTPUT
	summary string            // what it appended to the job summary
}

// runLintStep runs the step with id "lint" the way the runner does, in dir,
// with the given inputs (the others at their defaults).
func runLintStep(t *testing.T, dir string, inputs map[string]string) actionRun {
	t.Helper()
	a := readAction(t)
	step := a.step("lint")
	if step.Run.Kind == 0 {
		t.Fatal("action.yml: no step with id lint")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	file := filepath.Join(tmp, "step.sh")
	if err := os.WriteFile(file, []byte(step.Run.Value), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), asDSLint+"=1", "DSLINT="+self, "RUNNER_TEMP="+tmp,
		"GITHUB_OUTPUT="+filepath.Join(tmp, "output"), "GITHUB_STEP_SUMMARY="+filepath.Join(tmp, "summary"))
	for name, in := range a.Inputs {
		value, ok := inputs[name]
		if !ok {
			value = in.Default
		}
		env = append(env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(name, "-", "_"))+"="+value)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", file)
	cmd.Dir, cmd.Env = dir, env
	var stdout strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	run := actionRun{outputs: map[string]string{}}
	if err := cmd.Run(); err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		run.status = exit.ExitCode()
	}
	run.stdout = stdout.String()
	out, _ := os.ReadFile(filepath.Join(tmp, "output"))
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			run.outputs[k] = v
		}
	}
	summary, _ := os.ReadFile(filepath.Join(tmp, "summary"))
	run.summary = string(summary)
	return run
}

// sarifRules lists the rule of every result in a SARIF file.
func sarifRules(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("sarif-file: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("sarif-file: %v", err)
	}
	var rules []string
	for _, r := range log.Runs {
		for _, res := range r.Results {
			rules = append(rules, res.RuleID)
		}
	}
	return rules
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Findings fail the step, and the SARIF and the summary are written anyway.
func TestActionRunFailsOnFindingsAndStillReports(t *testing.T) {
	run := runLintStep(t, ".", map[string]string{"path": "examples/"})
	if run.status != 1 || run.outputs["exit-code"] != "1" {
		t.Fatalf("status %d, exit-code output %q; want 1 and 1\n%s", run.status, run.outputs["exit-code"], run.stdout)
	}
	if !strings.Contains(run.stdout, "::error file=examples/manifests/") {
		t.Errorf("the log has no ::error annotation (format github):\n%s", run.stdout)
	}
	if rules := sarifRules(t, run.outputs["sarif-file"]); !contains(rules, "invalid-toleration") {
		t.Errorf("the SARIF has no invalid-toleration result: %v", rules)
	}
	if !strings.HasPrefix(run.summary, "## dslint") || !strings.Contains(run.summary, "invalid-toleration") {
		t.Errorf("the job summary is not the markdown report:\n%s", run.summary)
	}
}

// Paths split on newlines and spaces, args on spaces; fail-on none passes.
func TestActionRunSplitsPathsAndArgs(t *testing.T) {
	run := runLintStep(t, ".", map[string]string{
		"path":    "examples/manifests/logging.yaml\n  examples/manifests/ingress.yaml examples/nodes.yaml\n",
		"fail-on": "none",
		"format":  "text",
		"args":    "--disable   wildcard-toleration",
	})
	if run.status != 0 || run.outputs["exit-code"] != "0" {
		t.Fatalf("status %d, exit-code output %q; want 0 and 0\n%s", run.status, run.outputs["exit-code"], run.stdout)
	}
	if !strings.Contains(run.stdout, "3 files") {
		t.Errorf("want 3 files linted:\n%s", run.stdout)
	}
	rules := sarifRules(t, run.outputs["sarif-file"])
	if contains(rules, "wildcard-toleration") || len(rules) == 0 {
		t.Errorf("want findings without the disabled wildcard-toleration, got %v", rules)
	}
}

// An input is data, never shell: a path that looks like a command stays a
// (missing) path, which is a usage error with no reports.
func TestActionRunKeepsInputsOutOfTheShell(t *testing.T) {
	dir := t.TempDir()
	run := runLintStep(t, dir, map[string]string{
		"path": "$(touch injected) `touch injected` ;touch injected",
		"args": "$(touch injected)",
	})
	if run.status != 2 || run.outputs["exit-code"] != "2" {
		t.Errorf("status %d, exit-code output %q; want 2 and 2\n%s", run.status, run.outputs["exit-code"], run.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "injected")); err == nil {
		t.Error("an input ran as a shell command")
	}
	if run.outputs["sarif-file"] != "" {
		t.Errorf("want no SARIF after a usage error, got sarif-file %q", run.outputs["sarif-file"])
	}
	if !strings.Contains(run.summary, "dslint stopped with exit code 2") {
		t.Errorf("want the job summary to say dslint stopped, got %q", run.summary)
	}
}
