package manifest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Stdin is the argument that names standard input.
const Stdin = "-"

// Source is one input to read: a file found on disk, or standard input.
type Source struct {
	Path string // what to open; Stdin for standard input
	Name string // how reports name it: slash-separated, relative where possible
}

// Read reads a source: the file, or all of stdin. A failure to open or
// read a file is the bare cause (no such file or directory), since messages
// name the source themselves.
func Read(src Source, stdin io.Reader) ([]byte, error) {
	if src.Path == Stdin {
		return io.ReadAll(stdin)
	}
	data, err := os.ReadFile(src.Path)
	if pe, ok := err.(*os.PathError); ok {
		return nil, pe.Err
	}
	return data, err
}

// manifestExt are the extensions read when a directory is walked; a file named
// on the command line is read whatever its extension.
var manifestExt = []string{".yaml", ".yml", ".json"}

// Discover expands the command-line arguments into sources. Directories are
// walked recursively, skipping hidden entries; symbolic links are followed
// but every real directory and file is visited once, so link loops end. A
// path that does not exist is an error.
func Discover(args []string) ([]Source, error) {
	d := discoverer{seenDirs: map[string]bool{}, seenFiles: map[string]bool{}}
	for _, arg := range args {
		if arg == Stdin {
			d.out = append(d.out, Source{Path: Stdin, Name: "<stdin>"})
			continue
		}
		info, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, unwrapPathError(err))
		}
		if !info.IsDir() {
			d.addFile(arg)
			continue
		}
		if err := d.walk(arg); err != nil {
			return nil, err
		}
	}
	return d.out, nil
}

type discoverer struct {
	out       []Source
	seenDirs  map[string]bool // real paths
	seenFiles map[string]bool // real paths
}

func (d *discoverer) addFile(path string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	if d.seenFiles[real] {
		return
	}
	d.seenFiles[real] = true
	d.out = append(d.out, Source{Path: path, Name: DisplayName(path)})
}

func (d *discoverer) walk(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, unwrapPathError(err))
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	if d.seenDirs[real] {
		return nil
	}
	d.seenDirs[real] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, unwrapPathError(err))
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			info, err := os.Stat(path)
			if err != nil {
				continue // a dangling link names nothing to lint
			}
			isDir = info.IsDir()
		}
		switch {
		case isDir:
			if err := d.walk(path); err != nil {
				return err
			}
		case slices.Contains(manifestExt, strings.ToLower(filepath.Ext(path))):
			d.addFile(path)
		}
	}
	return nil
}

// DisplayName is how a report names a path: relative to the working directory
// when it lies below it, slash-separated.
func DisplayName(path string) string {
	if filepath.IsAbs(path) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// unwrapPathError drops the path an *fs.PathError repeats, since callers
// already print it.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
