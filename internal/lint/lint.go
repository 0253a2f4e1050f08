// Package lint runs a whole lint: it reads every input once, parses and
// checks files in parallel, turns rule paths into positions and gathers the
// result. Files are processed one at a time per worker and dropped when done,
// so memory follows the largest file, not the whole input.
package lint

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/fix"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/kustomize"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/suppress"
)

// Options tune a run.
type Options struct {
	Workers   int  // parallel workers; 0 means one per CPU
	ParseOnly bool // read and parse, evaluate nothing (for benchmarks)
	Schedule  bool // place workloads on the inventory instead of checking them

	// Nodes is the node inventory: the inventory files (--nodes, nodes: of
	// the config) and the pools of the config. Node objects among the
	// inputs are not part of it: they are mostly test fixtures.
	Nodes []*inventory.Node
	// Probes stand for the pools the config declares without nodes: their
	// labels and taints are checked as the inventory's are, and they are
	// never placed (inventory.FromConfig).
	Probes []*inventory.Node
	// NodeFiles are the paths of the inventory files. Node objects of an
	// input that is one of them are the inventory's own, not unused ones.
	NodeFiles []string
	// Rules are the rules compiled once, with their settings; Run starts a
	// run of them on the inventory. Needed unless ParseOnly.
	Rules *engine.Compiled
	// Cluster is what the rules read of the target cluster besides its nodes.
	Cluster engine.Cluster
	// Helm is how charts among the sources are rendered.
	Helm Charts
}

// workers is how many sources, or objects of one source, are judged at once.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Placement is where the pods of one pod template of a workload can land
// (engine.Placement: its Template names the pod template of a kind with
// several).
type Placement struct {
	Object finding.Object
	File   string
	Line   int
	engine.Placement
}

// Outcome is everything a run found.
type Outcome struct {
	*finding.Result
	Inventory  *inventory.Inventory
	Placements []Placement // with Options.Schedule, in input order
	// UnusedNodes counts the Node objects among the inputs that are not
	// from an inventory file, and so not part of the inventory;
	// UnusedNodeFiles are the inputs they are in.
	UnusedNodes     int
	UnusedNodeFiles []string
}

// helmHint is the reason given for a skipped Helm template.
const helmHint = "helm template syntax outside a chart dslint renders (no Chart.yaml above it, or --no-helm): render it first (helm template RELEASE CHART | dslint -)"

// Problems are errors outside the findings: inputs that could not be read,
// and internal errors on single objects. The rest of the run goes on.
type Problems struct {
	Unreadable []error // a named or found file could not be read, a kustomization not built
	Inventory  []error // an invalid node: file:line:col and what is wrong
	Internal   []error // a bug: a rule or the engine failed on one object
}

// Err is the problems as one error for the caller's stderr, nil for none.
func (p Problems) Err() error {
	return errors.Join(slices.Concat(p.Unreadable, p.Inventory, p.Internal)...)
}

// fileResult is what one input file contributed.
type fileResult struct {
	findings  []finding.Finding
	facts     []engine.Fact
	factAt    []finding.Finding // where each fact is: file, position, object, path
	seen      int               // objects checked so far, to tell objects apart
	skipped   []finding.Skipped // the file, or documents and List items of it
	files     int               // files read: one, or every file of a kustomize build
	inputs    []string          // as reports name them: the file, or the files a build's objects came from
	objects   int
	workloads int
	problems  Problems

	directives []suppress.Directive // the suppressions written in the file

	nodes      int // Node objects among the file's objects
	placements []Placement
}

