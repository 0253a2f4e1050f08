package lint

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/dslint/dslint/internal/fixture"
	"github.com/dslint/dslint/internal/manifest"
)

// TestPanicCostsOneObject: a panic while the rules judge one object (a bug)
// is an internal error of that object, without a stack trace, and every
// other object of the file and of the run is still judged.
func TestPanicCostsOneObject(t *testing.T) {
	beforeCheck = func(o manifest.Object) {
		if o.Name == "boom" {
			panic("injected failure")
		}
	}
	t.Cleanup(func() { beforeCheck = nil })
	dir := t.TempDir()
	pod := func(name string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations: [{operator: Exists}]\n"
	}
	first := filepath.Join(dir, "first.yaml")
	second := filepath.Join(dir, "second.yaml")
	for path, data := range map[string]string{
		first:  pod("before") + "---\n" + pod("boom") + "---\n" + pod("after"),
		second: pod("other"),
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srcs := []manifest.Source{{Path: first, Name: "first.yaml"}, {Path: second, Name: "second.yaml"}}
	res, problems := Run(context.Background(), srcs, nil, Options{Rules: newRules(t)})
	if len(problems.Internal) != 1 || len(problems.Unreadable) != 0 {
		t.Fatalf("problems %v, want one internal error", problems.Err())
	}
	msg := problems.Internal[0].Error()
	if msg != `first.yaml:9: internal error checking Pod "boom": injected failure` {
		t.Errorf("internal error %q", msg)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.File+":"+f.Object.Name+":"+f.Rule)
	}
	want := "first.yaml:before:wildcard-toleration first.yaml:after:wildcard-toleration second.yaml:other:wildcard-toleration"
	if strings.Join(got, " ") != want {
		t.Errorf("findings %v, want %s", got, want)
	}
}

// TestObjectsOfOneFileInParallel: the objects of a file with many are
// judged in parallel, with the outcome of judging them one by one, in the
// same order; a panic on one of them still costs that object alone.
func TestObjectsOfOneFileInParallel(t *testing.T) {
	beforeCheck = func(o manifest.Object) {
		if o.Name == "p37" {
			panic("injected failure")
		}
	}
	t.Cleanup(func() { beforeCheck = nil })
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: p%d}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: i}]\n      tolerations: [{operator: Exists, value: v%d}]\n      nodeSelector: {pool: p%d}\n", i, i, i%3)
	}
	path := filepath.Join(t.TempDir(), "many.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := newRules(t)
	var outcomes []string
	for _, workers := range []int{1, 4} {
		res, problems := Run(context.Background(), []manifest.Source{{Path: path, Name: "many.yaml"}}, nil, Options{Rules: rules, Workers: workers})
		if len(problems.Internal) != 1 || problems.Internal[0].Error() != `many.yaml:373: internal error checking DaemonSet "p37": injected failure` {
			t.Fatalf("%d workers: problems %v, want one internal error for p37", workers, problems.Err())
		}
		var got strings.Builder
		for _, f := range res.Findings {
			fmt.Fprintf(&got, "%s:%d:%d %s %s\n", f.File, f.Line, f.Column, f.Object.Name, f.Rule)
		}
		if strings.Count(got.String(), "invalid-toleration") != 99 {
			t.Fatalf("%d workers: findings\n%s", workers, got.String())
		}
		outcomes = append(outcomes, fmt.Sprintf("%+v\n%s", res.Summary, got.String()))
	}
	if outcomes[0] != outcomes[1] {
		t.Errorf("one by one:\n%s\nin parallel:\n%s", outcomes[0], outcomes[1])
	}
}

