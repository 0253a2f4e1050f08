package helm

import (
	"reflect"
	"testing"

	"github.com/dslint/dslint/internal/manifest"
)

// locate renders nothing: content is what a template rendered, and the
// field at path is looked for in source.
func locate(t *testing.T, source, content string, path []any) manifest.Pos {
	t.Helper()
	f := manifest.Parse("rendered.yaml", []byte(content))
	if len(f.SyntaxErrors) > 0 || len(f.Docs) != 1 {
		t.Fatalf("rendered content does not parse: %v", f.SyntaxErrors)
	}
	return NewPositions([]byte(source), content).Locate(f.Docs[0].Content[0], path)
}

func TestPositionsLocate(t *testing.T) {
	const tpl = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  template:
    spec:
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: app
          image: {{ .Values.image }}
          ports:
            - containerPort: 80
`
	const out = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      tolerations:
        - effect: NoSchedule
          key: gpu
          operator: Exists
      containers:
        - name: app
          image: nginx:1.27
          ports:
            - containerPort: 80
`
	cases := []struct {
		name string
		path []any
		want manifest.Pos
	}{
		{"the object", nil, manifest.Pos{Line: 2, Column: 1}},
		{"a templated value's key", []any{"metadata", "name"}, manifest.Pos{Line: 4, Column: 3}},
		{"nested keys", []any{"spec", "template", "spec"}, manifest.Pos{Line: 7, Column: 5}},
		{"an item", []any{"spec", "template", "spec", "containers", 0}, manifest.Pos{Line: 13, Column: 11}},
		{"inside an item", []any{"spec", "template", "spec", "containers", 0, "image"}, manifest.Pos{Line: 14, Column: 11}},
		{"a literal item", []any{"spec", "template", "spec", "containers", 0, "ports", 0, "containerPort"}, manifest.Pos{Line: 16, Column: 15}},
		// From the values: the tolerations key the template writes.
		{"from values", []any{"spec", "template", "spec", "tolerations", 0, "operator"},
			manifest.Pos{Line: 9, Column: 7, Approximate: true, Value: &manifest.ValueRef{Ref: ".Values.tolerations"}}},
		// A field the object lacks points at its parent, which is exact.
		{"absent field", []any{"spec", "template", "spec", "nodeSelector"}, manifest.Pos{Line: 7, Column: 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := locate(t, tpl, out, c.path); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Locate(%v) = %+v, want %+v", c.path, got, c.want)
			}
		})
	}
}

// TestPositionsAmbiguous: a line written twice is found only where its
// column tells the two apart; else the position stays at the parent.
func TestPositionsAmbiguous(t *testing.T) {
	const tpl = "kind: Job\nspec:\n  template:\n    spec:\n      {{- if .Values.a }}\n      restartPolicy: Never\n      {{- else }}\n      restartPolicy: Never\n      {{- end }}\n"
	const out = "kind: Job\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
	got := locate(t, tpl, out, []any{"spec", "template", "spec", "restartPolicy"})
	if want := (manifest.Pos{Line: 4, Column: 5, Approximate: true}); got != want {
		t.Errorf("Locate = %+v, want %+v", got, want)
	}
}

// TestPositionsPartial: a document a template makes by including a named
// template is found in the file that defines it.
func TestPositionsPartial(t *testing.T) {
	const out = "kind: DaemonSet\nspec:\n  template:\n    spec:\n      hostNetwork: true\n"
	m := NewPositions([]byte(`{{ include "agent" . }}`+"\n"), out)
	m.withPartial("chart/templates/_agent.tpl", []byte("{{- define \"agent\" -}}\nkind: DaemonSet\nspec:\n  template:\n    spec:\n      hostNetwork: {{ .Values.hostNetwork }}\n{{- end }}\n"))
	f := manifest.Parse("rendered.yaml", []byte(out))
	got := m.Locate(f.Docs[0].Content[0], []any{"spec", "template", "spec", "hostNetwork"})
	if want := (manifest.Pos{File: "chart/templates/_agent.tpl", Line: 6, Column: 7}); got != want {
		t.Errorf("Locate = %+v, want %+v", got, want)
	}
}

func TestPositionsComment(t *testing.T) {
	const tpl = "kind: Pod\nspec:\n  # dslint:ignore wildcard-toleration agents run everywhere\n  tolerations: [{operator: Exists}]\n"
	const out = "kind: Pod\nspec:\n  # dslint:ignore wildcard-toleration agents run everywhere\n  tolerations: [{operator: Exists}]\n"
	pos, alone, ok := NewPositions([]byte(tpl), out).Comment(3, 3)
	if !ok || !alone || pos.Line != 3 || pos.Column != 3 {
		t.Errorf("Comment = %+v, alone %v, ok %v; want 3:3, alone", pos, alone, ok)
	}
}

// FuzzPositions: any template and rendered text give a position inside
// the template, never a panic.
func FuzzPositions(f *testing.F) {
	f.Add("kind: Pod\nspec:\n  x: {{ .Values.x }}\n", "kind: Pod\nspec:\n  x: 1\n")
	f.Add("- a\n- - b\n", "kind: Pod\nspec:\n  - - b\n")
	f.Fuzz(func(t *testing.T, source, content string) {
		doc := manifest.Parse("rendered.yaml", []byte(content))
		m := NewPositions([]byte(source), content)
		lines := len(m.src)
		for _, d := range doc.Docs {
			if len(d.Content) == 0 {
				continue
			}
			for _, path := range [][]any{nil, {"spec"}, {"spec", 0}, {"spec", "x"}} {
				p := m.Locate(d.Content[0], path)
				if p.Line < 1 || p.Line > lines || p.Column < 1 {
					t.Fatalf("Locate(%v) = %+v outside the template's %d lines", path, p, lines)
				}
			}
		}
		m.Pos(1, 1)
		m.Comment(1, 1)
	})
}
