package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/regogate"
)

const newRuleID = "gpu-priority-class"

// newRule runs dslint new-rule into a fresh directory and returns it.
func newRule(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "policy")
	if code, out, errOut := run(t, "", "new-rule", "--dir", dir, newRuleID); code != ExitOK {
		t.Fatalf("new-rule: exit %d\n%s%s", code, out, errOut)
	}
	return dir
}

// edit replaces old by new in a file, which must hold old.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q", path, old)
	}
	write(t, path, strings.Replace(string(data), old, new, 1))
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

const testPrefix = `data.dslint.rules["gpu-priority-class_test"].`

// hasLine reports whether out has a line matching the regular expression.
func hasLine(out, pattern string) bool {
	return regexp.MustCompile(`(?m)^` + pattern + `$`).MatchString(out)
}

func TestNewRuleScaffoldPasses(t *testing.T) {
	dir := newRule(t)
	code, out, errOut := run(t, "", "test", dir)
	if code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s%s", code, out, errOut)
	}
	test := filepath.Join(dir, newRuleID+"_test.rego")
	fixtures := filepath.ToSlash(filepath.Join(dir, "fixtures", newRuleID))
	for _, want := range []string{
		`PASS ` + regexp.QuoteMeta(testPrefix) + `test_reports_a_workload_without_priority_class \(\S+ms\) at ` + regexp.QuoteMeta(test) + `:\d+`,
		`PASS ` + regexp.QuoteMeta(testPrefix) + `test_accepts_a_workload_with_priority_class \(\S+ms\) at ` + regexp.QuoteMeta(test) + `:\d+`,
		`PASS ` + regexp.QuoteMeta(fixtures) + `/fail_example.yaml \(\S+ms\)`,
		`PASS ` + regexp.QuoteMeta(fixtures) + `/pass_example.yaml \(\S+ms\)`,
		`4 passed, 0 failed, 0 errors`,
	} {
		if !hasLine(out, want) {
			t.Errorf("no line matching %s in:\n%s", want, out)
		}
	}
}

func TestNewRuleOutputNamesFilesAndNextSteps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	code, out, _ := run(t, "", "new-rule", "--dir", dir, newRuleID)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"wrote " + filepath.Join(dir, newRuleID+".rego"),
		"wrote " + filepath.Join(dir, newRuleID+"_test.rego"),
		"wrote " + filepath.Join(dir, "fixtures", newRuleID, "fail_example.yaml"),
		"wrote " + filepath.Join(dir, "fixtures", newRuleID, "pass_example.yaml"),
		"dslint test " + dir,
		"dslint --policy " + dir + " PATH",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	rule, _ := os.ReadFile(filepath.Join(dir, newRuleID+".rego"))
	for _, want := range []string{"# METADATA", "# title: ", "# description: ", "severity: warning", "remediation: ", "bad: ", "good: ",
		`package dslint.rules["gpu-priority-class"]`, "import data.dslint.lib.k8s", "import data.dslint.lib.result", "report contains result.fail("} {
		if !strings.Contains(string(rule), want) {
			t.Errorf("the rule lacks %q", want)
		}
	}
}

func TestNewRuleDefaultDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if code, out, errOut := run(t, "", "new-rule", newRuleID); code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join("policy", newRuleID+".rego")); err != nil {
		t.Fatal(err)
	}
	// dslint test without DIR tests ./policy.
	if code, out, errOut := run(t, "", "test"); code != ExitOK || !strings.Contains(out, "4 passed") {
		t.Errorf("test without DIR: exit %d\n%s%s", code, out, errOut)
	}
}

func TestTestFailingTest(t *testing.T) {
	dir := newRule(t)
	test := filepath.Join(dir, newRuleID+"_test.rego")
	edit(t, test, `"priorityClassName"],`, `"priorityClass"],`)
	code, out, errOut := run(t, "", "test", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		`FAIL ` + regexp.QuoteMeta(testPrefix) + `test_reports_a_workload_without_priority_class \(\S+ms\) at ` + regexp.QuoteMeta(test) + `:\d+`,
		`    ` + regexp.QuoteMeta(test) + `:\d+: failed: rule\.report == .*`,
		`PASS ` + regexp.QuoteMeta(testPrefix) + `test_accepts_a_workload_with_priority_class .*`,
		`3 passed, 1 failed, 0 errors`,
	} {
		if !hasLine(out, want) {
			t.Errorf("no line matching %s in:\n%s", want, out)
		}
	}
}