// Run lints every source, or places its workloads (Options.Schedule), on
// the inventory of Options.Nodes.
func Run(ctx context.Context, srcs []manifest.Source, stdin io.Reader, opts Options) (*Outcome, Problems) {
	out := &Outcome{Result: &finding.Result{}}
	var problems Problems
	out.Inventory = inventory.New(opts.Nodes)
	var eng *engine.Run
	if !opts.ParseOnly {
		var err error
		if eng, err = opts.Rules.NewRun(ctx, engine.RunSettings{Cluster: opts.Cluster, Inventory: out.Inventory}); err != nil {
			problems.Internal = append(problems.Internal, err)
			return out, problems
		}
		if problems.Inventory = validate(ctx, eng, slices.Concat(out.Inventory.Nodes, opts.Probes)); len(problems.Inventory) > 0 {
			return out, problems
		}
	}
	srcs, builds := buildAll(srcs, &problems)
	results := checkFiles(ctx, eng, srcs, builds, stdin, opts)
	out.UnusedNodes, out.UnusedNodeFiles = unusedNodes(srcs, results, opts.NodeFiles)
	if opts.Rules != nil {
		out.Rules = opts.Rules.Rules()
	}
	var facts []engine.Fact
	var factAt []finding.Finding
	var directives []suppress.Directive
	for _, r := range results {
		if len(r.problems.Unreadable)+len(r.problems.Internal) == 0 {
			out.Inputs = append(out.Inputs, r.inputs...)
		}
		out.Findings = append(out.Findings, r.findings...)
		directives = append(directives, r.directives...)
		out.Placements = append(out.Placements, r.placements...)
		facts = append(facts, r.facts...)
		factAt = append(factAt, r.factAt...)
		out.Skipped = append(out.Skipped, r.skipped...)
		out.Summary.Files += r.files
		out.Summary.Objects += r.objects
		out.Summary.Workloads += r.workloads
		problems.Unreadable = append(problems.Unreadable, r.problems.Unreadable...)
		problems.Internal = append(problems.Internal, r.problems.Internal...)
	}
	if !out.Inventory.Empty() {
		out.Summary.Nodes, out.Summary.Pools = len(out.Inventory.Nodes), len(out.Inventory.Pools)
	}
	if !opts.Schedule && !opts.ParseOnly {
		cross, err := crossFindings(ctx, eng, facts, factAt)
		if err != nil {
			problems.Internal = append(problems.Internal, err)
		}
		out.Findings = append(out.Findings, cross...)
		out.Findings = append(out.Findings, suppress.Apply(out.Findings, writtenOnce(directives), catalogue(opts.Rules, out.Inventory, opts.Cluster.Pools))...)
	}
	finding.Sort(out.Findings)
	sortSkipped(out.Skipped)
	out.Count()
	return out, problems
}

