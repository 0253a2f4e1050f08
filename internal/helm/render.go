// Package helm renders a Helm chart in process, as `helm template` does,
// with the Helm v4 SDK, and finds where in the chart's templates each
// rendered field was written, so that findings point at the template.
//
// Helm v4 rather than v3: v4 is the maintained major (v3 receives no fixes
// after November 2026) and renders apiVersion v1 and v2 charts as v3 does.
// Only the chart packages are used (loader, values, engine, manifest
// sorting), not pkg/action: a render never talks to a cluster, a registry
// or a repository, and the start-up cost stays that of the renderer.
package helm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"
	commonutil "helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/engine"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"

	"github.com/dslint/dslint/internal/manifest"
)

// Limits of one render: a chart that loops without end, or renders more
// than a file dslint would read, is stopped with an error that says so.
var (
	// Timeout is how long one render may take.
	Timeout = 30 * time.Second
	// MaxBytes is the most rendered output one render may produce.
	MaxBytes = manifest.MaxFileBytes
)

// Options are what `helm template` takes besides the chart.
type Options struct {
	Values
	ReleaseName string // default: the chart's name
	Namespace   string // default: "default"
	// KubeVersion is Capabilities.KubeVersion ("1.36" or "v1.36.2").
	KubeVersion string
	APIVersions []string // added to Capabilities.APIVersions
}

// Values are the values of a render, merged as `helm template` merges
// them: the files in order, then --set-json, --set, --set-string and
// --set-file, each kind in its order.
type Values struct {
	Files     []string
	Set       []string
	SetString []string
	SetFile   []string
	SetJSON   []string
}

// Render is what `helm template` prints for one chart, document by
// document: the manifests in Helm's install order, then the hooks (tests
// included).
type Render struct {
	Chart string // the chart directory, as reports name it
	Docs  []Doc
}

// Doc is one rendered document and the template it came from.
type Doc struct {
	// Name is the template as Helm names it in "# Source:" comments
	// (chart name, then the path in the chart).
	Name string
	// Template is the template file as reports name it: the chart
	// directory's display name joined with the path in the chart; for a
	// template inside a packaged subchart, the archive's path followed by
	// the path inside the archive.
	Template string
	Source   []byte // the template's text
	Content  string // the rendered document
	// Hook lists the Helm hook events the document runs at ("test",
	// "pre-install", ...); nil for a manifest of the release.
	Hook []string
	// Partials are the files that define the named templates the
	// template includes, where its fields may be written instead.
	Partials []Partial
	// values finds where the render's values files set a value of the
	// root chart; nil for a subchart's template.
	values func(path []any) (manifest.Pos, bool)
}

// Partial is a file of the chart that defines named templates.
type Partial struct {
	File   string // as reports name it
	Source []byte
}

// String is the document as `helm template` prints it.
func (d Doc) String() string {
	return "---\n# Source: " + d.Name + "\n" + d.Content + "\n"
}

// Run renders the chart in dir; name is how reports name dir. The error
// is a *manifest.Error where Helm names a file (and line) of the chart.
func Run(ctx context.Context, dir, name string, opts Options) (*Render, error) {
	quietHelm.Do(func() {
		// Helm's packages log to slog's default logger (a symbolic link
		// followed, a deprecated chart); dslint reports what matters.
		slog.SetDefault(slog.New(slog.DiscardHandler))
	})
	ch, err := load(dir, name)
	if err != nil {
		return nil, err
	}
	r := &renderer{dir: dir, name: name, files: map[*common.File]string{}, values: newValueFiles(dir, name, opts.Files)}
	r.record(ch, dir, name)
	vals, err := mergeValues(opts.Values)
	if err != nil {
		return nil, err
	}
	if err := chartutil.ProcessDependencies(ch, vals); err != nil {
		return nil, r.errorf("chart dependencies: %v", err)
	}
	r.names, r.defines = map[string]*common.File{}, map[string]*common.File{}
	r.nameTemplates(ch)
	top, err := r.renderValues(ch, vals, opts)
	if err != nil {
		return nil, err
	}
	files, err := renderWithin(ctx, ch, top)
	if err != nil {
		return nil, r.renderError(err)
	}
	return r.documents(ch, files)
}

// chartYAMLLine reads the line of a Chart.yaml that does not parse.
var chartYAMLLine = regexp.MustCompile(`Chart\.yaml: error converting YAML to JSON: yaml: line (\d+):`)

// quietHelm silences Helm's logging once.
var quietHelm sync.Once

