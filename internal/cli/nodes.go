package cli

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
)

// loadNodes reads --nodes files: Node objects, a v1 List or NodeList, the
// output of kubectl get nodes -o yaml or -o json. "-" reads stdin. Anything
// else in such a file is an error, so that a wrong file is not taken for an
// empty cluster.
func loadNodes(e *env, paths []string) ([]*inventory.Node, error) {
	var nodes []*inventory.Node
	for _, p := range paths {
		src := manifest.Source{Path: p, Name: p}
		if p == manifest.Stdin {
			src.Name = "<stdin>"
		}
		n0 := len(nodes)
		// A part at a time: a large inventory is never all parsed at once.
		for f, err := range manifest.Read(src, e.stdin, manifest.NodesLimits) {
			if err != nil {
				return nil, usagef("--nodes %s: %v", p, err)
			}
			if nodes, err = appendFile(nodes, f); err != nil {
				return nil, err
			}
		}
		if len(nodes) == n0 {
			return nil, usagef("--nodes %s: no Node objects in it (expected kubectl get nodes -o yaml output)", src.Name)
		}
	}
	return nodes, nil
}

// appendFile appends the Node objects of a parsed --nodes file, or part of
// one; a syntax error is an error.
func appendFile(nodes []*inventory.Node, f *manifest.File) ([]*inventory.Node, error) {
	if len(f.SyntaxErrors) > 0 {
		se := f.SyntaxErrors[0]
		if se.Limit {
			hint := ""
			if strings.HasPrefix(se.Message, "document too large") {
				hint = " (kubectl get nodes -o yaml is read a group of nodes at a time; -o json is read whole)"
			}
			return nil, nodesError(se.Pos, "--nodes file: %s%s", se.Message, hint)
		}
		return nil, nodesError(se.Pos, "--nodes file: syntax error: %s", se.Message)
	}
	for _, doc := range f.Docs {
		var err error
		if nodes, err = appendNodes(nodes, f.Name, doc); err != nil {
			return nil, err
		}
	}
	return nodes, nil
}

// appendNodes appends the Node objects of a document of a --nodes file;
// any other object is an error.
func appendNodes(nodes []*inventory.Node, name string, doc *yaml.Node) ([]*inventory.Node, error) {
	objs, others := manifest.Entries(doc)
	if len(others) > 0 {
		pos := manifest.Locate(others[0], nil)
		pos.File = name
		return nil, nodesError(pos, "--nodes file holds something other than a Kubernetes object (no apiVersion or kind): it takes Node objects only (kubectl get nodes -o yaml)")
	}
	for _, obj := range objs {
		pos := manifest.Locate(obj.Node, nil)
		pos.File = name
		if !inventory.IsNode(obj.APIVersion, obj.Kind) {
			return nil, nodesError(pos, "--nodes file holds a %s %q: it takes Node objects only (kubectl get nodes -o yaml)", obj.Kind, obj.Name)
		}
		n, err := inventory.FromManifest(name, obj)
		if err != nil {
			return nil, nodesError(pos, "node %q: %v", obj.Name, err)
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// nodesError is a problem at a position of a --nodes file, a usage error
// (exit 2).
func nodesError(at manifest.Pos, format string, args ...any) error {
	return usageError{&manifest.Error{Pos: at, Message: fmt.Sprintf(format, args...)}}
}

// checkNodesStdin refuses stdin twice: for the inventory and the manifests.
func checkNodesStdin(nodes, paths []string) error {
	for _, n := range nodes {
		for _, p := range paths {
			if n == manifest.Stdin && p == manifest.Stdin {
				return usagef("stdin (-) cannot be both a --nodes file and a manifest")
			}
		}
	}
	return nil
}

// unusedNodesNote says how many Node objects among the inputs were not used
// as the inventory, and how to use them; "" when there were none. Node
// manifests in a repository are mostly test fixtures, not the cluster.
func unusedNodesNote(out *lint.Outcome) string {
	if out.UnusedNodes == 0 {
		return ""
	}
	files := out.UnusedNodeFiles
	shown := strings.Join(files[:min(3, len(files))], ", ")
	if len(files) > 3 {
		shown += fmt.Sprintf(" and %d more", len(files)-3)
	}
	what, verb := fmt.Sprintf("%d Node objects", out.UnusedNodes), "are"
	if out.UnusedNodes == 1 {
		what, verb = "1 Node object", "is"
	}
	their := "their file"
	if len(files) > 1 {
		their = "their files"
	}
	return fmt.Sprintf("%s among the inputs (%s) %s not used as the node inventory; to check placement against them, name %s with --nodes (or nodes: in .dslint.yaml)", what, shown, verb, their)
}

// inventoryError is an invalid inventory as a usage error (exit 2), each
// problem on its own line; nil when the inventory is valid.
func inventoryError(problems lint.Problems) error {
	if len(problems.Inventory) == 0 {
		return nil
	}
	return usageError{fmt.Errorf("invalid node inventory:\n%w", errors.Join(problems.Inventory...))}
}

// problemsExit prints the inputs that could not be read and the internal
// errors of a run, and returns the exit code they call for (0 for none).
func problemsExit(e *env, problems lint.Problems) int {
	for _, p := range append(problems.Unreadable, problems.Internal...) {
		fmt.Fprintf(e.stderr, "dslint: %v\n", p)
	}
	switch {
	case len(problems.Internal) > 0:
		return ExitInternal
	case len(problems.Unreadable) > 0:
		return ExitUsage
	}
	return ExitOK
}
