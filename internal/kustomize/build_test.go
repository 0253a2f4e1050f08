package kustomize

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// testdata is the repository's shared Kustomize tree.
const testdata = "../../testdata/kustomize"

// where is an object of a build: its rendered identity and where it points.
type where struct {
	kind, namespace, name string
	file                  string
	line, column          int
}

func whereOf(o Object) where {
	p := o.Origin.Locate(nil)
	return where{o.Kind, o.Namespace, o.Name, o.Origin.File, p.Line, p.Column}
}

// TestOverlayOrigins: every object of an overlay points at the document it
// was written in, by its kind line, under its rendered namespace and name;
// the generated ConfigMap points at its generator's entry.
func TestOverlayOrigins(t *testing.T) {
	dir := filepath.Join(testdata, "overlays", "prod-eu")
	b, err := Run(dir, filepath.ToSlash(dir))
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.ToSlash(filepath.Join(testdata, "base"))
	want := map[string]where{
		"ConfigMap":  {"ConfigMap", "shop", "", base + "/kustomization.yaml", 5, 5},
		"Deployment": {"Deployment", "shop", "prod-web-eu", base + "/workloads.yaml", 2, 1},
		"DaemonSet":  {"DaemonSet", "shop", "prod-agent-eu", base + "/workloads.yaml", 23, 1},
	}
	if len(b.Objects) != len(want) {
		t.Fatalf("%d objects, want %d", len(b.Objects), len(want))
	}
	for _, o := range b.Objects {
		got := whereOf(o)
		w := want[o.Kind]
		if o.Kind == "ConfigMap" {
			// The name ends in a hash of the content.
			if !strings.HasPrefix(got.name, "prod-web-settings-eu-") {
				t.Errorf("ConfigMap name %q, want prod-web-settings-eu-<hash>", got.name)
			}
			w.name = got.name
		}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", o.Kind, got, w)
		}
	}
	if b.Kustomization != filepath.ToSlash(dir)+"/kustomization.yaml" {
		t.Errorf("Kustomization = %q", b.Kustomization)
	}
}

// TestPatchedFieldsPointIntoTheSource: a field the source document has is
// found there; a field a patch added points at its nearest parent in the
// source document.
func TestPatchedFieldsPointIntoTheSource(t *testing.T) {
	dir := filepath.Join(testdata, "overlays", "prod")
	b, err := Run(dir, filepath.ToSlash(dir))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind string
		path []any
		line int
		col  int
	}{
		{"Deployment", []any{"spec", "template", "spec", "tolerations", 0, "value"}, 20, 11},
		{"DaemonSet", []any{"spec", "template", "spec", "tolerations", 0}, 37, 11},
		// nodeSelector comes from the patch: the template's spec: line.
		{"DaemonSet", []any{"spec", "template", "spec", "nodeSelector", "pool"}, 32, 5},
	}
	for _, c := range cases {
		o := objectOf(t, b, c.kind)
		if p := o.Origin.Locate(c.path); p.Line != c.line || p.Column != c.col {
			t.Errorf("%s %s at %d:%d, want %d:%d", c.kind, manifest.FormatPath(c.path), p.Line, p.Column, c.line, c.col)
		}
	}
	// The rules see the patched object.
	sel := manifest.Lookup(lookup(objectOf(t, b, "DaemonSet").Node, "spec", "template", "spec"), "nodeSelector")
	if sel == nil || manifest.Lookup(sel, "pool").Value != "-infra-" {
		t.Errorf("the DaemonSet misses the patched nodeSelector")
	}
}

func objectOf(t *testing.T, b *Build, kind string) Object {
	t.Helper()
	for _, o := range b.Objects {
		if o.Kind == kind {
			return o
		}
	}
	t.Fatalf("no %s in the build", kind)
	return Object{}
}

func lookup(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = manifest.Lookup(n, k)
	}
	return n
}

