package manifest

import "testing"

func TestHelmTemplates(t *testing.T) {
	stream := "# Source: chart/templates/sa.yaml\n" + // 1: no leading marker
		"apiVersion: v1\n" + // 2
		"kind: ServiceAccount\n" + // 3
		"---\n" + // 4
		"\n" + // 5
		"# Source: chart/templates/deploy.yaml\r\n" + // 6
		"apiVersion: apps/v1\n" + // 7
		"kind: Deployment\n" + // 8
		"---\n" + // 9
		"apiVersion: v1\n" + // 10: no comment
		"# Source: not/first.yaml\n" + // 11
		"kind: Pod\n" + // 12
		"--- # Source: on/the/marker.yaml\n" + // 13
		"kind: Pod\n" // 14
	ts := findHelmTemplates([]byte(stream))
	cases := []struct {
		line  int
		file  string
		shift int
		ok    bool
	}{
		{1, "", 0, false}, // the comment itself
		{2, "chart/templates/sa.yaml", 1, true},
		{3, "chart/templates/sa.yaml", 1, true},
		{4, "", 0, false}, // the next document's marker
		{7, "chart/templates/deploy.yaml", 6, true},
		{8, "chart/templates/deploy.yaml", 6, true},
		{10, "", 0, false},
		{12, "", 0, false},
		{14, "", 0, false},
	}
	for _, c := range cases {
		file, shift, ok := ts.At(c.line)
		if file != c.file || shift != c.shift || ok != c.ok {
			t.Errorf("At(%d) = %q, %d, %v; want %q, %d, %v", c.line, file, shift, ok, c.file, c.shift, c.ok)
		}
	}
}

// TestInlineTemplateActions: a template whose actions all sit in values
// parses as YAML, as mappings keyed by mappings; it is still a template.
// Template text inside strings, as alerting ConfigMaps carry, is not.
func TestInlineTemplateActions(t *testing.T) {
	cases := map[string]bool{
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n":                  true,
		"apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {{- include \"x\" . | nindent 4 }}\n": true,
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  tmpl: |\n    {{ .Labels.alertname }}\n":     false,
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  tmpl: \"{{ .Labels.alertname }}\"\n":        false,
		"apiVersion: v1\nkind: ConfigMap\ndata: {a: {b: c}}\n":                                 false,
	}
	for src, want := range cases {
		if got := Parse("t.yaml", []byte(src)).Template; got != want {
			t.Errorf("Template = %v, want %v for:\n%s", got, want, src)
		}
	}
}
