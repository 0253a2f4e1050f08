package main

import (
	"strings"
	"testing"
)

const regalJSON = `{"violations": [
  {"title": "messy-rule", "description": "Messy incremental rule", "category": "style", "level": "error",
   "location": {"file": "rules/a.rego", "row": 9, "col": 1}},
  {"title": "use-object-keys", "description": "Prefer to use object.keys", "category": "idiomatic", "level": "error",
   "location": {"file": "rego/k8s.rego", "row": 3, "col": 2}},
  {"title": "todo-comment", "description": "Avoid TODO comments", "category": "style", "level": "warning",
   "location": {"file": "rego/k8s.rego", "row": 1, "col": 1}}
], "summary": {"files_scanned": 2}}`

func TestRun(t *testing.T) {
	var out strings.Builder
	failed, err := run(strings.NewReader(regalJSON), &out, []string{"rules/"})
	if err != nil {
		t.Fatal(err)
	}
	if failed != 1 {
		t.Errorf("%d fail the gate, want 1: the error outside rules/ (not the warning)", failed)
	}
	want := "rego/k8s.rego:1:1: style/todo-comment: Avoid TODO comments (warning)\n" +
		"rego/k8s.rego:3:2: idiomatic/use-object-keys: Prefer to use object.keys\n" +
		"rules/a.rego:9:1: style/messy-rule: Messy incremental rule (reported only)\n" +
		"regal: 2 files, 3 violations (idiomatic 1, style 2); 1 fail the gate, those in rules/ are only reported\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
	if failed, _ := run(strings.NewReader(regalJSON), &out, []string{"rules/", "rego/"}); failed != 0 {
		t.Errorf("all reported: %d fail", failed)
	}
}

func TestRunRefusesNoReport(t *testing.T) {
	for _, in := range []string{"", "not json", `{"violations": [], "summary": {"files_scanned": 0}}`} {
		if _, err := run(strings.NewReader(in), &strings.Builder{}, nil); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
