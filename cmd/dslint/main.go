// Command dslint checks that Kubernetes workloads land on the nodes they are
// meant for. See README.md.
package main

import (
	"os"

	"github.com/dslint/dslint/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
