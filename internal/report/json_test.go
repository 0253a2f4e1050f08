package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJSONSuppression checks that only suppressed findings carry a
// suppression object, and that it says how and where.
func TestJSONSuppression(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", sample(), Options{}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Findings []map[string]json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	for i, f := range sample().Findings {
		raw, has := out.Findings[i]["suppression"]
		if has != f.Suppressed {
			t.Errorf("finding %d: suppressed %v, has a suppression object: %v", i, f.Suppressed, has)
		}
		if !has {
			continue
		}
		want := `{"kind":"comment","reason":"the scheduler extender places training jobs","file":"jobs/train.yaml","line":13,"column":30}`
		if !jsonEqual(t, raw, []byte(want)) {
			t.Errorf("finding %d: suppression = %s, want %s", i, raw, want)
		}
	}
}
