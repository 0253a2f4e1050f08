package cli

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/spf13/pflag"

	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/fix"
	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/report"
)

func runFix(e *env, args []string) (int, error) { return lintOrFix(e, args, true) }

// fixFlags are the flags of dslint fix (and lint --fix).
type fixFlags struct {
	on    bool     // --fix, or the fix command
	diff  bool     // print the edits as a diff, change nothing
	rules []string // --rule: only these rules' fixes
}

func (f *fixFlags) register(fs *pflag.FlagSet, fixing bool) {
	if !fixing {
		fs.BoolVar(&f.on, "fix", false, "make the fixes of fixable findings in the files (as dslint fix), then report what remains")
	}
	fs.BoolVar(&f.diff, "diff", false, "with fix: print the fixes as a unified diff and change nothing (exit 1 when there is one)")
	fs.StringArrayVar(&f.rules, "rule", nil, "with fix: make only this rule's fixes; repeatable")
}

// check refuses --diff and --rule without fixing, and a --rule that names
// no rule or one without fixes.
func (f *fixFlags) check(opts lint.Options) error {
	if !f.on && (f.diff || len(f.rules) > 0) {
		return usagef("--diff and --rule go with dslint fix (or lint --fix)")
	}
	for _, id := range f.rules {
		r, ok := opts.Rules.Rule(id)
		switch {
		case !ok:
			return usagef("--rule %q: no such rule (dslint rules lists them)", id)
		case !r.Fixable:
			return usagef("--rule %q: the rule has no fix (dslint rules marks the fixable ones)", id)
		}
	}
	return nil
}

// wants is true when the fix of a finding is to be made.
func (f *fixFlags) wants(fd finding.Finding) bool {
	return fd.Fix != nil && !fd.Suppressed && (len(f.rules) == 0 || slices.Contains(f.rules, fd.Rule))
}

// wantsReplacements is true when a report prints fixes as text edits
// (json, sarif): the files are read again for them.
func (fl lintFlags) wantsReplacements() bool {
	if fl.format == "json" || fl.format == "sarif" {
		return true
	}
	return slices.ContainsFunc(fl.reports, func(r extraReport) bool { return r.format == "json" || r.format == "sarif" })
}

// withStdinBuffered keeps standard input when a source is stdin and need
// is true, so that it can be read again (for a fix's edits): whole when it
// is a file fix would edit; a larger stream is read on as it comes, not
// kept (kept is false).
func (e *env) withStdinBuffered(srcs []manifest.Source, need bool) (c *env, kept bool, err error) {
	if !need || !slices.ContainsFunc(srcs, func(s manifest.Source) bool { return s.Path == manifest.Stdin }) {
		return e, false, nil
	}
	if _, ok := e.stdin.(*stdinBuffer); ok {
		return e, true, nil
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, manifest.MaxFileBytes+1))
	if err != nil {
		return nil, false, usagef("read standard input: %v", err)
	}
	c = &env{stdin: &stdinBuffer{Reader: bytes.NewReader(data), data: data}, stdout: e.stdout, stderr: e.stderr}
	if fix.TooLarge(int64(len(data))) {
		c.stdin = io.MultiReader(bytes.NewReader(data), e.stdin)
		return c, false, nil
	}
	return c, true, nil
}

// stdinBuffer is standard input read whole.
type stdinBuffer struct {
	*bytes.Reader
	data []byte
}

// read is the text of the file a fix edits.
func (e *env) read(source string) ([]byte, error) {
	if source == manifest.Stdin {
		if b, ok := e.stdin.(*stdinBuffer); ok {
			return b.data, nil
		}
		return nil, fmt.Errorf("standard input was not kept")
	}
	if info, err := os.Stat(source); err == nil && fix.TooLarge(info.Size()) {
		return nil, fmt.Errorf("%s is larger than %d MiB, which dslint reads a part at a time: it is not fixed", source, manifest.MaxFileBytes>>20)
	}
	return os.ReadFile(source)
}

// bySource groups the fixes of findings by the file they edit, in order.
func bySource(fs []finding.Finding, want func(finding.Finding) bool) (sources []string, fixes map[string][]*finding.Fix) {
	fixes = map[string][]*finding.Fix{}
	for i := range fs {
		f := &fs[i]
		if !want(*f) || f.Fix.Source == "" {
			continue
		}
		if _, ok := fixes[f.Fix.Source]; !ok {
			sources = append(sources, f.Fix.Source)
		}
		fixes[f.Fix.Source] = append(fixes[f.Fix.Source], f.Fix)
	}
	return sources, fixes
}

// describeFixes fills in the text edits of the findings' fixes, for the
// reports that print them: each file read and parsed again, files in
// parallel.
func describeFixes(e *env, fs []finding.Finding) {
	sources, fixes := bySource(fs, func(f finding.Finding) bool { return f.Fix != nil })
	var wg sync.WaitGroup
	next := make(chan string)
	for range min(runtime.GOMAXPROCS(0), len(sources)) {
		wg.Go(func() {
			for src := range next {
				if data, err := e.read(src); err == nil {
					fix.Describe(src, data, fix.Targets(fixes[src]))
				}
			}
		})
	}
	for _, src := range sources {
		next <- src
	}
	close(next)
	wg.Wait()
}

