// Package kustomize builds a kustomization in process, as `kustomize build`
// does, and traces every object of the build back to the file and document
// the user wrote it in, so that findings point there.
package kustomize

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// Build is what `kustomize build` prints for one directory, object by object.
type Build struct {
	Kustomization string // the root kustomization file, as reports name it
	Objects       []Object
	Files         []string // the real path of every file the build read
	// Written are the files the objects came from, as the user wrote
	// them: where findings point and dslint:ignore comments are.
	Written []*manifest.File
}

// Object is one object of a build and where the user wrote it.
type Object struct {
	// Object is the object as the build prints it, with the namespace and
	// name that prefixes, suffixes and namespace transformers gave it.
	manifest.Object
	Origin manifest.Origin
}

// building serializes builds: krusty keeps the OpenAPI schema of a build in
// package variables.
var building sync.Mutex

// Run builds the kustomization in dir; name is how reports name dir. It
// reads the disk only: a remote base or resource is an error, never
// fetched. An error names the kustomization file it is about.
func Run(dir, name string) (*Build, error) {
	root := manifest.RealPath(dir)
	file := manifest.KustomizationIn(root)
	if file == "" {
		return nil, fmt.Errorf("%s: no kustomization file (looked for kustomization.yaml, kustomization.yml, Kustomization)", name)
	}
	b := &builder{
		disk: newDisk(), root: root, name: name,
		kustomization: manifest.DisplayName(filepath.Join(name, filepath.Base(file))),
	}
	if err := b.checkLocal(root, name, map[string]bool{}); err != nil {
		return nil, err
	}
	injected, err := b.askForOrigins(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.kustomization, err)
	}
	resources, err := b.build()
	if err != nil {
		return nil, fmt.Errorf("%s: kustomize build failed: %w", b.kustomization, err)
	}
	return b.trace(resources, injected)
}

type builder struct {
	disk          *disk
	root          string // the real path of the directory built
	name          string // how reports name it
	kustomization string // how reports name the root kustomization file
	written       []*manifest.File
}

// build runs krusty with kustomize build's defaults: only files at or below
// each kustomization's directory, no plugins, no Helm, the legacy order.
func (b *builder) build() ([]*resource.Resource, error) {
	opts := krusty.MakeDefaultOptions()
	opts.Reorder = krusty.ReorderOptionUnspecified
	building.Lock()
	defer building.Unlock()
	m, err := krusty.MakeKustomizer(opts).Run(b.disk, b.root)
	if err != nil {
		return nil, err
	}
	return m.Resources(), nil
}

// askForOrigins makes the build annotate each object with its origin, by
// adding originAnnotations to the buildMetadata of the root kustomization as
// the build reads it; the file stays as it is. It reports whether the user
// had not asked for them already, in which case they are removed again.
func (b *builder) askForOrigins(file string) (bool, error) {
	data := b.disk.written(file)
	if data == nil {
		return false, nil // the build reports it
	}
	b.disk.root = manifest.RealPath(file)
	k, err := yaml.Parse(string(data))
	if err != nil || k.YNode().Kind != yaml.MappingNode {
		return false, nil // the build reports it
	}
	meta, err := k.Pipe(yaml.LookupCreate(yaml.SequenceNode, "buildMetadata"))
	if err != nil || meta == nil || meta.YNode().Kind != yaml.SequenceNode {
		return false, nil // not a list: the build reports it
	}
	if slices.ContainsFunc(meta.Content(), func(n *yaml.Node) bool { return n.Value == types.OriginAnnotations }) {
		return false, nil
	}
	if err := meta.PipeE(yaml.Append(yaml.NewScalarRNode(types.OriginAnnotations).YNode())); err != nil {
		return false, err
	}
	asRead, err := k.String()
	if err != nil {
		return false, err
	}
	b.disk.rootAsRead = []byte(asRead)
	return true, nil
}

// trace turns the resources of the build into objects with their origins,
// and removes the origin annotations the user did not ask for, so that the
// rules see what `kustomize build` prints.
func (b *builder) trace(resources []*resource.Resource, injected bool) (*Build, error) {
	out := &Build{Kustomization: b.kustomization}
	sources := map[string]*sourceFile{}
	for _, r := range resources {
		origin, err := r.GetOrigin()
		if err != nil {
			return nil, fmt.Errorf("%s: origin of %s %q: %w", b.kustomization, r.GetKind(), r.GetName(), err)
		}
		if injected {
			if err := r.SetOrigin(nil); err != nil {
				return nil, fmt.Errorf("%s: %w", b.kustomization, err)
			}
		}
		objs, _ := manifest.Objects(r.YNode())
		for _, obj := range objs {
			out.Objects = append(out.Objects, Object{Object: obj, Origin: b.origin(obj, origin, sources)})
		}
	}
	out.Files, out.Written = b.disk.order, b.written
	return out, nil
}
