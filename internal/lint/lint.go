// Package lint runs a whole lint: it reads every input once, parses and
// checks files in parallel, turns rule paths into positions and gathers the
// result. Files are processed one at a time per worker and dropped when done,
// so memory follows the largest file, not the whole input.
package lint

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/manifest"
)

// Options tune a run.
type Options struct {
	Workers   int  // parallel workers; 0 means one per CPU
	ParseOnly bool // read and parse, evaluate nothing (for benchmarks)
}

// helmHint is the reason given for a skipped Helm template.
const helmHint = "helm template syntax: render the chart first (helm template RELEASE CHART | dslint -)"

// Problems are errors outside the findings: inputs that could not be read,
// and internal errors on single objects. The rest of the run goes on.
type Problems struct {
	Unreadable []error // a named or found file could not be read
	Internal   []error // a bug: a rule or the engine failed on one object
}

// fileResult is what one input file contributed.
type fileResult struct {
	findings  []finding.Finding
	facts     []engine.Fact
	factAt    []finding.Finding // where each fact is: file, position, object, path
	seen      int               // objects checked so far, to tell objects apart
	skipped   *finding.Skipped
	objects   int
	workloads int
	other     int
	problems  Problems
}

// Run lints every source.
func Run(ctx context.Context, eng *engine.Engine, srcs []manifest.Source, stdin io.Reader, opts Options) (res *finding.Result, problems Problems) {
	results := make([]fileResult, len(srcs))
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(srcs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = checkFile(ctx, eng, srcs[i], stdin, opts)
			}
		}()
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()

	res = &finding.Result{}
	if eng != nil {
		res.Rules = eng.Rules()
	}
	var facts []engine.Fact
	var factAt []finding.Finding
	for _, r := range results {
		res.Findings = append(res.Findings, r.findings...)
		facts = append(facts, r.facts...)
		factAt = append(factAt, r.factAt...)
		if r.skipped != nil {
			res.Skipped = append(res.Skipped, *r.skipped)
		}
		res.Summary.Objects += r.objects
		res.Summary.Workloads += r.workloads
		res.Summary.NonK8s += r.other
		problems.Unreadable = append(problems.Unreadable, r.problems.Unreadable...)
		problems.Internal = append(problems.Internal, r.problems.Internal...)
	}
	res.Summary.Files = len(srcs)
	cross, err := crossFindings(ctx, eng, facts, factAt)
	if err != nil {
		problems.Internal = append(problems.Internal, err)
	}
	res.Findings = append(res.Findings, cross...)
	finding.Sort(res.Findings)
	res.Count()
	return res, problems
}

func checkFile(ctx context.Context, eng *engine.Engine, src manifest.Source, stdin io.Reader, opts Options) (out fileResult) {
	data, err := read(src, stdin)
	if err != nil {
		out.problems.Unreadable = append(out.problems.Unreadable, fmt.Errorf("%s: %w", src.Name, err))
		return out
	}
	f := manifest.Parse(src.Name, data)
	if f.Template {
		out.skipped = &finding.Skipped{File: src.Name, Reason: helmHint}
		return out
	}
	for _, se := range f.SyntaxErrors {
		out.findings = append(out.findings, finding.Finding{
			Rule: "parse-error", Severity: finding.Error,
			Message: syntaxLanguage(src.Name) + " syntax error: " + se.Message,
			File:    src.Name, Line: se.Line, Column: se.Column,
		})
	}
	for _, doc := range f.Docs {
		objs, other := manifest.Objects(doc)
		out.other += other
		out.objects += len(objs)
		if opts.ParseOnly {
			continue
		}
		for _, obj := range objs {
			checkObject(ctx, eng, src.Name, obj, &out)
		}
	}
	return out
}

// checkObject evaluates the rules on one object. A panic inside is a bug, but
// it costs only this object: it is reported and the run goes on.
func checkObject(ctx context.Context, eng *engine.Engine, file string, obj manifest.Object, out *fileResult) {
	pos := manifest.Locate(obj.Node, nil)
	out.seen++
	defer func() {
		if p := recover(); p != nil {
			out.problems.Internal = append(out.problems.Internal, fmt.Errorf("%s:%d: internal error checking %s %q: %v", file, pos.Line, obj.Kind, obj.Name, p))
		}
	}()
	v, err := eng.Check(ctx, obj.Node)
	if err != nil {
		out.problems.Internal = append(out.problems.Internal, fmt.Errorf("%s:%d: %s %q: %w", file, pos.Line, obj.Kind, obj.Name, err))
		return
	}
	if v.Patch {
		out.objects--
		out.other++ // counted with the documents that are not objects
		return
	}
	if v.Workload {
		out.workloads++
	}
	ref := finding.Object{APIVersion: obj.APIVersion, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name}
	at := func(path []any) finding.Finding {
		p := manifest.Locate(obj.Node, path)
		return finding.Finding{File: file, Line: p.Line, Column: p.Column, Object: ref, Path: manifest.FormatPath(path)}
	}
	for _, r := range v.Findings {
		f := at(r.Path)
		f.Rule, f.Severity, f.Message = r.Rule, r.Severity, r.Message
		out.findings = append(out.findings, f)
	}
	// Facts keep their position, so the document can be dropped now.
	for _, fact := range v.Facts {
		fact.Object = fmt.Sprintf("%s#%d", file, out.seen)
		out.facts = append(out.facts, fact)
		out.factAt = append(out.factAt, at(fact.Path))
	}
}

// crossFindings runs the cross-object rules over the facts of the run; each
// finding is placed where the fact it is about was recorded.
func crossFindings(ctx context.Context, eng *engine.Engine, facts []engine.Fact, factAt []finding.Finding) ([]finding.Finding, error) {
	if eng == nil {
		return nil, nil
	}
	cross, err := eng.Aggregate(ctx, facts)
	if err != nil {
		return nil, err
	}
	out := make([]finding.Finding, 0, len(cross))
	for _, c := range cross {
		f := factAt[c.Fact]
		f.Rule, f.Severity, f.Message = c.Rule, c.Severity, c.Message
		out = append(out, f)
	}
	return out, nil
}

func read(src manifest.Source, stdin io.Reader) ([]byte, error) {
	if src.Path == manifest.Stdin {
		return io.ReadAll(stdin)
	}
	data, err := os.ReadFile(src.Path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, pe.Err
		}
	}
	return data, err
}

// syntaxLanguage names the syntax a file is written in, for messages; JSON is
// parsed as the YAML it is a subset of.
func syntaxLanguage(name string) string {
	if strings.EqualFold(path.Ext(name), ".json") {
		return "JSON"
	}
	return "YAML"
}