// maxFixPasses bounds the lint-and-fix rounds: a fix can bring out another
// finding with a fix (an operator's case fixed, its value is checked).
const maxFixPasses = 4

// fixed is what was done to one file.
type fixed struct {
	name   string // as reports name it
	before []byte // the text before the first fix
	after  []byte // the text after the last
	rules  []string
	count  int
}

// fixRun is one dslint fix: the rounds of lint and fix, and what they did.
type fixRun struct {
	e     *env
	fl    lintFlags
	srcs  []manifest.Source
	opts  lint.Options
	done  map[string]*fixed // by the file edited
	order []string          // the files edited, in the order first edited
}

// round lints (the fixed texts, with --diff) and makes the fixes found. It
// returns the outcome and whether a file changed.
func (r *fixRun) round(pass int) (*lint.Outcome, lint.Problems, bool, error) {
	e := r.e
	listed := map[string]bool{}
	for i := range r.srcs {
		listed[r.srcs[i].Path] = true
		if d := r.done[r.srcs[i].Path]; d != nil && r.fl.fix.diff && r.srcs[i].Path != manifest.Stdin {
			r.srcs[i].Text = &d.after // --diff: the next round reads the fixed text
		}
	}
	if b, ok := e.stdin.(*stdinBuffer); ok {
		b.Reset(b.data)
	}
	out, problems := lint.Run(context.Background(), r.srcs, e.stdin, r.opts)
	if err := inventoryError(problems); err != nil {
		return nil, problems, false, err
	}
	sources, fixes := bySource(out.Findings, r.fl.fix.wants)
	names := map[*finding.Fix]finding.Finding{}
	for _, f := range out.Findings {
		if f.Fix != nil {
			names[f.Fix] = f
		}
	}
	changed := false
	for _, src := range sources {
		d := r.done[src]
		if pass > 1 && r.fl.fix.diff && d != nil && !listed[src] {
			continue // a kustomize source: linted as on disk, not as fixed
		}
		data, err := r.text(src)
		if err != nil {
			fmt.Fprintf(e.stderr, "dslint: %v\n", err)
			continue
		}
		name := names[fixes[src][0]].File
		res, err := fix.File(name, data, fix.Targets(fixes[src]))
		if err != nil {
			if pass == 1 {
				fmt.Fprintf(e.stderr, "dslint: %v\n", err)
			}
			continue
		}
		for _, fx := range fixes[src] {
			if fx.Reason != "" && pass == 1 {
				f := names[fx]
				fmt.Fprintf(e.stderr, "dslint: %s:%d:%d: %s not fixed: %s\n", f.File, f.Line, f.Column, f.Rule, fx.Reason)
			}
		}
		if bytes.Equal(res.Data, data) {
			continue
		}
		if err := r.keep(src, res.Data); err != nil {
			return nil, problems, false, err
		}
		changed = true
		if d == nil {
			d = &fixed{name: name, before: data}
			r.done[src] = d
			r.order = append(r.order, src)
		}
		d.after = res.Data
		for _, fx := range res.Applied {
			d.count++
			if rule := names[fx].Rule; !slices.Contains(d.rules, rule) {
				d.rules = append(d.rules, rule)
			}
		}
	}
	return out, problems, changed, nil
}

// text is the text of the file src as fixed so far: with --diff, what
// the rounds before made of it; else the file (standard input as kept).
func (r *fixRun) text(src string) ([]byte, error) {
	if d := r.done[src]; d != nil && r.fl.fix.diff {
		return d.after, nil
	}
	return r.e.read(src)
}

// keep keeps the fixed text of the file src: standard input's, to print;
// with --diff, in r.done for the next round (done by the caller); else in
// the file.
func (r *fixRun) keep(src string, data []byte) error {
	switch {
	case src == manifest.Stdin:
		r.e.stdin.(*stdinBuffer).data = data
	case r.fl.fix.diff:
	default:
		return writeFixed(src, data)
	}
	return nil
}

