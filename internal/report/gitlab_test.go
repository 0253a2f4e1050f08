package report

import (
	"bytes"
	"encoding/json"
	"testing"
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
