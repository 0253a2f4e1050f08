package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dslint/dslint/internal/config"
)

// runInit writes a commented starter .dslint.yaml. It never overwrites a
// file unless told to.
func runInit(e *env, args []string) (int, error) {
	fl := newFlagSet(e, "init", "dslint init [flags] [DIR]   (writes DIR/.dslint.yaml; DIR defaults to \".\")")
	var force, toStdout bool
	fl.BoolVar(&force, "force", false, "overwrite an existing .dslint.yaml")
	fl.BoolVar(&toStdout, "stdout", false, "print the starter config instead of writing it")
	if err := parseFlags(fl, args); err != nil {
		return 0, err
	}
	if toStdout {
		_, err := fmt.Fprint(e.stdout, config.Starter())
		return ExitOK, err
	}
	if fl.NArg() > 1 {
		return 0, usagef("init takes one directory, got %d arguments", fl.NArg())
	}
	dir := "."
	if fl.NArg() == 1 {
		dir = fl.Arg(0)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return 0, usagef("%s is not a directory", dir)
	}
	path := filepath.Join(dir, config.FileName)
	if other := filepath.Join(dir, ".dslint.yml"); !force && exists(other) {
		return 0, usagef("%s already exists; --force writes %s beside it, --stdout prints the starter config", other, path)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return 0, usagef("%s already exists; --force overwrites it, --stdout prints the starter config", path)
	}
	if err != nil {
		return 0, usagef("%v", err)
	}
	if _, err := f.WriteString(config.Starter()); err != nil {
		f.Close()
		return 0, usagef("write %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return 0, usagef("write %s: %v", path, err)
	}
	fmt.Fprintf(e.stderr, "wrote %s: every setting is commented out; dslint runs as before until you change one\n", path)
	return ExitOK, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
