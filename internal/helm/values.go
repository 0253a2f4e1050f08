package helm

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

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

// valueFiles find where a value is set: the last of the --values files
// that sets it, else the chart's values.yaml. Each file is parsed once,
// when first asked.
type valueFiles struct {
	files  []valueFile // in the order they win: the last --values first
	parsed bool
}

type valueFile struct {
	path, name string
	root       *yaml.Node
}

func newValueFiles(dir, name string, files []string) *valueFiles {
	v := &valueFiles{}
	for i := len(files) - 1; i >= 0; i-- {
		v.files = append(v.files, valueFile{path: files[i], name: manifest.DisplayName(files[i])})
	}
	v.files = append(v.files, valueFile{path: filepath.Join(dir, "values.yaml"), name: path.Join(name, "values.yaml")})
	return v
}

// lookup is where the value at path (keys, and indexes into lists) is
// set.
func (v *valueFiles) lookup(path []any) (manifest.Pos, bool) {
	if !v.parsed {
		v.parsed = true
		for i, f := range v.files {
			data, err := manifest.ReadFile(f.path)
			if err != nil {
				continue
			}
			parsed := manifest.Parse(f.name, data)
			if len(parsed.Docs) > 0 && len(parsed.Docs[0].Content) > 0 {
				v.files[i].root = parsed.Docs[0].Content[0]
			}
		}
	}
	for _, f := range v.files {
		if f.root != nil && has(f.root, path) {
			p := manifest.Locate(f.root, path)
			p.File = f.name
			return p, true
		}
	}
	return manifest.Pos{}, false
}

// has is true when the document root has a value at path.
func has(root *yaml.Node, path []any) bool {
	n := root
	for _, step := range path {
		switch s := step.(type) {
		case string:
			n = manifest.Lookup(n, s)
		case int:
			if n.Kind != yaml.SequenceNode || s < 0 || s >= len(n.Content) {
				return false
			}
			n = n.Content[s]
		}
		if n == nil {
			return false
		}
	}
	return true
}
