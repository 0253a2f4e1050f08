package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBrokenExperiment(t *testing.T) {
	bin := os.Getenv("DSLINT_SARIF_MULTITOOL")
	good, _ := os.ReadFile("testdata/sample.sarif")
	for name, content := range map[string]string{
		"bad-rule-index": strings.Replace(string(good), `"ruleIndex": 3`, `"ruleIndex": 42`, 1),
		"extra-property": strings.Replace(string(good), `"ruleIndex": 3`, `"ruleIndex": 3, "bogus": 1`, 1),
		"not-json":       string(good[:200]),
		"sentinel-warn":  strings.Replace(string(good), `"uriBaseId": "%SRCROOT%"`, `"uriBaseId": "%SRCROOT%", "index": -1`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "x.sarif")
			os.WriteFile(f, []byte(content), 0o644)
			errs, warns := runMultitool(t, bin, f)
			for _, w := range warns {
				t.Logf("validator warning: %s", w)
			}
			for _, e := range errs {
				t.Errorf("validator error: %s", e)
			}
		})
	}
}
