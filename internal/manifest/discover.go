package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
)

// Stdin is the argument that names standard input.
const Stdin = "-"

// Source is one input to read: a file found on disk, standard input, or a
// directory to build with kustomize.
type Source struct {
	Path string // what to open; Stdin for standard input
	// Text, when not nil, is the input's text, read instead of Path: the
	// text dslint fix --diff has fixed, linted again. (A pointer keeps
	// Source comparable.)
	Text *[]byte
	Name string // how reports name it: slash-separated, relative where possible
	// Kustomization marks a directory argument that holds a kustomization
	// file: its objects are what `kustomize build Path` prints.
	Kustomization bool
	// Chart marks a directory that holds a Chart.yaml: its objects are
	// what `helm template` prints for it.
	Chart bool
	// Unreadable is why a directory found while walking could not be
	// listed: Read returns it, so it is reported like a file that cannot be
	// read, and the rest of the walk goes on.
	Unreadable error
}

// Discovery tunes Discover. The zero value is the default.
type Discovery struct {
	// NoKustomize walks a directory that holds a kustomization file like
	// any other, linting its files as they are written (--no-kustomize).
	NoKustomize bool
	// NoHelm walks a directory that holds a Chart.yaml like any other
	// (--no-helm): its templates are skipped, not rendered.
	NoHelm bool
}

// manifestExt are the extensions read when a directory is walked; a file named
// on the command line is read whatever its extension.
var manifestExt = []string{".yaml", ".yml", ".json"}

// Discover expands the command-line arguments into sources. A directory
// that holds a Chart.yaml, named or found while walking, is one source,
// rendered with Helm (unless opts.NoHelm). A directory argument that
// directly holds a kustomization file is one source, built with kustomize
// (unless opts.NoKustomize); other directories are walked recursively,
// skipping hidden entries and special files (named pipes, sockets,
// devices), and a kustomization found below them is not built.
// Symbolic links are followed but every real directory and file is visited
// once, so link loops end. A path that does not exist is an error.
func Discover(args []string, opts Discovery) ([]Source, error) {
	d := discoverer{noHelm: opts.NoHelm, seenDirs: map[string]bool{}, seenFiles: map[string]bool{}, seenBuilds: map[string]bool{}}
	d.wd, _ = os.Getwd()
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
			if chart := chartOf(arg); chart != "" && !opts.NoHelm {
				// A file of a chart (pre-commit passes the staged
				// ones) is linted as the chart renders it.
				d.addChart(chart)
				continue
			}
			d.addFile(arg, RealPath(arg))
			continue
		}
		if !opts.NoHelm && ChartIn(arg) {
			d.addChart(arg)
			continue
		}
		if !opts.NoKustomize && KustomizationIn(arg) != "" {
			d.addBuild(arg)
			continue
		}
		if err := d.walk(arg); err != nil {
			return nil, err
		}
	}
	return d.out, nil
}

type discoverer struct {
	noHelm     bool
	wd         string // the working directory, for display names
	out        []Source
	seenDirs   map[string]bool // real paths
	seenFiles  map[string]bool // real paths
	seenBuilds map[string]bool // real paths of kustomization directories
}

// KustomizationIn returns the kustomization file directly in dir
// (kustomization.yaml, kustomization.yml or Kustomization), "" if there is
// none.
func KustomizationIn(dir string) string {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		path := filepath.Join(dir, name)
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
			return path
		}
	}
	return ""
}

// RealPath is path made absolute with every symbolic link resolved, the
// path itself where that fails: two names of one file have one real path.
func RealPath(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	return real
}

// chartOf is the chart directory the file at path belongs to: the nearest
// directory above it that holds a Chart.yaml, and above a subchart
// (CHART/charts/SUB) the chart that vendors it; "" for none. The search
// stops at a repository's root (a directory with .git).
func chartOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	chart := ""
	for dir := filepath.Dir(abs); chart == ""; dir = filepath.Dir(dir) {
		if ChartIn(dir) {
			chart = dir
			break
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil || filepath.Dir(dir) == dir {
			return ""
		}
	}
	for filepath.Base(filepath.Dir(chart)) == "charts" && ChartIn(filepath.Dir(filepath.Dir(chart))) {
		chart = filepath.Dir(filepath.Dir(chart))
	}
	return chart
}

// ChartIn is true when dir holds a Helm chart: a Chart.yaml file.
func ChartIn(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// addChart adds the chart in dir, once.
func (d *discoverer) addChart(dir string) {
	real := RealPath(dir)
	if d.seenBuilds[real] {
		return
	}
	d.seenBuilds[real] = true
	d.out = append(d.out, Source{Path: dir, Name: displayName(dir, d.wd), Chart: true})
}

func (d *discoverer) addBuild(dir string) {
	real := RealPath(dir)
	if d.seenBuilds[real] {
		return
	}
	d.seenBuilds[real] = true
	d.out = append(d.out, Source{Path: dir, Name: DisplayName(dir), Kustomization: true})
}

// addFile adds the file at path, whose real path is real, unless it was
// added before by another name.
func (d *discoverer) addFile(path, real string) {
	if d.seenFiles[real] {
		return
	}
	d.seenFiles[real] = true
	d.out = append(d.out, Source{Path: path, Name: displayName(path, d.wd)})
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
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			info, err := os.Stat(path)
			if err != nil {
				continue // a dangling link names nothing to lint
			}
			mode = info.Mode().Type()
		}
		switch {
		case mode.IsDir() && !d.noHelm && ChartIn(path):
			d.addChart(path)
		case mode.IsDir():
			if err := d.walk(path); err != nil {
				// A directory below the argument that cannot be listed is
				// reported, and its siblings are still linted.
				d.out = append(d.out, Source{Path: path, Name: displayName(path, d.wd), Unreadable: unwrapPathError(errors.Unwrap(err))})
			}
		case !mode.IsRegular():
			// A named pipe, socket or device is no manifest, and reading
			// one could wait forever (a pipe) or never end (/dev/zero).
		case slices.Contains(manifestExt, strings.ToLower(filepath.Ext(path))):
			if e.Type()&fs.ModeSymlink != 0 {
				d.addFile(path, RealPath(path))
			} else {
				d.addFile(path, filepath.Join(real, e.Name()))
			}
		}
	}
	return nil
}

// DisplayName is how a report names a path: relative to the working directory
// when it lies below it, slash-separated.
func DisplayName(path string) string {
	wd, _ := os.Getwd()
	return displayName(path, wd)
}

// displayName is DisplayName with the working directory wd ("" for
// unknown).
func displayName(path, wd string) string {
	if filepath.IsAbs(path) && wd != "" {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
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