// pipelineSeeds are the inputs FuzzPipeline starts from besides the
// fixtures: the shapes of hostile input, small.
var pipelineSeeds = []string{
	"a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: {<<: *c}\n",
	"apiVersion: v1\nkind: Pod\nmetadata: &m {name: p}\nspec: {x: *m, tolerations: [&t {operator: Exists}, *t]}\n",
	"a: &x [*x]\n",
	"apiVersion: v1\nkind: Pod\nspec: " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n",
	strings.Repeat("- ", 300) + "x\n",
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n",
	"\x7fELF\x02\x01\x01\x00{{\x00\x00",
	"---\n[\n---\napiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod, metadata: {name: a}}]\n",
	"# Source: chart/templates/ds.yaml\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\n",
	"apiVersion: v1\nkind: Node\nmetadata: {name: n, labels: {a: b}}\nspec: {taints: [{key: k, effect: NoSchedule}]}\n",
	"\xef\xbb\xbf{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}",
	// UTF-16LE: "kind: Pod\r\nspec: {tolerations: [{operator: Exists}]} # dslint:ignore x"
	"\xff\xfek\x00i\x00n\x00d\x00:\x00 \x00P\x00o\x00d\x00\r\x00\n\x00s\x00p\x00e\x00c\x00:\x00 \x00{\x00t\x00o\x00l\x00e\x00r\x00a\x00t\x00i\x00o\x00n\x00s\x00:\x00 \x00[\x00{\x00o\x00p\x00e\x00r\x00a\x00t\x00o\x00r\x00:\x00 \x00E\x00x\x00i\x00s\x00t\x00s\x00}\x00]\x00}\x00 \x00#\x00 \x00d\x00s\x00l\x00i\x00n\x00t\x00:\x00i\x00g\x00n\x00o\x00r\x00e\x00 \x00x\x00",
	"",
}

// FuzzPipeline runs the whole lint on arbitrary bytes read from stdin: it
// must never panic nor fail inside, and every finding must be of a known
// rule at a real position.
func FuzzPipeline(f *testing.F) {
	files, err := fixture.Find(fixturesDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range pipelineSeeds {
		f.Add([]byte(s))
	}
	rules := newRules(f)
	known := map[string]bool{}
	for _, r := range rules.Rules() {
		known[r.ID] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := []manifest.Source{{Path: manifest.Stdin, Name: "<stdin>"}}
		res, problems := Run(context.Background(), src, bytes.NewReader(data), Options{Rules: rules})
		if len(problems.Internal) > 0 || len(problems.Unreadable) > 0 {
			t.Fatalf("%v", problems.Err())
		}
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Column < 1 || !known[fd.Rule] || fd.File == "" {
				t.Fatalf("finding %+v: want a known rule at a position", fd)
			}
		}
	})
}

// TestParseErrorDocNamesTheLimits: dslint explain parse-error states the
// limits of package manifest as they are.
func TestParseErrorDocNamesTheLimits(t *testing.T) {
	r, ok := newRules(t).Rule("parse-error")
	if !ok {
		t.Fatal("no parse-error rule")
	}
	desc := strings.Join(strings.Fields(r.Description), " ")
	for _, want := range []string{
		fmt.Sprintf("more than %d,%03d,%03d YAML nodes", manifest.MaxDocumentNodes/1_000_000, manifest.MaxDocumentNodes/1000%1000, manifest.MaxDocumentNodes%1000),
		fmt.Sprintf("more than %d,%03d levels", manifest.MaxDepth/1000, manifest.MaxDepth%1000),
		fmt.Sprintf("more than %d,%03d,%03d nodes", manifest.MaxAliasNodes/1_000_000, manifest.MaxAliasNodes/1000%1000, manifest.MaxAliasNodes%1000),
		fmt.Sprintf("After %d such documents", manifest.MaxSyntaxErrors),
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("rules/parse-error.rego: the description does not say %q", want)
		}
	}
}

// TestLargeFileInParts: a file larger than a part is judged a part at a
// time, with file-wide positions, and a dslint:ignore comment in a later
// part still suppresses the finding on its line.
func TestLargeFileInParts(t *testing.T) {
	var b strings.Builder
	value := strings.Repeat("    0123456789abcdef0123456789abcdef0123456789abcdef0123456789a\n", 2000)
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\ndata:\n  big: |\n%s", i, value)
	}
	before := strings.Count(b.String(), "\n")
	b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations:\n    - operator: Exists # dslint:ignore wildcard-toleration tolerated on purpose\n    - {key: a, operator: Exists}\n")
	path := filepath.Join(t.TempDir(), "large.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := lintFile(t, newRules(t), path)
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%d:%d %s %v", f.Line-before, f.Column, f.Rule, f.Suppressed))
	}
	if want := "8:7 wildcard-toleration true"; len(got) == 0 || got[0] != want {
		t.Errorf("findings (lines after the ConfigMaps) %v, want %s first", got, want)
	}
	if res.Summary.Objects < 25 {
		t.Errorf("%d objects, want every ConfigMap", res.Summary.Objects)
	}
}

