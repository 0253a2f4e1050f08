package dslint_test

// Tests of the CI examples in docs/ci, so that they cannot rot: the
// commands they run are run on examples/ (dslint through cli.Main, go
// install checked against go.mod), and the reports they write are the ones
// their CI collects. With the real tools at hand (.ci/run installs them),
// the GitLab job also runs in gitlab-ci-local, which validates it against
// GitLab's CI schema, and the Jenkinsfile is parsed by Groovy.

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/cli"
)

const (
	gitlabCIDoc = "docs/ci/gitlab-ci.yml"
	jenkinsDoc  = "docs/ci/Jenkinsfile"
)

// gitlabJob is the part of a GitLab CI job the example uses.
type gitlabJob struct {
	Variables map[string]string `yaml:"variables"`
	Script    []string          `yaml:"script"`
	Artifacts struct {
		When    string            `yaml:"when"`
		Reports map[string]string `yaml:"reports"`
	} `yaml:"artifacts"`
}

func readGitLabJob(t *testing.T) gitlabJob {
	t.Helper()
	var jobs map[string]gitlabJob
	if err := yaml.Unmarshal(readDoc(t, gitlabCIDoc), &jobs); err != nil {
		t.Fatalf("%s: %v", gitlabCIDoc, err)
	}
	job, ok := jobs["dslint"]
	if !ok {
		t.Fatalf("%s has no dslint job", gitlabCIDoc)
	}
	return job
}

