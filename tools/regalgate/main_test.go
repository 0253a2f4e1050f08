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
	failed, err := run(strings.NewReader(regalJSON), &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed != 2 {
		t.Errorf("%d fail the gate, want 2: the errors (not the warning)", failed)
	}
	want := "rego/k8s.rego:1:1: style/todo-comment: Avoid TODO comments (warning)\n" +
		"rego/k8s.rego:3:2: idiomatic/use-object-keys: Prefer to use object.keys\n" +
		"rules/a.rego:9:1: style/messy-rule: Messy incremental rule\n" +
		"regal: 2 files, 3 violations (idiomatic 1, style 2)\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestRunRefusesNoReport(t *testing.T) {
	for _, in := range []string{"", "not json", `{"violations": [], "summary": {"files_scanned": 0}}`} {
		if _, err := run(strings.NewReader(in), &strings.Builder{}); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
