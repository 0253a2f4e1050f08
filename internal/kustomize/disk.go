package kustomize

import (
	"errors"
	"path/filepath"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/dslint/dslint/internal/manifest"
)

// errReadOnly is what a build gets for any attempt to change the disk.
var errReadOnly = errors.New("dslint does not write to the inputs")

// disk is the file system as a build sees it: the disk, read-only, each
// file read once and kept, so that objects can be traced back to the
// documents they came from without reading a file again. The root
// kustomization alone reads differently: with origin annotations asked for.
type disk struct {
	filesys.FileSystem
	files  map[string][]byte         // by the absolute, link-free path the build read
	parsed map[string]*manifest.File // the same files parsed, once
	order  []string                  // the files in the order they were first read

	root       string // the root kustomization file
	rootAsRead []byte // its content with origin annotations asked for
}

func newDisk() *disk {
	return &disk{FileSystem: filesys.MakeFsOnDisk(), files: map[string][]byte{}, parsed: map[string]*manifest.File{}}
}

// ReadFile reads a file from the disk the first time and from memory after.
// A file beyond dslint's limits (manifest.MaxFileBytes, or a document too
// deep or that aliases expand too far) is an error: kustomize would expand
// its aliases without bound.
func (d *disk) ReadFile(path string) ([]byte, error) {
	path = filepath.Clean(path)
	if path == d.root && d.rootAsRead != nil {
		return slices.Clone(d.rootAsRead), nil
	}
	if data, ok := d.files[path]; ok {
		return slices.Clone(data), nil
	}
	data, err := manifest.ReadFile(path)
	if err != nil {
		return nil, err
	}
	parsed := manifest.Parse(manifest.DisplayName(path), data)
	for _, se := range parsed.SyntaxErrors {
		if se.Limit {
			return nil, &se
		}
	}
	d.files[path], d.parsed[path] = data, parsed
	d.order = append(d.order, path)
	return slices.Clone(data), nil
}

// written is a file as the user wrote it (the root kustomization without
// the origin annotations), nil if it cannot be read.
func (d *disk) written(path string) []byte {
	return d.files[d.load(path)]
}

// writtenParsed is written parsed, named name: never nil.
func (d *disk) writtenParsed(path, name string) *manifest.File {
	f, ok := d.parsed[d.load(path)]
	if !ok {
		return manifest.Parse(name, nil)
	}
	named := *f
	named.Name = name
	return &named
}

// load reads the file at path unless it was read, and returns the path it
// is kept under: a symbolic link is looked up where it leads, as the build
// reads it; "" when it cannot be read.
func (d *disk) load(path string) string {
	path = filepath.Clean(path)
	if _, ok := d.files[path]; !ok {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
	}
	if _, ok := d.files[path]; !ok {
		if _, err := d.ReadFile(path); err != nil {
			return ""
		}
	}
	return path
}

func (d *disk) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (d *disk) Mkdir(string) error                  { return errReadOnly }
func (d *disk) MkdirAll(string) error               { return errReadOnly }
func (d *disk) RemoveAll(string) error              { return errReadOnly }
func (d *disk) WriteFile(string, []byte) error      { return errReadOnly }