func TestTestPrintOutputAndVerboseTrace(t *testing.T) {
	dir := newRule(t)
	appendTo(t, filepath.Join(dir, newRuleID+"_test.rego"), `
test_prints_what_it_saw if {
	print("saw", count(_containers), "containers")
	count(_containers) == 3
}
`)
	code, out, _ := run(t, "", "test", "--run", "prints", dir)
	if code != ExitFindings || !strings.Contains(out, "    print() output:\n      saw 1 containers\n") || strings.Contains(out, "trace:") {
		t.Errorf("exit %d, want 1 with the print() output and no trace:\n%s", code, out)
	}
	code, out, _ = run(t, "", "test", "-v", "--run", "prints", dir)
	if code != ExitFindings || !strings.Contains(out, "    trace:\n") || !strings.Contains(out, "| Fail ") {
		t.Errorf("-v: exit %d, want 1 with the trace:\n%s", code, out)
	}
	// A passing test's output is printed with -v only.
	code, out, _ = run(t, "", "test", "--run", "accepts", dir)
	code2, outV, _ := run(t, "", "test", "--verbose", "--run", "accepts", dir)
	if code != ExitOK || code2 != ExitOK || strings.Contains(out, "print()") || strings.Contains(outV, "trace:") {
		t.Errorf("passing test: exit %d, %d\n%s\n%s", code, code2, out, outV)
	}
}

func TestTestErroringTest(t *testing.T) {
	dir := newRule(t)
	appendTo(t, filepath.Join(dir, newRuleID+"_test.rego"), `
_pool := "gpu"

_pool := "cpu"

test_conflict if {
	_pool == "gpu"
}
`)
	code, out, errOut := run(t, "", "test", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if !hasLine(out, `ERROR `+regexp.QuoteMeta(testPrefix)+`test_conflict \(\S+ms\) at .*_test.rego:\d+`) ||
		!strings.Contains(out, "eval_conflict_error") || !hasLine(out, `4 passed, 0 failed, 1 error`) {
		t.Errorf("want an ERROR line with the conflict:\n%s", out)
	}
}

func TestTestNoTests(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "rule.rego"), "package dslint.custom.helpers\n\nx := 1\n")
	code, _, errOut := run(t, "", "test", dir)
	if code != ExitUsage || !strings.Contains(errOut, "no tests found in "+dir) {
		t.Errorf("exit %d, want 2 and \"no tests found\": %s", code, errOut)
	}
	code, _, errOut = run(t, "", "test", filepath.Join(dir, "nope"))
	if code != ExitUsage || !strings.Contains(errOut, "nope: no such file or directory") {
		t.Errorf("missing DIR: exit %d: %s", code, errOut)
	}
}

func TestTestPolicyErrors(t *testing.T) {
	cases := []struct {
		name, file, content, want string
	}{
		{"syntax error in a policy", "helpers.rego", "package dslint.custom.helpers\n\nbroken if {\n\tx :=\n}\n", "helpers.rego:5:1: unexpected } token"},
		{"syntax error in a test", "helpers_test.rego", "package dslint.custom.helpers\n\ntest_x if {\n\t1 ==\n}\n", "helpers_test.rego:5:1: unexpected } token"},
		{"compile error in a test", "more_test.rego", "package dslint.custom.more\n\ntest_x if {\n\tnot_a_function(1)\n}\n", "more_test.rego:4:2: undefined function not_a_function"},
		{"sandbox in tests", "net_test.rego", "package dslint.custom.net\n\ntest_x if {\n\thttp.send({})\n}\n", "net_test.rego:4:2: http.send is not available to policies"},
		{"built-in rule id", "mine.rego", "# METADATA\n# title: t\n# description: d\n# custom:\n#   severity: warning\n#   remediation: r\npackage dslint.rules[\"wildcard-toleration\"]\n", "mine.rego:7:1: rule \"wildcard-toleration\" is a built-in rule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := newRule(t)
			write(t, filepath.Join(dir, c.file), c.content)
			code, out, errOut := run(t, "", "test", dir)
			want := filepath.Join(dir, c.want)
			if code != ExitUsage || !strings.Contains(errOut, want) {
				t.Errorf("exit %d, want 2 and %q on stderr\nstdout:\n%s\nstderr:\n%s", code, want, out, errOut)
			}
		})
	}
}