// TestStreamedFile: a file of many documents larger than dslint reads
// whole is linted a document at a time, with file-wide positions; a
// dslint:ignore comment in its 40,000th document still suppresses the
// finding on its line, and on stdin a "# Source:" comment still names the
// Helm template the document was rendered from.
func TestStreamedFile(t *testing.T) {
	var b strings.Builder
	pad := "# " + strings.Repeat("padding ", 110) + "\n"
	for i := 1; i < 40_000; i++ {
		b.WriteString("---\n")
		if i%100 == 0 {
			fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\n", i)
			continue
		}
		b.WriteString(pad)
	}
	podLine := strings.Count(b.String(), "\n") + 3 // after "---" and "# Source:"
	b.WriteString("---\n# Source: chart/templates/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations:\n" +
		"    - operator: Exists # dslint:ignore wildcard-toleration tolerated on purpose\n" +
		"    - {key: a, operator: Exists, value: v}\n")
	for range 50 {
		b.WriteString("---\n" + pad)
	}
	text := b.String()
	if len(text) <= manifest.MaxFileBytes {
		t.Fatalf("%d bytes: not more than dslint reads whole", len(text))
	}
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := newRules(t)
	for _, src := range []manifest.Source{{Path: path, Name: "big.yaml"}, {Path: manifest.Stdin, Name: "<stdin>"}} {
		res, problems := Run(context.Background(), []manifest.Source{src}, strings.NewReader(text), Options{Rules: rules})
		if err := problems.Err(); err != nil {
			t.Fatalf("%s: %v", src.Name, err)
		}
		file, line := src.Name, podLine+6
		if src.Path == manifest.Stdin {
			file, line = "chart/templates/pod.yaml", 7 // numbered from the line after the comment
		}
		var got []string
		for _, f := range res.Findings {
			got = append(got, fmt.Sprintf("%s:%d:%d %s suppressed=%v", f.File, f.Line, f.Column, f.Rule, f.Suppressed))
		}
		want := []string{
			fmt.Sprintf("%s:%d:7 wildcard-toleration suppressed=true", file, line),
			fmt.Sprintf("%s:%d:34 invalid-toleration suppressed=false", file, line+1),
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: findings %q, want %q", src.Name, got, want)
		}
		if res.Summary.Objects != 400 {
			t.Errorf("%s: %d objects, want every ConfigMap and the Pod", src.Name, res.Summary.Objects)
		}
	}
}

// TestUTF16Files: a file saved as UTF-16 with a byte order mark (Windows
// PowerShell's > writes UTF-16LE with CRLF) is linted like its UTF-8 text:
// same findings at the same lines, comments read, documents split. UTF-16
// that does not decode is a parse error, not a decoding of all of it.
func TestUTF16Files(t *testing.T) {
	text := "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: c}\r\n---\r\n" +
		"apiVersion: v1\r\nkind: Pod\r\nmetadata: {name: p}\r\nspec:\r\n  containers: [{name: c, image: i}]\r\n  tolerations:\r\n" +
		"    # dslint:ignore wildcard-toleration the log agent runs everywhere\r\n" +
		"    - operator: Exists\r\n    - {key: gpu, operator: Exists, value: \"yes\"}\r\n"
	rules := newRules(t)
	lint := func(data []byte) string {
		path := filepath.Join(t.TempDir(), "nodes.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res := lintFile(t, rules, path)
		got := fmt.Sprintf("%d objects:", res.Summary.Objects)
		for _, f := range res.Findings {
			got += fmt.Sprintf(" %d:%d %s %v;", f.Line, f.Column, f.Rule, f.Suppressed)
		}
		return got
	}
	want := lint([]byte(text))
	if !strings.Contains(want, "2 objects: 12:7 wildcard-toleration true; 13:36 invalid-toleration false;") {
		t.Fatalf("the UTF-8 text gives %s", want)
	}
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		var data []byte
		for _, u := range append([]uint16{0xFEFF}, utf16.Encode([]rune(text))...) {
			data = order.AppendUint16(data, u)
		}
		if got := lint(data); got != want {
			t.Errorf("UTF-16 %v: %s, want %s", order, got, want)
		}
	}
	// "a:\nb: " and then: one byte; a high surrogate at the end; a low
	// surrogate before "c". Then "a\u2028b: " and one byte: U+2028 breaks
	// lines in YAML.
	for _, data := range []string{
		"\xff\xfea\x00:\x00\n\x00b\x00:\x00 \x00c",
		"\xff\xfea\x00\x28\x20b\x00:\x00 \x00c",
		"\xff\xfea\x00:\x00\n\x00b\x00:\x00 \x00\x00\xd8",
		"\xfe\xff\x00a\x00:\x00\n\x00b\x00:\x00 \xdc\x00\x00c",
	} {
		if got := lint([]byte(data)); got != "0 objects: 2:4 parse-error false;" {
			t.Errorf("%q: %s, want a parse error at 2:4", data, got)
		}
	}
}

