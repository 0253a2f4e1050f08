package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/dslint/dslint/internal/finding"
)

// A GitLab fingerprint names what a finding is about: moving it to another
// line keeps it, and two alike findings of one object get two.
func TestGitLabFingerprints(t *testing.T) {
	fingerprints := func(lines ...int) []string {
		res := sample()
		res.Findings = res.Findings[:1]
		for i, line := range lines {
			if i > 0 {
				res.Findings = append(res.Findings, res.Findings[0])
			}
			res.Findings[i].Line = line
		}
		var buf bytes.Buffer
		if err := Write(&buf, "gitlab", res, Options{}); err != nil {
			t.Fatal(err)
		}
		var issues []gitlabIssue
		if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range issues {
			out = append(out, i.Fingerprint)
		}
		return out
	}
	moved, before := fingerprints(40), fingerprints(9)
	if moved[0] != before[0] {
		t.Errorf("fingerprint changed with the line: %s, then %s", before[0], moved[0])
	}
	if twice := fingerprints(9, 9); twice[0] == twice[1] {
		t.Errorf("two findings share fingerprint %s", twice[0])
	}
}

// With no finding, the report is an empty array, which GitLab reads as a
// clean run.
func TestGitLabEmpty(t *testing.T) {
	res := sample()
	res.Findings = nil
	var buf bytes.Buffer
	if err := Write(&buf, "gitlab", res, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "[]\n" {
		t.Errorf("got %q, want []", got)
	}
}

// TestGitLabSchema validates the gitlab format against
// testdata/gitlab-codequality.schema.json, the fields and values GitLab's
// documentation of the Code Quality report requires (GitLab publishes no
// schema of its own), and checks that no two issues share a fingerprint,
// which GitLab would merge. So do the reports of real runs that
// DSLINT_GITLAB_FILES lists (.ci/run writes them).
func TestGitLabSchema(t *testing.T) {
	schema, err := gojsonschema.NewSchema(gojsonschema.NewReferenceLoader("file://" + filepath.ToSlash(mustAbs(t, "testdata/gitlab-codequality.schema.json"))))
	if err != nil {
		t.Fatal(err)
	}
	edge := sarifEdgeCases()
	edge.Findings = edge.Findings[:3] // the fourth has no file: nothing GitLab could show
	reports := map[string][]byte{}
	for name, res := range map[string]*finding.Result{"sample": sample(), "edge-cases": edge, "clean": {}} {
		var buf bytes.Buffer
		if err := Write(&buf, "gitlab", res, Options{}); err != nil {
			t.Fatal(err)
		}
		reports[name] = buf.Bytes()
	}
	for _, file := range filepath.SplitList(os.Getenv("DSLINT_GITLAB_FILES")) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		reports[file] = data
	}
	// The schema rejects what GitLab rejects.
	for _, bad := range []string{
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"warning","location":{"path":"a","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"major","location":{"path":"a"}}]`,
		`[{"description":"d","check_name":"c","severity":"major","location":{"path":"a","lines":{"begin":1}}}]`,
	} {
		if result, err := schema.Validate(gojsonschema.NewStringLoader(bad)); err != nil || result.Valid() {
			t.Errorf("the schema accepts %s", bad)
		}
	}
	for name, data := range reports {
		result, err := schema.Validate(gojsonschema.NewBytesLoader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range result.Errors() {
			t.Errorf("%s: %s", name, e)
		}
		var issues []gitlabIssue
		if err := json.Unmarshal(data, &issues); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seen := map[string]bool{}
		for _, i := range issues {
			if seen[i.Fingerprint] {
				t.Errorf("%s: two issues share fingerprint %s", name, i.Fingerprint)
			}
			seen[i.Fingerprint] = true
		}
	}
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