func TestTestRun(t *testing.T) {
	dir := newRule(t)
	code, out, errOut := run(t, "", "test", "--run", `test_accepts|pass_`, dir)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "test_accepts_a_workload_with_priority_class") || !strings.Contains(out, "pass_example.yaml") ||
		strings.Contains(out, "test_reports") || strings.Contains(out, "fail_example.yaml") || !strings.Contains(out, "2 passed") {
		t.Errorf("--run selected the wrong tests:\n%s", out)
	}
	// The regular expression is matched against the whole name.
	if code, out, _ := run(t, "", "test", "--run", `^data\.dslint\.rules\["gpu-priority-class_test"\]\.test_reports`, dir); code != ExitOK || !strings.Contains(out, "1 passed") {
		t.Errorf("--run on the full name: exit %d\n%s", code, out)
	}
	if code, _, errOut := run(t, "", "test", "--run", "nothing-matches", dir); code != ExitUsage || !strings.Contains(errOut, `no test or fixture matches --run "nothing-matches"`) {
		t.Errorf("--run matching nothing: exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, "", "test", "--run", "(", dir); code != ExitUsage || !strings.Contains(errOut, "--run: ") {
		t.Errorf("bad --run: exit %d: %s", code, errOut)
	}
}

func TestTestCoverage(t *testing.T) {
	dir := newRule(t)
	rule := filepath.Join(dir, newRuleID+".rego")
	data, _ := os.ReadFile(rule)
	end := strings.Count(string(data), "\n")
	appendTo(t, rule, `
report contains result.fail(k8s.pod_spec_path, "host network") if {
	k8s.pod_spec.hostNetwork == true
}

_never_called(x) := y if {
	y := x + 1
}
`)
	code, out, errOut := run(t, "", "test", "--coverage", dir)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	// The new report rule's head is never true, though its body is
	// evaluated; the function is never called.
	head, fn := end+2, end+6
	want := fmt.Sprintf("%s: 5/8 lines, 62.5%%; not covered: %d, %d-%d", rule, head, fn, fn+1)
	if !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
	if strings.Contains(out, "_test.rego: ") {
		t.Errorf("coverage reports a test file:\n%s", out)
	}
	if code, out, _ := run(t, "", "test", dir); strings.Contains(out, "coverage") || code != ExitOK {
		t.Errorf("coverage without --coverage:\n%s", out)
	}
}

func TestTestJSON(t *testing.T) {
	dir := newRule(t)
	edit(t, filepath.Join(dir, newRuleID+"_test.rego"), `"priorityClassName"],`, `"priorityClass"],`)
	code, out, errOut := run(t, "", "test", "--format", "json", "--coverage", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	var doc struct {
		Version int
		Results []struct {
			Kind, Name, File, Result, Output, Message string
			Line                                      int
			DurationNS                                int64 `json:"duration_ns"`
		}
		Coverage []struct {
			File           string
			Covered, Total int
			Percent        float64
			NotCovered     [][2]int `json:"not_covered"`
		}
		Summary struct{ Passed, Failed, Errors, Skipped int }
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Version != 1 || len(doc.Results) != 4 || doc.Summary.Passed != 3 || doc.Summary.Failed != 1 {
		t.Fatalf("unexpected document:\n%s", out)
	}
	first := doc.Results[0]
	if first.Kind != "test" || first.Name != testPrefix+"test_reports_a_workload_without_priority_class" || first.Result != "fail" ||
		first.File != filepath.Join(dir, newRuleID+"_test.rego") || first.Line == 0 || first.DurationNS <= 0 || !strings.Contains(first.Message, `failed: rule.report == {{`) {
		t.Errorf("first result: %+v", first)
	}
	if last := doc.Results[3]; last.Kind != "fixture" || last.Result != "pass" || !strings.HasSuffix(last.Name, "/pass_example.yaml") {
		t.Errorf("last result: %+v", last)
	}
	if len(doc.Coverage) != 1 || doc.Coverage[0].Total == 0 || doc.Coverage[0].Percent != 100 {
		t.Errorf("coverage: %+v", doc.Coverage)
	}
	if !strings.Contains(out, `"output": ""`) {
		t.Errorf("output is always present:\n%s", out)
	}
}

func TestTestFixtures(t *testing.T) {
	dir := newRule(t)
	fixtures := filepath.Join(dir, "fixtures", newRuleID)
	fail := filepath.Join(fixtures, "fail_example.yaml")
	edit(t, fail, "    spec: # want: gpu-priority-class", "    spec:\n      restartPolicy: Always # want: gpu-priority-class")
	write(t, filepath.Join(fixtures, "fail_no_want.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: c}]\n")
	write(t, filepath.Join(fixtures, "pass_more.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: c}]\n")
	if err := os.MkdirAll(filepath.Join(dir, "fixtures", "no-such-rule"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "fixtures", "no-such-rule", "fail_x.yaml"), "kind: Pod # want: no-such-rule\n")
	code, out, errOut := run(t, "", "test", "--run", "fixtures", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	f := regexp.QuoteMeta(filepath.ToSlash(fail))
	for _, want := range []string{
		`FAIL ` + f + ` \(\S+ms\)`,
		`    ` + f + `:15:5: unexpected gpu-priority-class finding: deployment "web" sets no priorityClassName.*`,
		`    ` + f + `:16:7: missing gpu-priority-class finding \(# want: on this line\)`,
		`FAIL .*/fail_no_want.yaml \(\S+ms\)`,
		`    .*/fail_no_want.yaml:4:1: unexpected gpu-priority-class finding: pod "p" .*`,
		`    a fail_ fixture must expect at least one gpu-priority-class finding`,
		`PASS .*/pass_more.yaml \(\S+ms\)`,
		`FAIL .*/no-such-rule/fail_x.yaml \(\S+ms\)`,
		`    no rule no-such-rule among the policies and the built-in rules .*`,
		`2 passed, 3 failed, 0 errors`,
	} {
		if !hasLine(out, want) {
			t.Errorf("no line matching %s in:\n%s", want, out)
		}
	}
}

// TestTestFixtureNodes: a fixture's Node objects are its node inventory, as
// for dslint's own fixtures, so rules that read the inventory can be tested.
func TestTestFixtureNodes(t *testing.T) {
	dir := newRule(t)
	src, err := os.ReadFile("../../fixtures/no-matching-nodes/fail_selector_without_toleration.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fail := filepath.Join(dir, "fixtures", "no-matching-nodes", "fail_inventory.yaml")
	write(t, fail, string(src))
	code, out, errOut := run(t, "", "test", "--run", "no-matching-nodes", dir)
	if code != ExitOK || !hasLine(out, `PASS `+regexp.QuoteMeta(filepath.ToSlash(fail))+` \(\S+ms\)`) {
		t.Errorf("exit %d, want 0 and the fixture passed\n%s%s", code, out, errOut)
	}
}

// TestTestFixturesOnly runs a directory with fixtures and no Rego tests:
// fixtures are tests too.
func TestTestFixturesOnly(t *testing.T) {
	dir := newRule(t)
	if err := os.Remove(filepath.Join(dir, newRuleID+"_test.rego")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "", "test", dir)
	if code != ExitOK || !strings.Contains(out, "2 passed, 0 failed, 0 errors") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestNewRuleRefusesToOverwrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "policy")
	fixture := filepath.Join(dir, "fixtures", newRuleID, "pass_example.yaml")
	if err := os.MkdirAll(filepath.Dir(fixture), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, fixture, "mine\n")
	code, out, errOut := run(t, "", "new-rule", "--dir", dir, newRuleID)
	if code != ExitUsage || !strings.Contains(errOut, fixture+" already exists") {
		t.Errorf("exit %d, want 2 naming %s\n%s%s", code, fixture, out, errOut)
	}
	if data, _ := os.ReadFile(fixture); string(data) != "mine\n" {
		t.Errorf("%s was overwritten", fixture)
	}
	if _, err := os.Stat(filepath.Join(dir, newRuleID+".rego")); err == nil {
		t.Errorf("new-rule wrote the rule though it refused")
	}
}

func TestNewRuleID(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		id, want string
	}{
		{"GPU-Class", `invalid rule id "GPU-Class"`},
		{"gpu_class", `invalid rule id "gpu_class"`},
		{"gpu--class", `invalid rule id "gpu--class"`},
		{"-gpu", `invalid rule id "-gpu"`},
		{"wildcard-toleration", `"wildcard-toleration" is the id of a built-in rule (dslint explain wildcard-toleration): choose another, like "custom-wildcard-toleration"`},
	}
	for _, c := range cases {
		code, _, errOut := run(t, "", "new-rule", "--dir", dir, "--", c.id)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("new-rule %s: exit %d, want 2 and %q: %s", c.id, code, c.want, errOut)
		}
	}
	if code, _, _ := run(t, "", "new-rule", "--dir", dir); code != ExitUsage {
		t.Errorf("new-rule without id: exit %d, want 2", code)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused ids wrote %d files", len(entries))
	}
}

func TestTestAndNewRuleHelp(t *testing.T) {
	for cmd, flags := range map[string][]string{
		"test":     {"--run REGEX", "-v, --verbose", "--coverage", "-f, --format string", "fixtures/<rule-id>/", `"duration_ns"`},
		"new-rule": {"--dir DIR", "fail_example.yaml", "never overwritten"},
	} {
		code, out, _ := run(t, "", cmd, "--help")
		if code != ExitOK || strings.Count(out, "Usage: ") != 1 {
			t.Errorf("%s --help: exit %d, want 0 and the usage once:\n%s", cmd, code, out)
		}
		for _, f := range flags {
			if !strings.Contains(out, f) {
				t.Errorf("%s --help lacks %q:\n%s", cmd, f, out)
			}
		}
	}
	if code, _, errOut := run(t, "", "test", "--format", "xml", "."); code != ExitUsage || !strings.Contains(errOut, `unknown --format "xml"`) {
		t.Errorf("test --format xml: exit %d: %s", code, errOut)
	}
	_, out, _ := run(t, "", "--help")
	if !strings.Contains(out, "  test     run the Rego tests") || !strings.Contains(out, "  new-rule write a custom rule") {
		t.Errorf("dslint --help does not list test and new-rule:\n%s", out)
	}
}

// TestNewRuleScaffoldPassesTheRegoGate: the Rego new-rule writes is
// formatted as opa fmt formats it and compiles in strict mode, as dslint's
// own Rego must.
func TestNewRuleScaffoldPassesTheRegoGate(t *testing.T) {
	dir := newRule(t)
	files := []string{filepath.Join(dir, newRuleID+".rego"), filepath.Join(dir, newRuleID+"_test.rego")}
	for _, f := range files {
		if ok, err := regogate.Formatted(f); !ok || err != nil {
			t.Errorf("%s is not formatted (err %v)", f, err)
		}
	}
	library, _ := filepath.Glob("../../rego/*.rego") // what the rule calls
	if len(library) == 0 {
		t.Fatal("no library in ../../rego")
	}
	errs, err := regogate.Strict(append(files, library...))
	if err != nil || len(errs) > 0 {
		t.Errorf("strict compile: %v %v", errs, err)
	}
}