// load loads the chart in dir, as helm template does: an application
// chart whose dependencies are all in charts/.
func load(dir, name string) (*chart.Chart, error) {
	ch, err := loader.Load(dir)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &manifest.Error{Pos: manifest.Pos{File: path.Join(name, "Chart.yaml")}, Message: "cannot load the chart: a symbolic link inside it loops"}
	}
	if err != nil {
		at := manifest.Pos{File: path.Join(name, "Chart.yaml")}
		if m := chartYAMLLine.FindStringSubmatch(err.Error()); m != nil {
			at.Line, _ = strconv.Atoi(m[1])
		}
		return nil, &manifest.Error{Pos: at, Message: "cannot load the chart: " + err.Error()}
	}
	if t := ch.Metadata.Type; t != "" && t != "application" {
		return nil, &manifest.Error{Pos: manifest.Pos{File: path.Join(name, "Chart.yaml")}, Message: fmt.Sprintf("a %s chart is not rendered on its own (helm template refuses it); lint a chart that depends on it", t)}
	}
	return ch, checkDependencies(ch, dir, name)
}

// renderValues are the values the templates see (.Values, .Release,
// .Capabilities, ...), checked against the charts' values.schema.json.
func (r *renderer) renderValues(ch *chart.Chart, vals map[string]any, opts Options) (common.Values, error) {
	caps := common.DefaultCapabilities.Copy()
	if opts.KubeVersion != "" {
		kv, err := common.ParseKubeVersion(opts.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("invalid Kubernetes version %q: %w", opts.KubeVersion, err)
		}
		caps.KubeVersion = *kv
	}
	caps.APIVersions = append(caps.APIVersions, opts.APIVersions...)
	if c := ch.Metadata.KubeVersion; c != "" && !chartutil.IsCompatibleRange(c, caps.KubeVersion.String()) {
		return nil, r.errorf("the chart requires kubeVersion %s, which Kubernetes %s is not (set --kube-version or kubernetesVersion)", c, caps.KubeVersion.Version)
	}
	release := cmp.Or(opts.ReleaseName, ch.Name())
	if err := chartutil.ValidateReleaseName(release); err != nil {
		return nil, fmt.Errorf("release name %q: %w", release, err)
	}
	options := common.ReleaseOptions{Name: release, Namespace: cmp.Or(opts.Namespace, "default"), Revision: 1, IsInstall: true}
	top, err := commonutil.ToRenderValuesWithSchemaValidation(ch, vals, options, caps, false)
	if err != nil {
		// The values break a values.schema.json: name the chart's schema.
		at := manifest.Pos{File: path.Join(r.name, "Chart.yaml")}
		if _, serr := os.Stat(filepath.Join(r.dir, "values.schema.json")); serr == nil {
			at.File = path.Join(r.name, "values.schema.json")
		}
		return nil, &manifest.Error{Pos: at, Message: strings.TrimSpace(err.Error())}
	}
	return top, nil
}

// renderer keeps, for one chart, where every template is on disk.
type renderer struct {
	dir, name string
	files     map[*common.File]string // template -> how reports name it
	names     map[string]*common.File // Helm's name of a template -> the template
	defines   map[string]*common.File // a named template -> the file that defines it
	values    *valueFiles
}

// record names every template of ch and its subcharts as reports name
// them; dir is where ch is on disk ("" inside an archive) and name how
// reports name that place.
func (r *renderer) record(ch *chart.Chart, dir, name string) {
	for _, t := range ch.Templates {
		r.files[t] = path.Join(name, t.Name)
	}
	for _, sub := range ch.Dependencies() {
		subDir, subName := locateSubchart(dir, name, sub)
		r.record(sub, subDir, subName)
	}
}

// locateSubchart finds where a subchart of the chart in dir is: a
// directory under charts/ whose Chart.yaml names it, else an archive
// named NAME-VERSION.tgz, whose files are named inside it.
func locateSubchart(dir, name string, sub *chart.Chart) (string, string) {
	base := path.Join(name, "charts")
	if dir == "" {
		return "", path.Join(base, sub.Name())
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "charts"))
	for _, e := range entries {
		p := filepath.Join(dir, "charts", e.Name())
		if e.IsDir() {
			if meta, err := chartutil.LoadChartfile(filepath.Join(p, "Chart.yaml")); err == nil && meta.Name == sub.Name() {
				return p, path.Join(base, e.Name())
			}
		}
	}
	archive := sub.Name() + "-" + sub.Metadata.Version + ".tgz"
	for _, e := range entries {
		if e.Name() == archive {
			return "", path.Join(base, archive, sub.Name())
		}
	}
	return "", path.Join(base, sub.Name())
}