// TestObjectsAreWhatKustomizePrints: asking for origin annotations changes
// nothing the rules see; the objects are those of a plain build.
func TestObjectsAreWhatKustomizePrints(t *testing.T) {
	for _, dir := range []string{"base", "overlays/prod", "overlays/prod-eu"} {
		path := filepath.Join(testdata, dir)
		b, err := Run(path, dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range b.Objects {
			j, err := yaml.NewRNode(o.Node).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(j))
		}
		opts := krusty.MakeDefaultOptions()
		opts.Reorder = krusty.ReorderOptionUnspecified
		m, err := krusty.MakeKustomizer(opts).Run(filesys.MakeFsOnDisk(), path)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range m.Resources() {
			j, err := r.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, string(j))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the objects differ from kustomize build:\n%s\nwant:\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestUserOriginAnnotationsStay: when the kustomization asks for origin
// annotations itself, kustomize build prints them, and so they stay.
func TestUserOriginAnnotationsStay(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kustomization.yaml", "resources: [pod.yaml]\nbuildMetadata: [originAnnotations]\n")
	write(t, dir, "pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n")
	b, err := Run(dir, "app")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Objects) != 1 {
		t.Fatalf("%d objects", len(b.Objects))
	}
	anns := lookup(b.Objects[0].Node, "metadata", "annotations")
	if manifest.Lookup(anns, "config.kubernetes.io/origin") == nil {
		t.Errorf("the origin annotation the user asked for is gone")
	}
	if w := whereOf(b.Objects[0]); w.file != "app/pod.yaml" || w.line != 2 {
		t.Errorf("origin %+v, want app/pod.yaml line 2", w)
	}
}

// TestBuildWritesNothing: the user's kustomization is read, never changed.
func TestBuildWritesNothing(t *testing.T) {
	dir := t.TempDir()
	const k = "# keep me\nresources:\n  - pod.yaml\n"
	write(t, dir, "kustomization.yaml", k)
	write(t, dir, "pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n")
	if _, err := Run(dir, "app"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != k {
		t.Errorf("kustomization.yaml changed:\n%s", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the build left files behind: %v", entries)
	}
}

// TestMatchByName: documents of one kind are told apart by name, prefixes
// and suffixes notwithstanding, whatever the order of the build: "x-a-web"
// (built first, as kustomize sorts by name) comes from "a-web", not from
// "web", which its name also contains.
func TestMatchByName(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kustomization.yaml", "namePrefix: x-\nresources: [pods.yaml]\n")
	write(t, dir, "pods.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: a-web}\n")
	b, err := Run(dir, "app")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, o := range b.Objects {
		lines[o.Name] = o.Origin.Locate(nil).Line
	}
	if lines["x-web"] != 2 || lines["x-a-web"] != 6 {
		t.Errorf("kind lines %v, want x-web on 2 and x-a-web on 6", lines)
	}
}

// TestBuildErrors name the kustomization file, and the line where dslint
// can tell it; nothing remote is fetched.
func TestBuildErrors(t *testing.T) {
	cases := []struct {
		kustomization string
		want          string
	}{
		{"resources:\n  - ../base\n  - https://example.com/app.yaml\n", "app/kustomization.yaml:3:5: resources entry \"https://example.com/app.yaml\" is remote"},
		{"resources:\n  - github.com/example/deploy//base?ref=v1\n", "app/kustomization.yaml:2:5: resources entry \"github.com/example/deploy//base?ref=v1\" is remote"},
		{"resources:\n  - git@github.com:example/deploy.git\n", "app/kustomization.yaml:2:5: resources entry \"git@github.com:example/deploy.git\" is remote"},
		{"configMapGenerator:\n  - name: c\n    files: [conf=https://example.com/c.conf]\n", "app/kustomization.yaml:3:13: files entry \"https://example.com/c.conf\" is remote"},
		{"resources:\n  - missing.yaml\n", "app/kustomization.yaml:2:5: resources entry \"missing.yaml\" does not exist"},
		{"resources: [\n", "app/kustomization.yaml:1:"},
		{"resources:\n  - ../base\n  - ../base\n", "app/kustomization.yaml: kustomize build failed: "},
		{"resources: [../base]\nhelmCharts:\n  - name: c\n    repo: https://example.com/charts\n", "app/kustomization.yaml:2:1: helmCharts need helm"},
	}
	for _, c := range cases {
		root := t.TempDir()
		write(t, root, "base/kustomization.yaml", "resources: [pod.yaml]\n")
		write(t, root, "base/pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
		write(t, root, "app/kustomization.yaml", c.kustomization)
		_, err := Run(filepath.Join(root, "app"), "app")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to start with %q", c.kustomization, err, c.want)
		}
	}
}

// TestRemoteInBase: a remote reference in a base is found before the build.
func TestRemoteInBase(t *testing.T) {
	root := t.TempDir()
	write(t, root, "base/kustomization.yaml", "resources:\n  - https://example.com/app.yaml\n")
	write(t, root, "app/kustomization.yaml", "resources: [../base]\n")
	_, err := Run(filepath.Join(root, "app"), "app")
	if err == nil || !strings.HasPrefix(err.Error(), "base/kustomization.yaml:2:5: resources entry") {
		t.Errorf("error %v, want one at base/kustomization.yaml:2:5", err)
	}
}

func TestFetched(t *testing.T) {
	for ref, want := range map[string]bool{
		"https://example.com/x.yaml":              true,
		"HTTP://example.com/x.yaml":               true,
		"github.com/org/repo//base?ref=v1":        true,
		"git::https://example.com/org/repo":       true,
		"ssh://git@example.com/org/repo":          true,
		"git@gitlab.com:org/repo.git":             true,
		"../base":                                 false,
		"deployment.yaml":                         false,
		"example.com/org/repo":                    false,
		"dir/with@sign/x.yaml":                    false,
		"apiVersion: builtin\nkind: X\nname: a@b": false,
	} {
		if got := fetched(ref, true); got != want {
			t.Errorf("fetched(%q) = %v, want %v", ref, got, want)
		}
	}
	if fetched("github.com/org/repo/x.yaml", false) {
		t.Errorf("a file reference is fetched only by http(s)")
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
