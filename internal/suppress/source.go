package suppress

import (
	"bytes"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

var marker = []byte("dslint:ignore")

// Comments finds the "# dslint:ignore" comments of a parsed file (or part of
// one), at the line and column of their "#", each marked Alone when nothing
// precedes it on its line. Only real comments count: the
// parser's comments of the documents vouch for each one, so the same text
// inside a quoted or block string suppresses nothing.
func Comments(f *manifest.File) []Directive {
	if !bytes.Contains(f.Data, marker) {
		return nil
	}
	comments := map[string]bool{}
	for _, d := range f.Docs {
		collectComments(d, comments)
	}
	var out []Directive
	first := max(f.Line, 1)
	for i, line := range bytes.Split(f.Data, []byte("\n")) {
		if !bytes.Contains(line, marker) {
			continue
		}
		for col := 0; col < len(line); col++ {
			if line[col] != '#' || (col > 0 && line[col-1] != ' ' && line[col-1] != '\t') {
				continue
			}
			text := strings.TrimRight(string(line[col:]), " \t\r")
			if !comments[text] {
				continue
			}
			rules, reason, ok := parseComment(text)
			if ok {
				out = append(out, Directive{
					Kind: finding.SuppressedByComment, Rules: rules, Reason: reason,
					File: f.Name, Line: first + i, Column: col + 1, Text: fmt.Sprintf("comment %q", text),
					Alone: len(bytes.TrimLeft(line[:col], " \t")) == 0,
				})
			}
			break
		}
	}
	return out
}

// collectComments adds every comment line under n to set, trimmed.
func collectComments(n *yaml.Node, set map[string]bool) {
	for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
		if !strings.Contains(c, "dslint:ignore") {
			continue
		}
		for _, l := range strings.Split(c, "\n") {
			set[strings.TrimSpace(l)] = true
		}
	}
	for _, c := range n.Content {
		collectComments(c, set)
	}
}

// Annotations reads the ignore.dslint.io annotations of obj, in file. at
// positions a field path as the object's findings are positioned.
func Annotations(file string, obj manifest.Object, ref finding.Object, at func(path []any) manifest.Pos) []Directive {
	anns := manifest.Lookup(manifest.Lookup(obj.Node, "metadata"), "annotations")
	if anns == nil || anns.Kind != yaml.MappingNode {
		return nil
	}
	var out []Directive
	for i := 0; i+1 < len(anns.Content); i += 2 {
		key, val := anns.Content[i].Value, anns.Content[i+1]
		id, ok := strings.CutPrefix(key, AnnotationPrefix)
		if !ok {
			continue
		}
		path := []any{"metadata", "annotations", key}
		p := at(path)
		d := Directive{
			Kind: finding.SuppressedByAnnotation, Reason: strings.TrimSpace(val.Value),
			File: file, Line: p.Line, Column: p.Column, Object: ref,
			Path: manifest.FormatPath(path), Text: fmt.Sprintf("annotation %q", key),
		}
		if id != "" {
			d.Rules = []string{id}
		}
		out = append(out, d)
	}
	return out
}