// sortSkipped orders what was skipped by file and line, as findings are.
func sortSkipped(s []finding.Skipped) {
	slices.SortStableFunc(s, func(a, b finding.Skipped) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
}

// checkFiles checks the sources in parallel; builds[i] is the build of
// srcs[i] when it is a kustomization.
func checkFiles(ctx context.Context, eng *engine.Run, srcs []manifest.Source, builds []*kustomize.Build, stdin io.Reader, opts Options) []fileResult {
	results := make([]fileResult, len(srcs))
	workers := opts.workers()
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(srcs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if builds[i] != nil {
					results[i] = checkBuild(ctx, eng, srcs[i], builds[i], opts)
					continue
				}
				if srcs[i].Chart {
					results[i] = checkChart(ctx, eng, srcs[i], opts)
					continue
				}
				results[i] = checkFile(ctx, eng, srcs[i], stdin, opts)
			}
		}()
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// unusedNodes counts the Node objects of the inputs that are not inventory
// files, which are not part of the inventory, and names those inputs.
func unusedNodes(srcs []manifest.Source, results []fileResult, nodeFiles []string) (n int, files []string) {
	inventoryFile := map[string]bool{}
	for _, f := range nodeFiles {
		if f != manifest.Stdin {
			inventoryFile[manifest.RealPath(f)] = true
		}
	}
	for i, r := range results {
		src := srcs[i]
		if r.nodes == 0 || (len(inventoryFile) > 0 && !src.Kustomization && src.Path != manifest.Stdin && inventoryFile[manifest.RealPath(src.Path)]) {
			continue
		}
		n += r.nodes
		files = append(files, src.Name)
	}
	return n, files
}

// validate checks inventory nodes as the API server would. Nodes mostly
// share labels and taints, so each distinct label, taint list and
// unschedulable value is checked once, and a problem is reported at the
// first node that has it.
func validate(ctx context.Context, eng *engine.Run, nodes []*inventory.Node) []error {
	type at struct {
		node *inventory.Node
		path []any
	}
	parts := map[string][]any{}
	where := map[string][]at{}
	seen := map[string]bool{}
	add := func(part string, value any, n *inventory.Node, path []any) {
		key, _ := json.Marshal([]any{part, value})
		if seen[string(key)] {
			return
		}
		seen[string(key)] = true
		parts[part] = append(parts[part], value)
		where[part] = append(where[part], at{n, path})
	}
	for _, n := range nodes {
		for k, v := range n.Labels {
			add("labels", []any{k, v}, n, []any{"metadata", "labels", k})
		}
		if n.Taints != nil {
			add("taints", n.Taints, n, []any{"spec", "taints"})
		}
		if n.Unschedulable != nil {
			add("unschedulable", n.Unschedulable, n, []any{"spec", "unschedulable"})
		}
	}
	problems, err := eng.InventoryProblems(ctx, parts)
	if err != nil {
		return []error{err}
	}
	errs := make([]error, 0, len(problems))
	for _, p := range problems {
		if p.Index >= len(where[p.Part]) {
			return append(errs, fmt.Errorf("node validation named %s %d, which does not exist", p.Part, p.Index))
		}
		w := where[p.Part][p.Index]
		errs = append(errs, &manifest.Error{
			Pos:     w.node.Position(append(slices.Clone(w.path), p.Path...)),
			Message: fmt.Sprintf("%s: %s", nodeNoun(w.node), p.Message),
		})
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errs
}

// checkFile judges the objects of one input, as manifest.Read hands them
// over a part at a time: memory follows the part, not the file.
func checkFile(ctx context.Context, eng *engine.Run, src manifest.Source, stdin io.Reader, opts Options) (out fileResult) {
	out.files, out.inputs = 1, []string{src.Name}
	defer recoverFileInto(&out, src.Name)
	for f, err := range manifest.Read(src, stdin, manifest.ManifestLimits) {
		if err != nil {
			out.problems.Unreadable = append(out.problems.Unreadable, fmt.Errorf("%s: %w", src.Name, err))
			return out
		}
		if f.Template {
			out.skipped = append(out.skipped, finding.Skipped{File: src.Name, Reason: helmHint, Kind: finding.SkippedTemplate})
			return out
		}
		checkParsed(ctx, eng, src, f, &out, opts)
	}
	return out
}

// checkParsed judges the documents of a part of an input.
func checkParsed(ctx context.Context, eng *engine.Run, src manifest.Source, f *manifest.File, out *fileResult, opts Options) {
	if !opts.ParseOnly && !opts.Schedule {
		for _, d := range suppress.Comments(f) {
			p := origin(src, f, d.Line).Pos(d.Line, d.Column)
			d.File, d.Line = p.File, p.Line
			out.directives = append(out.directives, d)
		}
	}
	judgeParsed(ctx, eng, src, f, parsedAt{
		origin: func(line int) manifest.Origin { return origin(src, f, line) },
		syntax: syntaxLanguage(src.Name) + " syntax error: ",
	}, out, opts)
}

// parsedAt says where a parsed input's documents were written.
type parsedAt struct {
	origin func(line int) manifest.Origin // where a line of the input was written
	syntax string                         // how a syntax error's message starts
	chart  *finding.Chart                 // the chart render it is; nil for none
}

// judgeParsed reports the syntax errors of f, skips its documents that
// are not objects, and judges (or places) its objects.
func judgeParsed(ctx context.Context, eng *engine.Run, src manifest.Source, f *manifest.File, at parsedAt, out *fileResult, opts Options) {
	parseError := opts.parseError()
	for _, se := range f.SyntaxErrors {
		if !parseError.On {
			break // turned off: none of its findings is made
		}
		p := at.origin(se.Line).Pos(se.Line, se.Column)
		msg := at.syntax + se.Message
		if se.Limit {
			msg = se.Message
		}
		out.findings = append(out.findings, finding.Finding{
			Rule: parseErrorRule, Severity: parseError.Severity, Message: msg,
			File: p.File, Line: p.Line, Column: p.Column, Approximate: p.Approximate, Value: valueOf(p), Chart: at.chart,
		})
	}
	var objs []objectAt
	for _, doc := range f.Docs {
		found, others := manifest.Entries(doc)
		for _, o := range others {
			p := at.origin(o.Line).Pos(o.Line, 0)
			out.skipped = append(out.skipped, finding.Skipped{
				File: p.File, Line: p.Line, Reason: finding.ReasonNotObject, Kind: finding.SkippedNotObject,
			})
		}
		out.objects += len(found)
		if opts.ParseOnly {
			continue
		}
		for _, obj := range found {
			o := at.origin(obj.Node.Line)
			o.Node = obj.Node
			objs = append(objs, objectAt{obj: obj, origin: o, chart: at.chart})
		}
	}
	checkPlacedAll(ctx, eng, src.Name, objs, out, opts)
}

// origin is where the user wrote a line of f, part of the input src. On
// standard input, a document that a "# Source:" comment attributes to a
// Helm template (helm template … | dslint -) names the template and is
// numbered from the line after the comment; everything else names the
// source itself, unshifted. Files on disk keep their own positions: a
// committed rendered chart names templates that may not exist in the
// repository.
func origin(src manifest.Source, f *manifest.File, line int) manifest.Origin {
	if src.Path == manifest.Stdin {
		if file, shift, ok := f.Helm.At(line); ok {
			return manifest.Origin{File: file, Path: src.Path, Shift: shift}
		}
	}
	return manifest.Origin{File: src.Name, Path: src.Path}
}

// objectAt is an object to judge and where the user wrote it.
type objectAt struct {
	obj    manifest.Object
	origin manifest.Origin
	chart  *finding.Chart // the chart render it is from; nil outside charts
}

// checkBuild judges the objects of a kustomize build; findings point into
// the files the objects came from.
func checkBuild(ctx context.Context, eng *engine.Run, src manifest.Source, b *kustomize.Build, opts Options) (out fileResult) {
	out.files = len(b.Files)
	out.objects = len(b.Objects)
	for _, w := range b.Written {
		out.inputs = append(out.inputs, w.Name)
	}
	if len(out.inputs) == 0 {
		out.inputs = []string{b.Kustomization}
	}
	if opts.ParseOnly {
		return out
	}
	if !opts.Schedule {
		for _, w := range b.Written {
			out.directives = append(out.directives, suppress.Comments(w)...)
		}
	}
	objs := make([]objectAt, len(b.Objects))
	for i, o := range b.Objects {
		objs[i] = objectAt{obj: o.Object, origin: o.Origin}
	}
	checkPlacedAll(ctx, eng, src.Name, objs, &out, opts)
	return out
}

// minObjectsPerWorker is how many objects of one source make it worth
// running the rules on them in parallel.
const minObjectsPerWorker = 16

// checkPlacedAll judges the objects of the source named id, or places them,
// and records the outcomes in order. The sources are judged in parallel,
// and so are the objects of one source when it has many (a large file, a
// kustomize build, a Helm stream on stdin).
func checkPlacedAll(ctx context.Context, eng *engine.Run, id string, objs []objectAt, out *fileResult, opts Options) {
	judged := make([]judgement, len(objs))
	judgeOne := func(i int) { judged[i] = judge(ctx, eng, objs[i].obj, opts.Schedule) }
	if workers := min(opts.workers(), len(objs)/minObjectsPerWorker); workers > 1 {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(objs); i = int(next.Add(1) - 1) {
					judgeOne(i)
				}
			})
		}
		wg.Wait()
	} else {
		for i := range objs {
			judgeOne(i)
		}
	}
	for i, o := range objs {
		if inventory.IsNode(o.obj.APIVersion, o.obj.Kind) {
			out.nodes++
		}
		if opts.Schedule {
			placeObject(o, judged[i], out)
		} else {
			checkObject(id, o, judged[i], out)
		}
	}
}

