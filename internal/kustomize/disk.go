package kustomize

import (
	"errors"
	"path/filepath"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// errReadOnly is what a build gets for any attempt to change the disk.
var errReadOnly = errors.New("dslint does not write to the inputs")

// disk is the file system as a build sees it: the disk, read-only, each
// file read once and kept, so that objects can be traced back to the
// documents they came from without reading a file again. The root
// kustomization alone reads differently: with origin annotations asked for.
type disk struct {
	filesys.FileSystem
	files map[string][]byte // by the absolute, link-free path the build read
	order []string          // the files in the order they were first read

	root       string // the root kustomization file
	rootAsRead []byte // its content with origin annotations asked for
}

func newDisk() *disk {
	return &disk{FileSystem: filesys.MakeFsOnDisk(), files: map[string][]byte{}}
}

// ReadFile reads a file from the disk the first time and from memory after.
func (d *disk) ReadFile(path string) ([]byte, error) {
	path = filepath.Clean(path)
	if path == d.root && d.rootAsRead != nil {
		return slices.Clone(d.rootAsRead), nil
	}
	if data, ok := d.files[path]; ok {
		return slices.Clone(data), nil
	}
	data, err := d.FileSystem.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d.files[path] = data
	d.order = append(d.order, path)
	return slices.Clone(data), nil
}

// written is a file as the user wrote it (the root kustomization without
// the origin annotations), nil if it cannot be read. A symbolic link is
// looked up where it leads, as the build reads it.
func (d *disk) written(path string) []byte {
	path = filepath.Clean(path)
	if _, ok := d.files[path]; !ok {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
	}
	if _, ok := d.files[path]; !ok {
		if _, err := d.ReadFile(path); err != nil {
			return nil
		}
	}
	return d.files[path]
}

func (d *disk) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (d *disk) Mkdir(string) error                  { return errReadOnly }
func (d *disk) MkdirAll(string) error               { return errReadOnly }
func (d *disk) RemoveAll(string) error              { return errReadOnly }
func (d *disk) WriteFile(string, []byte) error      { return errReadOnly }
