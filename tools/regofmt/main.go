// Command regofmt formats Rego files in place as opa fmt does, with the OPA
// dslint is built with (make rego-fmt): the files given, or every file the
// Rego gate checks (internal/regogate) when run from the repository's root.
// It prints the name of each file it rewrites; with -l it only lists them.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dslint/dslint/internal/regogate"
)

func main() {
	list := flag.Bool("l", false, "list the files that are not formatted; rewrite none")
	flag.Parse()
	if err := run(flag.Args(), *list); err != nil {
		fmt.Fprintln(os.Stderr, "regofmt:", err)
		os.Exit(1)
	}
}

func run(files []string, list bool) error {
	if len(files) == 0 {
		var err error
		if files, err = regogate.Files("."); err != nil {
			return err
		}
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		out, err := regogate.Format(f, src)
		if err != nil {
			return err
		}
		if string(out) == string(src) {
			continue
		}
		fmt.Println(f)
		if list {
			continue
		}
		if err := os.WriteFile(f, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}
