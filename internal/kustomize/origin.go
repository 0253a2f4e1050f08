package kustomize

import (
	"cmp"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// sourceFile is a file a build took objects from, parsed once.
type sourceFile struct {
	name string            // as reports name it
	path string            // where it is on disk
	doc  *yaml.Node        // the first document's content, for kustomization files
	objs []manifest.Object // the objects of the file, Lists expanded as kustomize does
	used []bool            // objects already matched to a built object
}

// origin is where the user wrote obj. kustomize's origin annotation names
// the file (the path relative to the directory built) but not the document,
// so the object is matched to a document of the file by kind and name. An
// object a generator made points at the generator in its kustomization.
func (b *builder) origin(obj manifest.Object, o *resource.Origin, sources map[string]*sourceFile) manifest.Origin {
	switch {
	case o == nil || o.Repo != "":
		// No origin: kustomize made the object from no file.
	case o.ConfiguredIn != "":
		return b.relative(o.ConfiguredIn, sources).generator(obj, o)
	case o.Path != "":
		return b.relative(o.Path, sources).match(obj)
	}
	root := b.source(b.disk.root, b.kustomization, sources)
	return manifest.Origin{File: root.name, At: root.start()}
}

// relative is a file the build read, by its path relative to the directory
// built.
func (b *builder) relative(rel string, sources map[string]*sourceFile) *sourceFile {
	return b.source(filepath.Join(b.root, rel), manifest.DisplayName(filepath.Join(b.name, rel)), sources)
}

// source reads and parses a file the build read, once.
func (b *builder) source(path, name string, sources map[string]*sourceFile) *sourceFile {
	if f, ok := sources[path]; ok {
		return f
	}
	f := &sourceFile{name: name, path: path}
	sources[path] = f
	parsed := b.disk.writtenParsed(path, f.name)
	b.written = append(b.written, parsed)
	for _, d := range parsed.Docs {
		if f.doc == nil && len(d.Content) > 0 {
			f.doc = d.Content[0]
		}
		objs, _ := manifest.Objects(d)
		f.objs = append(f.objs, objs...)
	}
	f.used = make([]bool, len(f.objs))
	return f
}

// match finds the document of the file obj was built from. Prefixes,
// suffixes and the namespace change the name and namespace, not the kind, so
// the best document has obj's kind and the longest name that obj's name
// contains; among equals, the first one no other object came from.
func (f *sourceFile) match(obj manifest.Object) manifest.Origin {
	best := -1
	for i, w := range f.objs {
		if w.Kind != obj.Kind || nameScore(obj.Name, w.Name) < 0 {
			continue
		}
		if best < 0 || f.better(obj, i, best) {
			best = i
		}
	}
	if best < 0 {
		return manifest.Origin{File: f.name, At: f.start()}
	}
	f.used[best] = true
	return manifest.Origin{File: f.name, Path: f.path, Node: f.objs[best].Node}
}

// better is true when written object i is a better match for obj than j.
func (f *sourceFile) better(obj manifest.Object, i, j int) bool {
	a, b := f.objs[i], f.objs[j]
	c := cmp.Or(
		cmp.Compare(nameScore(obj.Name, a.Name), nameScore(obj.Name, b.Name)),
		cmp.Compare(boolInt(a.Namespace == obj.Namespace), boolInt(b.Namespace == obj.Namespace)),
		cmp.Compare(boolInt(!f.used[i]), boolInt(!f.used[j])),
	)
	return c > 0
}

// nameScore rates a written name for a built one: an equal name is best,
// then the longest name the built one contains (namePrefix, nameSuffix);
// -1 when the built name does not contain it.
func nameScore(built, written string) int {
	switch {
	case built == written:
		return len(written) + 1
	case strings.Contains(built, written):
		return len(written)
	}
	return -1
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// generatorKeys are the kustomization fields that configure kustomize's
// built-in generators.
var generatorKeys = map[string]string{
	"ConfigMapGenerator":          "configMapGenerator",
	"SecretGenerator":             "secretGenerator",
	"HelmChartInflationGenerator": "helmCharts",
}

// generator points at what configured the generator that made obj: a
// generator object of the file (listed under generators:), else the entry
// of the kustomization field whose name obj's name contains (the name gets
// a hash suffix), else the field.
func (f *sourceFile) generator(obj manifest.Object, o *resource.Origin) manifest.Origin {
	by := o.ConfiguredBy
	for _, w := range f.objs {
		if w.Kind == by.Kind && w.Name == by.Name {
			return manifest.Origin{File: f.name, At: manifest.Locate(w.Node, nil)}
		}
	}
	key := generatorKeys[by.Kind]
	entries := manifest.Lookup(f.doc, key)
	if entries == nil {
		return manifest.Origin{File: f.name, At: f.start()}
	}
	at := manifest.Locate(f.doc, []any{key})
	best := -1
	if entries.Kind == yaml.SequenceNode {
		for i, e := range entries.Content {
			name := manifest.Lookup(e, "name")
			if name == nil || nameScore(obj.Name, name.Value) < 0 {
				continue
			}
			if best < 0 || len(name.Value) > len(manifest.Lookup(entries.Content[best], "name").Value) {
				best = i
			}
		}
	}
	if best >= 0 {
		at = manifest.Locate(f.doc, []any{key, best})
	}
	return manifest.Origin{File: f.name, At: at}
}

// start is where the file's content starts: its first object's kind, else
// its first key.
func (f *sourceFile) start() manifest.Pos {
	if len(f.objs) > 0 {
		return manifest.Locate(f.objs[0].Node, nil)
	}
	if f.doc != nil {
		return manifest.Locate(f.doc, nil)
	}
	return manifest.Pos{Line: 1, Column: 1}
}
