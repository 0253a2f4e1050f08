package helm

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/strvals"

	"github.com/dslint/dslint/internal/manifest"
)

// mergeValues merges the values of a render in the order `helm template`
// does (pkg/cli/values Options.MergeValues): the files one after the
// other, then every --set-json, --set, --set-string and --set-file. Files
// are read from disk only: a URL is not fetched.
func mergeValues(v Values) (map[string]any, error) {
	base := map[string]any{}
	for _, file := range v.Files {
		data, err := manifest.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--values %s: %w", file, err)
		}
		m, err := loader.LoadValues(strings.NewReader(string(data)))
		if err != nil {
			return nil, fmt.Errorf("--values %s: %w", file, err)
		}
		base = loader.MergeMaps(base, m)
	}
	for _, s := range v.SetJSON {
		if t := strings.TrimSpace(s); t != "" && t[0] == '{' {
			var m map[string]any
			if err := json.Unmarshal([]byte(t), &m); err != nil {
				return nil, fmt.Errorf("--set-json %s: %w", s, err)
			}
			base = loader.MergeMaps(base, m)
			continue
		}
		if err := strvals.ParseJSON(s, base); err != nil {
			return nil, fmt.Errorf("--set-json %s: %w", s, err)
		}
	}
	for _, s := range v.Set {
		if err := strvals.ParseInto(s, base); err != nil {
			return nil, fmt.Errorf("--set %s: %w", s, err)
		}
	}
	for _, s := range v.SetString {
		if err := strvals.ParseIntoString(s, base); err != nil {
			return nil, fmt.Errorf("--set-string %s: %w", s, err)
		}
	}
	for _, s := range v.SetFile {
		read := func(rs []rune) (any, error) {
			data, err := os.ReadFile(string(rs))
			return string(data), err
		}
		if err := strvals.ParseIntoFile(s, base, read); err != nil {
			return nil, fmt.Errorf("--set-file %s: %w", s, err)
		}
	}
	return base, nil
}