// judgement is the engine's verdict on one object (Check) or its placement
// (Place), or the error or panic that came instead.
type judgement struct {
	verdict   engine.Verdict
	placement []engine.Placement // one per pod template
	err       error
	panic     any
}

func judge(ctx context.Context, eng *engine.Run, obj manifest.Object, schedule bool) (j judgement) {
	defer func() { j.panic = recover() }()
	if schedule {
		j.placement, j.err = eng.Place(ctx, obj.Node)
		return j
	}
	if beforeCheck != nil {
		beforeCheck(obj)
	}
	j.verdict, j.err = eng.Check(ctx, obj.Node)
	return j
}

// buildAll builds the kustomizations among the sources, and drops from the
// other sources the files those builds read: they are linted as built, not
// a second time as written. A kustomization that does not build is left
// out, reported as an input that could not be read.
func buildAll(srcs []manifest.Source, problems *Problems) ([]manifest.Source, []*kustomize.Build) {
	builds := make([]*kustomize.Build, len(srcs))
	built := map[string]bool{}
	for i, src := range srcs {
		if !src.Kustomization {
			continue
		}
		b, err := build(src)
		if err != nil {
			var internal internalError
			if errors.As(err, &internal) {
				problems.Internal = append(problems.Internal, err)
			} else {
				problems.Unreadable = append(problems.Unreadable, err)
			}
			continue
		}
		builds[i] = b
		for _, f := range b.Files {
			built[f] = true
		}
	}
	var keptSrcs []manifest.Source
	var keptBuilds []*kustomize.Build
	for i, src := range srcs {
		if src.Kustomization && builds[i] == nil {
			continue
		}
		if !src.Kustomization && len(built) > 0 && src.Path != manifest.Stdin && built[manifest.RealPath(src.Path)] {
			continue
		}
		keptSrcs, keptBuilds = append(keptSrcs, src), append(keptBuilds, builds[i])
	}
	return keptSrcs, keptBuilds
}