// errorf is an error about the chart as a whole, at its Chart.yaml.
func (r *renderer) errorf(format string, args ...any) error {
	return &manifest.Error{Pos: manifest.Pos{File: path.Join(r.name, "Chart.yaml")}, Message: fmt.Sprintf(format, args...)}
}

// helmLocation finds the template position Helm puts in its errors:
// "template: app/templates/x.yaml:12:3: ...", "execution error at
// (app/templates/x.yaml:12:3): ...", "parse error at (app/templates/x.yaml:5): ...".
// A traced execution error starts with the location alone:
// "app/templates/x.yaml:1:10\n  executing ...".
var helmLocation = regexp.MustCompile(`(?:(?:execution|parse) error at \(|template: |^)([^\s():]+/templates/[^\s():]+):(\d+)(?::(\d+))?(?:\): |: |\s*\n)?`)

// renderError is a failed render, at the template file and line Helm
// names, when it names one.
func (r *renderer) renderError(err error) error {
	var limit limitError
	if errors.As(err, &limit) {
		return r.errorf("%v", err)
	}
	msg := err.Error()
	m := helmLocation.FindStringSubmatchIndex(msg)
	if m == nil {
		return r.errorf("the chart does not render: %s", msg)
	}
	file := r.display(msg[m[2]:m[3]])
	line, _ := strconv.Atoi(msg[m[4]:m[5]])
	col := 0
	if m[6] >= 0 {
		col, _ = strconv.Atoi(msg[m[6]:m[7]])
	}
	text := msg
	if m[0] == 0 && (m[2] == 0 || strings.Contains(msg[:m[1]], "error at (")) {
		text = msg[m[1]:] // the location is the error's own: say it once
	}
	return &manifest.Error{Pos: manifest.Pos{File: file, Line: line, Column: col}, Message: "the chart does not render: " + r.displayAll(strings.TrimSpace(text))}
}

// displayAll names the templates a message of Helm's names as reports
// name them.
func (r *renderer) displayAll(msg string) string {
	return templateName.ReplaceAllStringFunc(msg, func(name string) string {
		if _, ok := r.names[name]; ok {
			return r.display(name)
		}
		return name
	})
}

// templateName finds what may be a template's name in a message.
var templateName = regexp.MustCompile(`[\w.-]+(?:/[\w.-]+)*/templates/[\w./-]+\b`)

// display is how reports name the template Helm names name.
func (r *renderer) display(name string) string {
	if t, ok := r.names[name]; ok {
		return r.files[t]
	}
	// Not a template Helm rendered (a template of tpl): the chart's
	// directory stands for the chart's name.
	_, rest, ok := strings.Cut(name, "/")
	if !ok {
		return r.name
	}
	return path.Join(r.name, rest)
}

// limitError is a render stopped by Timeout or MaxBytes.
type limitError struct{ msg string }

func (e limitError) Error() string { return e.msg }

// renderWithin runs Helm's engine on the chart, for at most Timeout. A
// template cannot be interrupted: a render past its time is left to
// finish on its own, and the run goes on without it.
func renderWithin(ctx context.Context, ch *chart.Chart, vals common.Values) (map[string]string, error) {
	type result struct {
		files map[string]string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("rendering panicked: %v", p)}
			}
		}()
		var e engine.Engine
		files, err := e.RenderWithContext(ctx, ch, vals)
		done <- result{files, err}
	}()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, res.err
		}
		size := 0
		for _, f := range res.files {
			size += len(f)
		}
		if size > MaxBytes {
			return nil, limitError{fmt.Sprintf("the chart renders %d MiB; dslint reads at most %d MiB of a chart's output", size>>20, MaxBytes>>20)}
		}
		return res.files, nil
	case <-timer.C:
		return nil, limitError{fmt.Sprintf("the chart took longer than %s to render; stopped (a template that loops without end?)", Timeout)}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// documents splits the rendered files into documents as `helm template`
