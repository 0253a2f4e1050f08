package config

import (
	"errors"
	"path"
	"path/filepath"
	"strings"
)

// cleanGlob vets an exclude glob and writes it the way Excluded matches it.
func cleanGlob(g string) (string, error) {
	clean := path.Clean(filepath.ToSlash(g))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", errors.New(quote(g) + " must be relative to the config file's directory, inside it")
	}
	var elems []string
	for _, seg := range strings.Split(clean, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return "", errors.New(quote(g) + " is not a valid glob: " + err.Error())
		}
		// "**/**" means what "**" means, and costs a power of the path depth.
		if seg == "**" && len(elems) > 0 && elems[len(elems)-1] == "**" {
			continue
		}
		elems = append(elems, seg)
	}
	return strings.Join(elems, "/"), nil
}

// Excluded reports whether the file or directory at p (absolute, or relative
// to the working directory) matches an exclude glob. Globs are matched
// against p's slash-separated path relative to Dir: "*", "?" and "[...]" as
// in path.Match within one path element, "**" across any number of them. A
// glob that matches a directory excludes everything below it, so "charts"
// and "charts/**" both exclude charts/app/values.yaml.
func (c *Config) Excluded(p string) bool {
	if len(c.Exclude) == 0 {
		return false
	}
	dir, err1 := filepath.Abs(c.Dir)
	abs, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	elems := strings.Split(filepath.ToSlash(rel), "/")
	for _, g := range c.Exclude {
		pattern := strings.Split(g, "/")
		for n := 1; n <= len(elems); n++ {
			if matchElems(pattern, elems[:n]) {
				return true
			}
		}
	}
	return false
}

// matchElems matches a glob split at "/" against a path split at "/".
func matchElems(pattern, name []string) bool {
	for len(pattern) > 0 {
		if pattern[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchElems(pattern[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pattern[0], name[0]); !ok {
			return false
		}
		pattern, name = pattern[1:], name[1:]
	}
	return len(name) == 0
}
