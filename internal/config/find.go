package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Find returns the path of the config file that applies to start: the
// .dslint.yaml (or .dslint.yml) in start or its nearest parent. The search
// ends at the repository root (the first directory holding .git, a
// directory or a file as in worktrees and submodules), at stop when it is
// not "", and at the filesystem root; each of these is searched itself. It
// returns "" when there is none. The path is start joined with the file
// name when the file is in start, and absolute otherwise.
func Find(start, stop string) (string, error) {
	dir, shown, err := searchStart(start)
	if err != nil {
		return "", err
	}
	stopAbs := ""
	if stop != "" {
		if stopAbs, err = filepath.Abs(stop); err != nil {
			return "", err
		}
	}
	for first := true; ; first = false {
		name, err := configIn(dir)
		switch {
		case err != nil:
			return "", err
		case name != "" && first:
			return filepath.Join(shown, filepath.Base(name)), nil
		case name != "":
			return name, nil
		}
		parent := filepath.Dir(dir)
		if dir == stopAbs || isRepoRoot(dir) || parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// searchStart is the directory the search begins in, absolute and as the
// caller named it: start, or the directory of start when it is a file.
func searchStart(start string) (dir, shown string, err error) {
	if dir, err = filepath.Abs(start); err != nil {
		return "", "", err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return "", "", err
	}
	if !info.IsDir() {
		return filepath.Dir(dir), filepath.Dir(start), nil
	}
	return dir, start, nil
}

// configIn returns the config file in dir, or "". Both names in one
// directory is an error: which one applies would be a guess.
func configIn(dir string) (string, error) {
	var found []string
	for _, name := range fileNames {
		p := filepath.Join(dir, name)
		info, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return "", err
		case !info.IsDir():
			found = append(found, p)
		}
	}
	if len(found) > 1 {
		return "", fmt.Errorf("%s and %s both exist: keep one", found[0], found[1])
	}
	if len(found) == 0 {
		return "", nil
	}
	return found[0], nil
}

func isRepoRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}
