package cli

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/report"
)

const regenerate = "regenerate with `make docs` and commit the result"

// TestRulesDocUpToDate fails when docs/rules.md no longer matches the rules'
// metadata.
func TestRulesDocUpToDate(t *testing.T) {
	want, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatalf("%v (%s)", err, regenerate)
	}
	code, got, errOut := run(t, "", "rules", "--format", "markdown")
	if code != ExitOK {
		t.Fatalf("rules --format markdown: exit %d: %s", code, errOut)
	}
	if got != string(want) {
		t.Errorf("docs/rules.md is stale: %s", regenerate)
	}
}

// TestReadmeRuleTableUpToDate fails when the README's rule table no longer
// matches the rules.
func TestReadmeRuleTableUpToDate(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ruleCatalogue(nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.ReplaceRuleTable(readme, report.CatalogueTable(rules, "docs/rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(readme) {
		t.Errorf("the rule table of README.md is stale: %s", regenerate)
	}
}

// TestReadmeExampleOutputs keeps the README's pictures of the shipped
// examples true: the block that runs dslint on the example chart, and the
// one that lints docs/examples/pools with its declared pools, show what
// their commands print.
func TestReadmeExampleOutputs(t *testing.T) {
	for _, prefix := range []string{"docs/examples/helm/", "-c docs/examples/pools/", "fix --diff examples/"} {
		t.Run(prefix, func(t *testing.T) {
			command, want := readmeBlock(t, "```text\n$ dslint "+prefix)
			args := strings.Fields(prefix + command)
			t.Chdir("../..")
			_, got, _ := run(t, "", args...)
			if got != want {
				t.Errorf("README.md's sample of dslint %s is stale; replace it with what it prints:\n%s", strings.Join(args, " "), got)
			}
		})
	}
}

// readmeBlock is the first block of README.md that starts with marker:
// the rest of its first line (the command) and the lines after it, up to
// the block's end.
func readmeBlock(t *testing.T, marker string) (command, body string) {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), marker)
	if !ok {
		t.Fatalf("README.md has no %q block", marker)
	}
	command, after, _ = strings.Cut(after, "\n")
	body, _, _ = strings.Cut(after, "```")
	return command, body
}

// TestReadmeSampleOutput keeps the README's picture of dslint's output true:
// the first text block that runs dslint on examples/ must show what the
// command it shows prints.
func TestReadmeSampleOutput(t *testing.T) {
	command, want := readmeBlock(t, "```text\n$ dslint ")
	args := strings.Fields(command)
	if len(args) == 0 || args[len(args)-1] != "examples/" {
		t.Fatalf("README.md's first sample runs dslint %s, not dslint on examples/", command)
	}
	t.Chdir("../..")
	_, got, _ := run(t, "", args...)
	if got != want {
		t.Errorf("README.md's sample output is stale; replace it with what dslint %s prints:\n%s", command, got)
	}
}

// TestReadmeConfigParses keeps the README's configuration sample a valid
// .dslint.yaml: every key it shows is one dslint takes.
func TestReadmeConfigParses(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## Configuration\n")
	_, sample, ok := strings.Cut(section, "```yaml\n")
	if !ok {
		t.Fatal("README.md's Configuration section has no yaml block")
	}
	sample, _, _ = strings.Cut(sample, "```")
	if _, err := config.Parse(".dslint.yaml", []byte(sample), nil); err != nil {
		t.Errorf("README.md's configuration sample does not load:\n%v", err)
	}
}

// TestReadmeExportPolicyExcerpt keeps the README's excerpt of an exported
// policy true: every line of it is a line of what dslint export-policy
// writes for docs/examples/pools.
func TestReadmeExportPolicyExcerpt(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "`dslint export-policy -c docs/examples/pools/.dslint.yaml`:\n\n```yaml\n")
	if !ok {
		t.Fatal("README.md has no excerpt of dslint export-policy -c docs/examples/pools/.dslint.yaml")
	}
	excerpt, _, _ := strings.Cut(after, "```")
	t.Chdir("../..")
	code, out, errOut := run(t, "", "export-policy", "-c", "docs/examples/pools/.dslint.yaml")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	for _, line := range strings.Split(strings.TrimSuffix(excerpt, "\n"), "\n") {
		if !slices.Contains(lines, line) {
			t.Errorf("README.md's export-policy excerpt has a line the policy does not: %q", line)
		}
	}
}
