package lint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/helm"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/suppress"
)

// Charts say how the Helm charts among the sources are rendered.
type Charts struct {
	// Options are the command line's: its values go after those of a
	// value set.
	Options helm.Options
	// ValueSets are the value sets of the config's charts: entries, by
	// the real path of the chart directory. A chart without any is
	// rendered once, with the command line's values.
	ValueSets map[string][]ValueSet
}

// ValueSet is a named set of values files to render a chart with.
type ValueSet struct {
	Name  string
	Files []string
}

// renders are the renders of the chart at dir: one per value set.
func (c Charts) renders(dir string) []ValueSet {
	if sets := c.ValueSets[manifest.RealPath(dir)]; len(sets) > 0 {
		return sets
	}
	return []ValueSet{{}}
}

// checkChart renders the chart src names once per value set and judges
// the rendered objects; findings point into the templates. A chart that
// does not render is reported (exit 2) where Helm says it fails.
func checkChart(ctx context.Context, eng *engine.Run, src manifest.Source, opts Options) (out fileResult) {
	defer recoverFileInto(&out, src.Name)
	templates := map[string]bool{}
	for _, set := range opts.Helm.renders(src.Path) {
		o := opts.Helm.Options
		o.Files = append(append([]string(nil), set.Files...), o.Files...)
		r, err := helm.Run(ctx, src.Path, src.Name, o)
		if err != nil {
			if set.Name != "" {
				err = valueSetError{set.Name, err}
			}
			out.problems.Unreadable = append(out.problems.Unreadable, chartError(src.Name, err))
			continue
		}
		for _, d := range r.Docs {
			templates[d.Template] = true
			chart := &finding.Chart{Path: src.Name, Values: set.Name, Hook: strings.Join(d.Hook, ",")}
			checkRendered(ctx, eng, src, d, chart, &out, opts)
		}
	}
	out.files = len(templates)
	if len(out.problems.Unreadable) == 0 {
		out.inputs = slices.Sorted(maps.Keys(templates))
	}
	return out
}

// valueSetError names the value set a render failed with.
type valueSetError struct {
	set string
	err error
}

func (e valueSetError) Error() string {
	var at *manifest.Error
	if errors.As(e.err, &at) {
		return fmt.Sprintf("%s: with values %q: %s", at.Pos, e.set, at.Message)
	}
	return fmt.Sprintf("with values %q: %v", e.set, e.err)
}

func (e valueSetError) Unwrap() error { return e.err }

// chartError is a chart that does not render, named by its position
// when Helm gave one, else by the chart.
func chartError(name string, err error) error {
	var at *manifest.Error
	if errors.As(err, &at) {
		return err
	}
	return fmt.Errorf("%s: %w", filepath.ToSlash(name), err)
}

// checkRendered judges the objects of one rendered document of a chart.
func checkRendered(ctx context.Context, eng *engine.Run, src manifest.Source, d helm.Doc, chart *finding.Chart, out *fileResult, opts Options) {
	text := []byte(d.Content)
	f := manifest.Parse(d.Template, text)
	pos := d.Positions()
	origin := manifest.Origin{File: d.Template, Template: pos, Rendered: text}
	if !opts.ParseOnly && !opts.Schedule {
		for _, dir := range suppress.Comments(f) {
			p, alone, ok := pos.Comment(dir.Line, dir.Column)
			if !ok {
				continue // not written in the template: an include's
			}
			dir.File = cmp.Or(p.File, dir.File)
			dir.Line, dir.Column, dir.Alone = p.Line, p.Column, alone
			out.directives = append(out.directives, dir)
		}
	}
	judgeParsed(ctx, eng, src, f, parsedAt{
		origin: func(int) manifest.Origin { return origin },
		syntax: "YAML syntax error in the rendered template: ",
		chart:  chart,
	}, out, opts)
}

// valueOf is the Helm value a position in a template came from; nil for
// none.
func valueOf(p manifest.Pos) *finding.Value {
	if p.Value == nil {
		return nil
	}
	v := p.Value
	return &finding.Value{Ref: v.Ref, File: v.File, Line: v.Line, Column: v.Column}
}