// writtenOnce drops the repeats of a dslint:ignore comment: every
// kustomize build that reads a file finds its comments again.
func writtenOnce(ds []suppress.Directive) []suppress.Directive {
	type at struct {
		file         string
		line, column int
	}
	seen := map[at]bool{}
	return slices.DeleteFunc(ds, func(d suppress.Directive) bool {
		if d.Kind != finding.SuppressedByComment {
			return false
		}
		k := at{d.File, d.Line, d.Column}
		repeat := seen[k]
		seen[k] = true
		return repeat
	})
}

// internalError is a panic inside a build: a bug, in kustomize or here.
type internalError struct{ error }

// build builds one kustomization; a panic inside is reported, not passed on.
func build(src manifest.Source) (b *kustomize.Build, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = internalError{fmt.Errorf("%s: internal error building the kustomization: %v", src.Name, p)}
		}
	}()
	return kustomize.Run(src.Path, src.Name)
}

// checkObject records the rules' verdict on one object. A panic while
// judging or recording it is a bug, but it costs only this object: it is
// reported and the run goes on.
func checkObject(id string, o objectAt, j judgement, out *fileResult) {
	obj, line := o.obj, objectLine(o.origin)
	out.seen++
	defer recoverInto(out, line, obj, "checking")
	if j.panic != nil {
		panic(j.panic) // reported as any panic here is
	}
	v := j.verdict
	if j.err != nil {
		out.objectError(line, obj, j.err)
		return
	}
	if v.Patch {
		out.objects--
		out.skipped = append(out.skipped, finding.Skipped{
			File: o.origin.File, Line: startLine(o.origin), Reason: finding.ReasonFragment, Kind: finding.SkippedFragment,
		})
		return
	}
	if v.Workload {
		out.workloads++
	}
	ref := finding.Object{APIVersion: obj.APIVersion, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name}
	at := func(path []any) finding.Finding {
		p := o.origin.Locate(path)
		return finding.Finding{
			File: p.File, Line: p.Line, Column: p.Column, Approximate: p.Approximate, Value: valueOf(p),
			Object: ref, Path: manifest.FormatPath(path), Chart: o.chart,
		}
	}
	out.directives = append(out.directives, suppress.Annotations(o.origin.File, obj, ref, o.origin.Locate)...)
	for _, r := range v.Findings {
		f := at(r.Path)
		f.Rule, f.Severity, f.Message = r.Rule, r.Severity, o.origin.FillWritten(r.Path, r.Message)
		if len(r.Fix) > 0 {
			f.Fix = fixOf(o, r.Fix)
		}
		out.findings = append(out.findings, f)
	}
	// Facts keep their position, so the document can be dropped now.
	for _, fact := range v.Facts {
		f := at(fact.Path)
		fact.Object = fmt.Sprintf("%s#%d", id, out.seen)
		fact.File, fact.Line = f.File, f.Line
		out.facts = append(out.facts, fact)
		out.factAt = append(out.factAt, f)
	}
}

// fixOf is a finding's fix with where to make it: in the file that holds
// the object as written, where the object starts there.
func fixOf(o objectAt, edits []finding.Edit) *finding.Fix {
	fx := &finding.Fix{Edits: edits, Expect: fix.Expect(o.obj.Node, edits)}
	switch {
	case o.chart != nil || o.origin.Template != nil:
		fx.Reason = "rendered from a Helm chart: make the change in the template or the values"
		if o.origin.Node != nil {
			fx.Rendered, fx.Line, fx.Column = o.origin.Rendered, o.origin.Node.Line, o.origin.Node.Column
		}
	case o.origin.Node == nil || o.origin.Path == "":
		fx.Reason = "the object is made by kustomize, not written in a file"
	default:
		fx.Source, fx.Line, fx.Column = o.origin.Path, o.origin.Node.Line, o.origin.Node.Column
	}
	return fx
}

