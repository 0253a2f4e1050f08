package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// checkLocal reads the kustomization in dir and the local bases and
// components it includes, before the build does, and fails on anything
// kustomize would fetch from the network (a linter does not download), or
// on a kustomization that is not valid YAML, at the position of the problem.
// Everything else is left for the build to report. dir is a real path,
// name how reports name it.
func (b *builder) checkLocal(dir, name string, seen map[string]bool) error {
	file := manifest.KustomizationIn(dir)
	if file == "" || seen[dir] {
		return nil
	}
	seen[dir] = true
	data := b.disk.written(file)
	if data == nil {
		return nil
	}
	display := manifest.DisplayName(filepath.Join(name, filepath.Base(file)))
	parsed := manifest.Parse(display, data)
	if len(parsed.SyntaxErrors) > 0 {
		e := parsed.SyntaxErrors[0]
		return &manifest.Error{Pos: e.Pos, Message: "YAML syntax error: " + e.Message}
	}
	var k types.Kustomization
	if err := k.Unmarshal(data); err != nil {
		return nil // the build reports it the same way
	}
	k.FixKustomization()
	if len(k.HelmCharts) > 0 {
		return &manifest.Error{
			Pos:     keyPosition(parsed, "helmCharts", "helmChartInflationGenerator"),
			Message: "helmCharts need helm and chart repositories, which dslint does not run; render them first (kustomize build --enable-helm DIR | dslint -)",
		}
	}
	refs := references(&k)
	for _, r := range refs {
		if fetched(r.path, r.base) {
			return refError(parsed, r, "is remote: dslint builds kustomizations from local files only and fetches nothing; vendor it into the repository, or render it (kustomize build DIR | dslint -)")
		}
	}
	for _, r := range refs {
		if !r.local {
			continue
		}
		info, err := os.Stat(filepath.Join(dir, r.path))
		if err != nil {
			return refError(parsed, r, "does not exist")
		}
		if r.base && info.IsDir() {
			if err := b.checkLocal(manifest.RealPath(filepath.Join(dir, r.path)), filepath.Join(name, r.path), seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// reference is a path a kustomization names.
type reference struct {
	field string // the kustomization field, for messages
	path  string
	base  bool // a base: a directory or a git repository, or a file
	local bool // certainly a path on disk (not an inline config)
}

// references are the paths a kustomization names: bases (resources,
// components, generator and transformer configs), which may name a git
// repository, and files, which may name an http(s) URL.
func references(k *types.Kustomization) []reference {
	var refs []reference
	add := func(field string, base, local bool, paths ...string) {
		for _, p := range paths {
			if p != "" && !strings.Contains(p, "\n") { // not an inline config
				refs = append(refs, reference{field, p, base, local})
			}
		}
	}
	add("resources", true, true, k.Resources...)
	add("components", true, true, k.Components...)
	add("generators", true, false, k.Generators...)
	add("transformers", true, false, k.Transformers...)
	add("validators", true, false, k.Validators...)
	add("crds", false, false, k.Crds...)
	add("configurations", false, false, k.Configurations...)
	add("openapi", false, false, k.OpenAPI["path"])
	for _, p := range k.PatchesStrategicMerge {
		add("patchesStrategicMerge", false, false, string(p))
	}
	for _, p := range k.Patches {
		add("patches", false, true, p.Path)
	}
	for _, p := range k.PatchesJson6902 {
		add("patchesJson6902", false, true, p.Path)
	}
	for _, r := range k.Replacements {
		add("replacements", false, false, r.Path)
	}
	var sources []types.KvPairSources
	for _, g := range k.ConfigMapGenerator {
		sources = append(sources, g.KvPairSources)
	}
	for _, g := range k.SecretGenerator {
		sources = append(sources, g.KvPairSources)
	}
	for _, s := range sources {
		for _, f := range s.FileSources {
			if _, path, found := strings.Cut(f, "="); found {
				f = path
			}
			add("files", false, false, f)
		}
		add("envs", false, false, s.EnvSources...)
	}
	return refs
}

var (
	httpURL = regexp.MustCompile(`(?i)^https?://`)
	gitURL  = regexp.MustCompile(`(?i)^(https?|ssh|file)://`)
	scpLike = regexp.MustCompile(`^[^/@:\s]+@[^/:\s]+[:/]`)
)

// fetched is true for a reference kustomize would download: an http(s) URL,
// and for a base also a git repository (a git URL, git@host:path,
// github.com/org/repo, a "git::" prefix).
func fetched(ref string, base bool) bool {
	ref = strings.TrimSpace(ref)
	if !base {
		return httpURL.MatchString(ref)
	}
	lower := strings.ToLower(ref)
	return strings.HasPrefix(lower, "git::") || gitURL.MatchString(ref) || scpLike.MatchString(ref) ||
		strings.HasPrefix(lower, "github.com/") || strings.HasPrefix(lower, "github.com:")
}

// refError reports a problem with a reference at its position in the
// kustomization, or in the kustomization when the reference cannot be
// found in its text.
func refError(parsed *manifest.File, r reference, problem string) error {
	at := manifest.Pos{File: parsed.Name}
	if n := findScalar(parsed.Docs, r.path); n != nil {
		at.Line, at.Column = n.Line, n.Column
	}
	return &manifest.Error{Pos: at, Message: fmt.Sprintf("%s entry %q %s", r.field, r.path, problem)}
}

// keyPosition is where the first of keys is in the kustomization, or the
// kustomization itself when it has none of them.
func keyPosition(parsed *manifest.File, keys ...string) manifest.Pos {
	if len(parsed.Docs) == 0 || len(parsed.Docs[0].Content) == 0 {
		return manifest.Pos{File: parsed.Name}
	}
	root := parsed.Docs[0].Content[0]
	for _, k := range keys {
		if manifest.Lookup(root, k) != nil {
			p := manifest.Locate(root, []any{k})
			p.File = parsed.Name
			return p
		}
	}
	return manifest.Pos{File: parsed.Name}
}

// findScalar is the first scalar node of the documents whose value
// contains s.
func findScalar(docs []*yaml.Node, s string) *yaml.Node {
	var walk func(n *yaml.Node) *yaml.Node
	walk = func(n *yaml.Node) *yaml.Node {
		if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, s) {
			return n
		}
		for _, c := range n.Content {
			if found := walk(c); found != nil {
				return found
			}
		}
		return nil
	}
	for _, d := range docs {
		if n := walk(d); n != nil {
			return n
		}
	}
	return nil
}