// TestLargeList: a List of more than a part's size (kubectl get … -o yaml of
// a cluster) is linted a group of items at a time, each finding at its line,
// with the suppression comments of its items; a List whose last item
// aliases the first cannot be cut, and is linted whole, each finding once.
func TestLargeList(t *testing.T) {
	const n = 3000 // some 1.6 MB: two parts
	pad := strings.Repeat("x", 300)
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	line := 3
	for i := range n {
		anchor, comment := "", ""
		switch i {
		case 0:
			anchor = "&first "
		case 100:
			comment = " # dslint:ignore invalid-toleration it never runs"
		}
		fmt.Fprintf(&b, "- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: d%d, annotations: {pad: %s}}\n  spec:\n    template:\n      spec:\n        tolerations: [%s{operator: Exists, value: v%d}]%s\n        containers: [{name: c, image: registry.example/c:1.0}]\n", i, pad, anchor, i, comment)
		line += 8
	}
	b.WriteString("kind: List\nmetadata: {resourceVersion: \"\"}\n")
	text := b.String()
	dir := t.TempDir()
	rules := newRules(t)
	for name, data := range map[string]string{
		"parts.yaml": text,
		"whole.yaml": strings.Replace(text, "[{operator: Exists, value: v2999}]", "[*first]", 1),
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		res, problems := Run(context.Background(), []manifest.Source{{Path: path, Name: name}}, nil, Options{Rules: rules})
		if err := problems.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		at := map[string]int{}
		for _, f := range res.Findings {
			if f.Rule == "invalid-toleration" {
				at[fmt.Sprintf("%s:%d:%d %s suppressed=%v", f.File, f.Line, f.Column, f.Object.Name, f.Suppressed)]++
			}
		}
		if len(at) != n {
			t.Errorf("%s: %d invalid-toleration findings, want %d", name, len(at), n)
		}
		for _, want := range []string{
			name + ":9:49 d0 suppressed=false",
			name + ":809:42 d100 suppressed=true",
			fmt.Sprintf("%s:%d:42 d2998 suppressed=false", name, line-10),
		} {
			if at[want] != 1 {
				t.Errorf("%s: %q found %d times", name, want, at[want])
			}
		}
	}
}

// TestValuesQuotedAsWritten: a YAML 1.1 boolean or a number where a string
// belongs is quoted in the message as the user wrote it (yes, On, 0x10), not
// as YAML read it (true, 16).
func TestValuesQuotedAsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pod.yaml")
	src := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n  nodeSelector: {gpu: yes, ssd: On, cores: 0x10}\n  tolerations: [{key: a, operator: Equal, value: off, effect: NoSchedule}]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range lintFile(t, newRules(t), path).Findings {
		got = append(got, f.Message)
	}
	for _, want := range []string{
		`nodeSelector value yes of "gpu" is not a string (YAML reads it as the boolean true); quote it ("yes")`,
		`nodeSelector value On of "ssd" is not a string (YAML reads it as the boolean true); quote it ("On")`,
		`nodeSelector value 0x10 of "cores" is not a string (YAML reads it as the number 16); quote it ("0x10")`,
		`toleration value off is not a string (YAML reads it as the boolean false); quote it ("off")`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no finding %q in %q", want, got)
		}
	}
}