// runFixes lints, makes the fixes, and lints again until nothing more is
// fixed; it reports what remains. With --diff it prints the edits of all
// rounds and changes nothing. Standard input is printed fixed.
func runFixes(e *env, fl lintFlags, srcs []manifest.Source, opts lint.Options) (int, error) {
	stdin := slices.ContainsFunc(srcs, func(s manifest.Source) bool { return s.Path == manifest.Stdin })
	e, kept, err := e.withStdinBuffered(srcs, true)
	if err != nil {
		return 0, err
	}
	if stdin && !kept {
		return 0, usagef("standard input is larger than %d MiB, which dslint fix does not hold whole: fix the file instead", manifest.MaxFileBytes>>20)
	}
	r := &fixRun{e: e, fl: fl, srcs: slices.Clone(srcs), opts: opts, done: map[string]*fixed{}}
	var out *lint.Outcome
	var problems lint.Problems
	var unfixable []string
	for pass := 1; pass <= maxFixPasses; pass++ {
		o, p, changed, err := r.round(pass)
		if err != nil {
			return 0, err
		}
		out, problems = o, p
		if pass == 1 {
			unfixable = unfixableNotes(out.Findings, fl.fix.wants)
			unfixable = append(unfixable, renderedDiffs(out.Findings, fl.fix.wants)...)
		}
		if !changed {
			break
		}
	}
	for _, n := range unfixable {
		fmt.Fprintf(e.stderr, "dslint: %s\n", n)
	}
	if code := problemsExit(e, problems); code != ExitOK {
		return code, nil
	}
	if fl.fix.diff {
		for _, src := range r.order {
			d := r.done[src]
			writeDiff(e.stdout, d.name, d.before, d.after)
		}
		if len(r.order) > 0 {
			return ExitFindings, nil
		}
		return ExitOK, nil
	}
	total := 0
	for _, src := range r.order {
		d := r.done[src]
		total += d.count
		if !fl.quiet {
			slices.Sort(d.rules)
			fmt.Fprintf(e.stderr, "dslint: fixed %s: %d (%s)\n", d.name, d.count, strings.Join(d.rules, ", "))
		}
	}
	res := out.Result
	if total > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("fixed %s in %s", plural(total, "finding"), plural(len(r.order), "file")))
	} else {
		res.Notes = append(res.Notes, "nothing to fix")
	}
	if stdin {
		// The fixed stream is the output; what remains goes to stderr.
		if b, ok := e.stdin.(*stdinBuffer); ok {
			_, _ = e.stdout.Write(b.data)
		}
		c := *e
		c.stdout = e.stderr
		fl.format, fl.output = "text", ""
		e = &c
	}
	if err := writeReports(e, fl, res); err != nil {
		return 0, err
	}
	if fails(res, fl.failOn) {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// unfixableNotes say which fixes cannot be made in a file, and the edits
// to make by hand: a chart's are made in its template or values.
func unfixableNotes(fs []finding.Finding, want func(finding.Finding) bool) []string {
	var out []string
	for _, f := range fs {
		if !want(f) || f.Fix.Source != "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d:%d: %s not fixed (%s): %s", f.File, f.Line, f.Column, f.Rule, f.Fix.Reason, report.DescribeEdits(f.Fix.Edits)))
	}
	return out
}

// renderedDiffs are the fixes of objects rendered from Helm charts as
// diffs of the rendered manifests, one note per template render: dslint
// writes no template, so they show what to change there.
func renderedDiffs(fs []finding.Finding, want func(finding.Finding) bool) []string {
	type render struct {
		name  string
		text  []byte
		fixes []*finding.Fix
	}
	var renders []*render
	for _, f := range fs {
		if !want(f) || f.Fix.Rendered == nil {
			continue
		}
		i := slices.IndexFunc(renders, func(r *render) bool { return r.name == f.File && bytes.Equal(r.text, f.Fix.Rendered) })
		if i < 0 {
			renders = append(renders, &render{name: f.File, text: f.Fix.Rendered})
			i = len(renders) - 1
		}
		renders[i].fixes = append(renders[i].fixes, f.Fix)
	}
	var out []string
	for _, r := range renders {
		res, err := fix.File(r.name, r.text, fix.Targets(r.fixes))
		if err != nil || bytes.Equal(res.Data, r.text) {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s is rendered from a Helm chart, and dslint writes no template; these edits of the rendered manifest are to make in the template or the values:\n", r.name)
		writeDiff(&b, r.name+" (rendered)", r.text, res.Data)
		out = append(out, strings.TrimSuffix(b.String(), "\n"))
	}
	return out
}

// writeDiff prints the change of one file as a unified diff.
func writeDiff(w io.Writer, name string, before, after []byte) {
	from, to := "a/"+name, "b/"+name
	if filepath.IsAbs(name) {
		from, to = name, name
	}
	d := difflib.UnifiedDiff{
		A: difflib.SplitLines(string(before)), B: difflib.SplitLines(string(after)),
		FromFile: from, ToFile: to, Context: 3,
	}
	_ = difflib.WriteUnifiedDiff(w, d) // the writer is stdout or a buffer
}

// writeFixed replaces a file with its fixed text: a temporary file in
// the same directory, with the file's mode, renamed over it (over the
// file a symbolic link points to).
func writeFixed(source string, data []byte) error {
	path, err := filepath.EvalSymlinks(source)
	if err != nil {
		return usagef("fix %s: %v", source, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return usagef("fix %s: %v", source, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".dslint-fix-*")
	if err != nil {
		return usagef("fix %s: %v", source, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := cmp.Or(werr, cerr, os.Chmod(tmp.Name(), info.Mode().Perm()), os.Rename(tmp.Name(), path)); err != nil {
		_ = os.Remove(tmp.Name())
		return usagef("fix %s: %v", source, err)
	}
	return nil
}