func readDoc(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// shellLines are the commands of a script, one a line, with the words
// split as the shell would split these simple ones (no quoted spaces).
func shellLines(lines []string) [][]string {
	var out [][]string
	for _, l := range lines {
		var words []string
		for _, w := range strings.Fields(l) {
			words = append(words, strings.Trim(w, `"'`))
		}
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// ciCommands are the dslint and go install command lines of a script.
func ciCommands(t *testing.T, doc string, script []string) (dslint, install [][]string) {
	t.Helper()
	for _, words := range shellLines(script) {
		for strings.Contains(words[0], "=") { // leading VAR=value assignments
			words = words[1:]
		}
		switch {
		case path.Base(words[0]) == "dslint":
			dslint = append(dslint, words[1:])
		case len(words) > 1 && words[0] == "go" && words[1] == "install":
			install = append(install, words[2:])
		}
	}
	if len(dslint) == 0 || len(install) == 0 {
		t.Fatalf("%s: no dslint or go install command found", doc)
	}
	return dslint, install
}

// checkInstall: go install names dslint's command in this module.
func checkInstall(t *testing.T, doc string, args [][]string) {
	t.Helper()
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(readDoc(t, "go.mod"))
	if module == nil {
		t.Fatal("go.mod has no module line")
	}
	want := string(module[1]) + "/cmd/dslint"
	if _, err := os.Stat("cmd/dslint"); err != nil {
		t.Fatal(err)
	}
	for _, a := range args {
		if len(a) != 1 || !strings.HasPrefix(a[0], want+"@") {
			t.Errorf("%s: go install %s, want go install %s@VERSION", doc, strings.Join(a, " "), want)
		}
	}
}

// runCIDslint runs one dslint command line of a doc on examples/ in a
// temporary directory, as the CI job would in a checkout, and returns the
// report files it writes by format.
func runCIDslint(t *testing.T, doc string, args []string) map[string]string {
	t.Helper()
	examples, err := filepath.Abs("examples")
	if err != nil {
		t.Fatal(err)
	}
	var cmd []string
	for _, a := range args {
		switch a {
		case "$DSLINT_PATHS", "${DSLINT_PATHS}":
			a = examples
		}
		if strings.Contains(a, "$") {
			t.Fatalf("%s: dslint %s: the test knows no value for %s", doc, strings.Join(args, " "), a)
		}
		cmd = append(cmd, a)
	}
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	// examples/ has findings: the job must fail through the exit code.
	if code := cli.Main(cmd, strings.NewReader(""), &out, &errOut); code != cli.ExitFindings {
		t.Fatalf("%s: dslint %s: exit %d, want %d (findings)\n%s", doc, strings.Join(args, " "), code, cli.ExitFindings, errOut.String())
	}
	reports := map[string]string{}
	for i, a := range cmd {
		if a == "--report" && i+1 < len(cmd) {
			format, file, _ := strings.Cut(cmd[i+1], "=")
			reports[format] = file
			checkReportFile(t, doc, format, file)
		}
	}
	return reports
}

// checkReportFile: the file was written and reads as its format.
func checkReportFile(t *testing.T, doc, format, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	var v any
	switch format {
	case "json", "sarif", "gitlab":
		err = json.Unmarshal(data, &v)
	case "junit", "checkstyle":
		err = xml.Unmarshal(data, new(struct{}))
	}
	if err != nil {
		t.Errorf("%s: %s report %s: %v", doc, format, file, err)
	}
}

// TestGitLabCIDoc: the job's commands work, and the reports it declares are
// the ones dslint writes, uploaded even when the job fails.
func TestGitLabCIDoc(t *testing.T) {
	job := readGitLabJob(t)
	dslint, install := ciCommands(t, gitlabCIDoc, job.Script)
	checkInstall(t, gitlabCIDoc, install)
	if job.Variables["DSLINT_PATHS"] == "" || job.Variables["DSLINT_VERSION"] == "" {
		t.Errorf("%s: variables %v, want DSLINT_PATHS and DSLINT_VERSION", gitlabCIDoc, job.Variables)
	}
	reports := runCIDslint(t, gitlabCIDoc, dslint[0])
	if job.Artifacts.When != "always" {
		t.Errorf("%s: artifacts:when is %q, want always", gitlabCIDoc, job.Artifacts.When)
	}
	for declared, format := range map[string]string{"codequality": "gitlab", "junit": "junit"} {
		if got, want := job.Artifacts.Reports[declared], reports[format]; got == "" || got != want {
			t.Errorf("%s: artifacts:reports:%s is %q, dslint writes --report %s=%s", gitlabCIDoc, declared, got, format, want)
		}
	}
}

// jenkinsScript are the lines of the script of the Jenkinsfile's sh step.
func jenkinsScript(t *testing.T, text string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?s)sh '''\n(.*?)'''`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s: no sh ''' step", jenkinsDoc)
	}
	return strings.Split(m[1], "\n")
}

// TestJenkinsfileDoc: the stage's commands work, and the junit and
// recordIssues steps read the reports dslint writes, in post { always }.
func TestJenkinsfileDoc(t *testing.T) {
	text := string(readDoc(t, jenkinsDoc))
	dslint, install := ciCommands(t, jenkinsDoc, jenkinsScript(t, text))
	checkInstall(t, jenkinsDoc, install)
	for _, v := range []string{"DSLINT_VERSION", "DSLINT_PATHS"} {
		if !regexp.MustCompile(`(?m)^\s+` + v + ` = '[^']+'`).MatchString(text) {
			t.Errorf("%s: the environment sets no %s", jenkinsDoc, v)
		}
	}
	reports := runCIDslint(t, jenkinsDoc, dslint[0])
	post := text[strings.Index(text, "post {"):]
	if !strings.Contains(post, "always {") {
		t.Errorf("%s: the reports are not recorded in post { always }", jenkinsDoc)
	}
	for step, format := range map[string]string{`junit testResults: '`: "junit", `checkStyle(pattern: '`: "checkstyle"} {
		_, after, ok := strings.Cut(post, step)
		got, _, _ := strings.Cut(after, "'")
		if !ok || reports[format] == "" || got != reports[format] {
			t.Errorf("%s: %s...' reads %q, dslint writes --report %s=%s", jenkinsDoc, step, got, format, reports[format])
		}
	}
}