// objectLine is the line internal errors about an object name: its kind's.
func objectLine(o manifest.Origin) manifest.Pos {
	p := o.Locate(nil)
	p.Column = 0
	return p
}

// startLine is the line an object starts on where the user wrote it.
func startLine(o manifest.Origin) int {
	if o.Node == nil {
		return o.At.Line
	}
	return o.Pos(o.Node.Line, o.Node.Column).Line
}

// beforeCheck, when a test sets it, runs as the rules start on each object:
// a test makes it panic to see that a panic costs one object only.
var beforeCheck func(manifest.Object)

// recoverFileInto, deferred, turns a panic while reading or parsing a file
// into an internal error of that file alone: a bug, but the run goes on.
func recoverFileInto(out *fileResult, file string) {
	if p := recover(); p != nil {
		out.problems.Internal = append(out.problems.Internal, fmt.Errorf("%s: internal error reading the file: %v", file, p))
	}
}

// recoverInto, deferred, turns a panic while judging obj into an internal
// error of that object alone: a bug, but the run goes on.
func recoverInto(out *fileResult, at manifest.Pos, obj manifest.Object, doing string) {
	if p := recover(); p != nil {
		out.problems.Internal = append(out.problems.Internal, fmt.Errorf("%s: internal error %s %s %q: %v", at, doing, obj.Kind, obj.Name, p))
	}
}

func (out *fileResult) objectError(at manifest.Pos, obj manifest.Object, err error) {
	out.problems.Internal = append(out.problems.Internal, fmt.Errorf("%s: %s %q: %w", at, obj.Kind, obj.Name, err))
}

// placeObject records where the pods of one workload can go on the
// inventory: one placement per pod template.
func placeObject(o objectAt, j judgement, out *fileResult) {
	obj, line := o.obj, objectLine(o.origin)
	defer recoverInto(out, line, obj, "placing")
	if j.panic != nil {
		panic(j.panic) // reported as any panic here is
	}
	if j.err != nil {
		out.objectError(line, obj, j.err)
		return
	}
	if len(j.placement) == 0 {
		return
	}
	out.workloads++
	ref := finding.Object{APIVersion: obj.APIVersion, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name}
	for _, p := range j.placement {
		out.placements = append(out.placements, Placement{Object: ref, File: line.File, Line: line.Line, Placement: p})
	}
}

// crossFindings runs the cross-object rules over the facts of the run; each
// finding is placed where the fact it is about was recorded.
func crossFindings(ctx context.Context, eng *engine.Run, facts []engine.Fact, factAt []finding.Finding) ([]finding.Finding, error) {
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

// catalogue is what suppressions are checked against, from the rule
// settings: every rule there is, which of them ran (a rule that needs an
// inventory, or declared owners, cannot fire without them, so a suppression
// of it is not unused then), and how the rules about suppressions are set.
func catalogue(rules *engine.Compiled, inv *inventory.Inventory, pools []config.Pool) suppress.Catalogue {
	var cat suppress.Catalogue
	owners := slices.ContainsFunc(pools, func(p config.Pool) bool { return p.Owners != nil })
	for _, r := range rules.Rules() {
		cat.Known = append(cat.Known, r.ID)
	}
	cat.Ran = func(id string) bool { return rules.Setting(id).Ran(!inv.Empty(), owners) }
	cat.Severity = func(id string) finding.Severity { return rules.Setting(id).Severity }
	return cat
}

// parseErrorRule is the rule of the syntax errors, raised by the parser.
const parseErrorRule = "parse-error"

// parseError is how parse-error is set. With ParseOnly no rule is
// compiled, and it is on at its metadata's severity, error.
func (o Options) parseError() engine.RuleSetting {
	if o.Rules == nil {
		return engine.RuleSetting{On: true, Severity: finding.Error}
	}
	return o.Rules.Setting(parseErrorRule)
}

// syntaxLanguage names the syntax a file is written in, for messages; JSON is
// parsed as the YAML it is a subset of.
func syntaxLanguage(name string) string {
	if strings.EqualFold(path.Ext(name), ".json") {
		return "JSON"
	}
	return "YAML"
}

// nodeNoun names a node in a problem, or the pool a probe stands for.
func nodeNoun(n *inventory.Node) string {
	if n.Declared {
		return fmt.Sprintf("pool %q", n.Name)
	}
	return fmt.Sprintf("node %q", n.Name)
}