// prints them: NOTES.txt and partials left out, the manifests in install
// order, then the hooks.
func (r *renderer) documents(ch *chart.Chart, files map[string]string) (*Render, error) {
	for name := range files {
		if strings.HasSuffix(name, "NOTES.txt") {
			delete(files, name)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, r.sortError(err)
	}
	out := &Render{Chart: r.name}
	for _, m := range manifests {
		out.Docs = append(out.Docs, r.doc(m.Name, m.Content, nil))
	}
	for _, h := range hooks {
		events := make([]string, len(h.Events))
		for i, e := range h.Events {
			events[i] = string(e)
		}
		out.Docs = append(out.Docs, r.doc(h.Path, h.Manifest, events))
	}
	return out, nil
}

// nameTemplates maps Helm's names of the templates of ch (its full path,
// the subcharts' aliases applied) to the templates.
func (r *renderer) nameTemplates(ch *chart.Chart) {
	for _, t := range ch.Templates {
		r.names[path.Join(ch.ChartFullPath(), t.Name)] = t
		for _, d := range defines.FindAllSubmatch(t.Data, -1) {
			r.defines[string(d[1])] = t
		}
	}
	for _, sub := range ch.Dependencies() {
		r.nameTemplates(sub)
	}
}

func (r *renderer) doc(name, content string, hook []string) Doc {
	d := Doc{Name: name, Template: r.display(name), Content: content, Hook: hook}
	if strings.Count(name, "/charts/") == 0 {
		d.values = r.values.lookup
	}
	if t, ok := r.names[name]; ok {
		d.Source = t.Data
		for _, inc := range includes.FindAllSubmatch(t.Data, -1) {
			p, ok := r.defines[string(inc[1])]
			if ok && p != t && !slices.ContainsFunc(d.Partials, func(q Partial) bool { return q.File == r.files[p] }) {
				d.Partials = append(d.Partials, Partial{File: r.files[p], Source: p.Data})
			}
		}
	}
	return d
}

// includes finds the named templates a template includes.
var includes = regexp.MustCompile(`\b(?:include|template)\s+"([^"]+)"`)

// defines finds the named templates a file defines.
var defines = regexp.MustCompile(`\{\{-?\s*define\s+"([^"]+)"`)

// Positions finds where the fields of the document were written.
func (d Doc) Positions() *Positions {
	m := NewPositions(d.Source, d.Content)
	for _, p := range d.Partials {
		m.withPartial(p.File, p.Source)
	}
	m.values = d.values
	return m
}

// sortYAMLError reads the template of a rendered document that does not
// parse: "YAML parse error on app/templates/x.yaml: ...".
var sortYAMLError = regexp.MustCompile(`^YAML parse error on ([^\s:]+): (.*)$`)

func (r *renderer) sortError(err error) error {
	msg := err.Error()
	if m := sortYAMLError.FindStringSubmatch(msg); m != nil {
		return &manifest.Error{Pos: manifest.Pos{File: r.display(m[1])}, Message: "the rendered template is not valid YAML: " + m[2]}
	}
	return r.errorf("the chart does not render: %s", msg)
}

// checkDependencies refuses a chart whose Chart.yaml names a dependency
// that charts/ does not hold, as helm template does, at the dependency's
// entry in Chart.yaml.
func checkDependencies(ch *chart.Chart, dir, name string) error {
	var missing []string
	for _, d := range ch.Metadata.Dependencies {
		if !slices.ContainsFunc(ch.Dependencies(), func(c *chart.Chart) bool { return c.Name() == d.Name }) {
			missing = append(missing, d.Name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	file := filepath.Join(dir, "Chart.yaml")
	pos := manifest.Pos{File: path.Join(name, "Chart.yaml")}
	if data, err := os.ReadFile(file); err == nil {
		f := manifest.Parse(pos.File, data)
		if len(f.Docs) > 0 && len(f.Docs[0].Content) > 0 {
			root := f.Docs[0].Content[0]
			if deps := manifest.Lookup(root, "dependencies"); deps != nil {
				for i, d := range deps.Content {
					if n := manifest.Lookup(d, "name"); n != nil && n.Value == missing[0] {
						p := manifest.Locate(root, []any{"dependencies", i})
						pos.Line, pos.Column = p.Line, p.Column
					}
				}
			}
		}
	}
	return &manifest.Error{Pos: pos, Message: fmt.Sprintf("dependency %s is in Chart.yaml but not in charts/: run helm dependency build %s",
		strings.Join(quoteAll(missing), ", "), name)}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// String is the render as `helm template` prints it.
func (r *Render) String() string {
	var manifests, hooks strings.Builder
	for _, d := range r.Docs {
		if d.Hook == nil {
			manifests.WriteString(d.String())
		} else {
			hooks.WriteString(d.String())
		}
	}
	return strings.TrimSpace(manifests.String()) + "\n" + hooks.String()
}

// CheckKubeVersion checks a --kube-version as Helm reads it.
func CheckKubeVersion(v string) error {
	_, err := common.ParseKubeVersion(v)
	return err
}

// CheckReleaseName checks a release name as helm template does.
func CheckReleaseName(name string) error {
	return chartutil.ValidateReleaseName(name)
}