// TestGitLabCIDocRuns runs the job with gitlab-ci-local (the command
// DSLINT_GITLAB_CI_LOCAL names), which first validates it against GitLab's
// CI JSON schema. The shell executor stands in for the golang image, and a
// go on PATH that installs this test binary as dslint stands in for the
// module proxy.
func TestGitLabCIDocRuns(t *testing.T) {
	gcl := os.Getenv("DSLINT_GITLAB_CI_LOCAL")
	if gcl == "" {
		t.Skip("set DSLINT_GITLAB_CI_LOCAL to a gitlab-ci-local command to run docs/ci/gitlab-ci.yml (see .ci/run)")
	}
	repo := t.TempDir()
	if err := os.CopyFS(filepath.Join(repo, "examples"), os.DirFS("examples")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".gitlab-ci.yml"), readDoc(t, gitlabCIDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=dslint", "-c", "user.email=dslint@example.com"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "examples")

	cmd := exec.Command(gcl, "--force-shell-executor", "--shell-isolation", "--no-color", "--variable", "DSLINT_PATHS=examples/", "dslint")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), goStandIn(t)...)
	out, err := cmd.CombinedOutput()
	log := string(out)
	if !strings.Contains(log, "json schema validated") {
		t.Fatalf("gitlab-ci-local did not validate the job:\n%s", log)
	}
	if err == nil || !regexp.MustCompile(`dslint finished in .* FAIL 1\b`).MatchString(log) {
		t.Fatalf("the job should fail with dslint's exit code 1 on examples/ (error %v):\n%s", err, log)
	}
	job := readGitLabJob(t)
	for _, report := range job.Artifacts.Reports {
		file := filepath.Join(repo, ".gitlab-ci-local", "builds", "dslint", report)
		if _, err := os.Stat(file); err != nil {
			t.Errorf("the job wrote no %s: %v\n%s", report, err, log)
		}
	}
}

// goStandIn is the environment for a script whose go installs this test
// binary as dslint and runs the real go for everything else.
func goStandIn(t *testing.T) []string {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	shim := `#!/bin/sh
case "$1 $2" in
"install github.com/dslint/dslint/cmd/dslint@"*)
  bin="$("$DSLINT_REAL_GO" env GOPATH)/bin"
  mkdir -p "$bin" && exec cp "$DSLINT_TEST_BINARY" "$bin/dslint" ;;
esac
exec "$DSLINT_REAL_GO" "$@"
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GOPATH=" + t.TempDir(),
		"DSLINT_REAL_GO=" + realGo,
		"DSLINT_TEST_BINARY=" + self,
		asDSLint + "=1",
	}
}

// TestJenkinsfileParses parses docs/ci/Jenkinsfile with Groovy (the groovy
// DSLINT_GROOVY names): a declarative pipeline is Groovy, so a syntax error
// there is one Jenkins would refuse. Jenkins itself is not at hand.
func TestJenkinsfileParses(t *testing.T) {
	groovy := os.Getenv("DSLINT_GROOVY")
	if groovy == "" {
		t.Skip("set DSLINT_GROOVY to a groovy binary to parse docs/ci/Jenkinsfile (see .ci/run)")
	}
	jenkinsfile, err := filepath.Abs(jenkinsDoc)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(groovy, "-e", "new GroovyShell().parse(new File(args[0]))", jenkinsfile)
	cmd.Env = os.Environ()
	if os.Getenv("JAVA_HOME") == "" {
		// Debian's groovy wants JAVA_HOME; take it from the java on PATH.
		if java, err := exec.LookPath("java"); err == nil {
			if real, err := filepath.EvalSymlinks(java); err == nil {
				cmd.Env = append(cmd.Env, "JAVA_HOME="+filepath.Dir(filepath.Dir(real)))
			}
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("groovy does not parse %s: %v\n%s", jenkinsDoc, err, out)
	}
}
