// Command hostile runs dslint on hostile inputs at full size (make hostile):
//
//	go run ./tools/hostile [-timeout 2m] [-keep] [-run REGEX]
//
// It builds cmd/dslint, generates each input in a temporary directory (some
// 700 MB of disk at most: a 200 MB file, 100,000 small files), runs dslint
// on it and prints the time, the peak memory, the exit code and the first
// line dslint printed. Every input must end by itself with exit 1 (a
// finding: a parse-error, or the finding the input carries on purpose) or 2
// (an input dslint will not read); the command fails otherwise. The go tests check the same inputs at small sizes; times
// are printed, never asserted.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// input is one hostile input: make writes it under dir and returns the
// arguments of the dslint run and the file its stdin reads ("" for none).
type input struct {
	name string
	make func(dir string) (args []string, stdin string, err error)
	// nobody runs dslint as user nobody when this runs as root, so that
	// file permissions hold.
	nobody bool
}

const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations: [{operator: Exists}]\n"

var inputs = []input{
	{name: "alias bomb (9 levels of 9 aliases)", make: file("bomb.yaml", aliasBomb)},
	{name: "alias bomb in a kustomization", make: kustomizedBomb},
	{name: "nested 20,000 deep (flow)", make: file("deep.yaml", func(w *writer) { w.WriteString(strings.Repeat("[", 20_000) + "\n") })},
	{name: "nested 20,000 deep (block)", make: file("deep.yaml", func(w *writer) { w.WriteString(strings.Repeat("- ", 20_000) + "x\n") })},
	{name: "binary, 1 MiB named .yaml", make: file("binary.yaml", randomBytes(1<<20))},
	{name: "invalid UTF-8", make: file("latin1.yaml", func(w *writer) { w.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n") })},
	// Beyond the 32 MiB read whole, a stream of documents is linted a
	// document at a time (it was refused before dslint streamed). Its
	// documents are large ConfigMaps, so that the time is the reading's:
	// make bench times 50,000 workloads in one file.
	{name: "200 MB of documents (linted a document at a time)", make: file("big.yaml", configMaps(200_000_000))},
	{name: "a 40 MB document after 10 MB of documents", make: file("big.yaml", func(w *writer) {
		documents(10_000_000)(w)
		w.WriteString("---\ndata:\n  a: |\n")
		for w.Len() < 50_000_000 {
			w.WriteString("    0123456789abcdef0123456789abcdef0123456789abcdef\n")
		}
		fmt.Fprintf(w, "---\n"+pod, 1)
	})},
	{name: "30 MB of documents (linted in parts)", make: file("big.yaml", documents(30_000_000))},
	{name: "a 15 MB List (linted a group of items at a time)", make: file("list.yaml", list(15_000_000, false))},
	{name: "one 15 MB document (a List in flow style)", make: file("list.yaml", list(15_000_000, true))},
	{name: "densest document within the limit ({a,a,…}, 2.4M nodes)", make: file("dense.yaml", dense(1_200_000))},
	{name: "a dense 16 MB document (8M nodes)", make: file("dense.yaml", dense(8_000_000))},
	{name: "2,000,000 broken documents", make: file("broken.yaml", func(w *writer) {
		for range 2_000_000 {
			w.WriteString("---\n[\n")
		}
	})},
	{name: "symbolic link loops", make: linkLoops},
	{name: "unreadable file and directory", make: unreadable, nobody: true},
	{name: "100,000 small files", make: manyFiles},
	{name: "named pipe and /dev/zero in a directory", make: specialFiles},
	{name: "/dev/zero on stdin", make: func(string) ([]string, string, error) { return []string{"-"}, "/dev/zero", nil }},
	{name: "--nodes: /dev/zero on stdin", make: nodes("-", "/dev/zero", nil)},
	{name: "--nodes: a 128 MiB List of 33 million one-line items", make: nodes("nodes.yaml", "", func(w *writer) {
		w.WriteString("apiVersion: v1\nkind: List\nitems:\n")
		for w.Len() < 128<<20-4 {
			w.WriteString("- a\n")
		}
	})},
	{name: "--nodes: a 40 MB List, one item 30 MB of it", make: nodes("nodes.yaml", "", func(w *writer) {
		w.WriteString("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n}\n  status:\n    images:\n")
		for w.Len() < 30_000_000 {
			w.WriteString("    - names: [registry.example/image@sha256:0123456789abcdef]\n")
		}
		for w.Len() < 40_000_000 {
			w.WriteString("- {apiVersion: v1, kind: Node, metadata: {name: m}}\n")
		}
	})},
}

// nodes writes a Pod to lint and, unless write is nil, a --nodes file name
// (stdin: the file dslint's stdin reads).
func nodes(name, stdin string, write func(*writer)) func(string) ([]string, string, error) {
	return func(dir string) ([]string, string, error) {
		if err := os.WriteFile(filepath.Join(dir, "pod.yaml"), fmt.Appendf(nil, pod, 0), 0o644); err != nil {
			return nil, "", err
		}
		args := []string{"--nodes", name, "pod.yaml"}
		if write == nil {
			return args, stdin, nil
		}
		return args, stdin, writeFile(filepath.Join(dir, name), write)
	}
}

func main() {
	timeout := flag.Duration("timeout", 2*time.Minute, "kill a dslint run after this long (a failure)")
	keep := flag.Bool("keep", false, "keep the generated inputs")
	only := flag.String("run", "", "run only the inputs whose name matches `REGEX`")
	flag.Parse()
	match, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile: -run:", err)
		os.Exit(2)
	}
	if err := run(*timeout, *keep, match); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

func run(timeout time.Duration, keep bool, match *regexp.Regexp) error {
	root, err := os.MkdirTemp("", "dslint-hostile-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("inputs in", root)
	} else {
		defer os.RemoveAll(root)
	}
	if err := os.Chmod(root, 0o755); err != nil { // for runs as nobody
		return err
	}
	bin := filepath.Join(root, "dslint")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/dslint").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	fmt.Println("| input | time | peak memory | exit | dslint says |")
	fmt.Println("|---|---:|---:|---:|---|")
	failed := 0
	for i, in := range inputs {
		if !match.MatchString(in.name) {
			continue
		}
		dir := filepath.Join(root, fmt.Sprint(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		args, stdin, err := in.make(dir)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		r := runDslint(bin, dir, args, stdin, in.nobody, timeout)
		fmt.Printf("| %s | %.2f s | %d MiB | %s | %s |\n", in.name, r.wall.Seconds(), r.peakKiB>>10, r.exit, r.said)
		if r.exit != "1" && r.exit != "2" {
			failed++
		}
		if !keep {
			os.RemoveAll(dir)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d inputs did not end with exit 1 or 2", failed)
	}
	return nil
}

type outcome struct {
	wall    time.Duration
	peakKiB int64
	exit    string // the exit code, or how the run ended otherwise
	said    string // the first line of stderr, else of stdout
}

func runDslint(bin, dir string, args []string, stdin string, nobody bool, timeout time.Duration) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-q"}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return outcome{exit: "setup failed", said: err.Error()}
		}
		defer f.Close()
		cmd.Stdin = f
	}
	if nobody && os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	start := time.Now()
	err := cmd.Run()
	o := outcome{wall: time.Since(start), exit: "0", said: firstLine(stderr.String(), stdout.String())}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		o.peakKiB = ru.Maxrss
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.exit = "killed after " + timeout.String()
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		o.exit = fmt.Sprint(exit.ExitCode())
	case err != nil:
		o.exit = err.Error()
	}
	return o
}

func firstLine(outs ...string) string {
	for _, s := range outs {
		if s = strings.TrimSpace(s); s != "" {
			line, _, _ := strings.Cut(s, "\n")
			if len(line) > 160 {
				line = line[:160] + "…"
			}
			return strings.ReplaceAll(line, "|", `\|`)
		}
	}
	return ""
}

// file is an input of one file, written by write.
func file(name string, write func(*writer)) func(string) ([]string, string, error) {
	return func(dir string) ([]string, string, error) {
		return []string{name}, "", writeFile(filepath.Join(dir, name), write)
	}
}

func writeFile(path string, write func(*writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	c := &counting{w: f}
	w := &writer{bufio.NewWriterSize(c, 1<<20), c}
	write(w)
	return errors.Join(w.Flush(), f.Close())
}

// writer is a buffered writer that knows how much it has written.
type writer struct {
	*bufio.Writer
	c *counting
}

func (w *writer) Len() int { return w.c.n + w.Buffered() }

type counting struct {
	w io.Writer
	n int
}

func (c *counting) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

func aliasBomb(w *writer) {
	w.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(w, "  l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 9), ", "))
	}
}

func kustomizedBomb(dir string) ([]string, string, error) {
	err := errors.Join(
		writeFile(filepath.Join(dir, "bomb.yaml"), aliasBomb),
		os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: [bomb.yaml]\n"), 0o644),
	)
	return []string{"."}, "", err
}

func randomBytes(n int) func(*writer) {
	return func(w *writer) {
		r := rand.New(rand.NewPCG(1, 2))
		for range n {
			w.WriteByte(byte(r.UintN(256)))
		}
	}
}

// deployment is a workload of some 700 bytes, as the bench's corpus.
const deployment = `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%d, namespace: prod, labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {pool: web}
      tolerations:
        - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
      containers:
        - name: web
          image: nginx:1.27
          ports: [{containerPort: 80}]
          resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {cpu: 500m, memory: 256Mi}}
          env: [{name: A, value: "1"}, {name: B, value: "2"}]
`

// documents writes deployments up to size bytes, and one with a finding.
func documents(size int) func(*writer) {
	return func(w *writer) {
		for i := 0; w.Len() < size; i++ {
			fmt.Fprintf(w, deployment, i)
		}
		fmt.Fprintf(w, "---\n"+pod, 0)
	}
}

// configMaps writes ConfigMaps of some 20 KB (a script each) up to size
// bytes, and a Pod with a finding.
func configMaps(size int) func(*writer) {
	script := strings.Repeat("    echo 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", 250)
	return func(w *writer) {
		for i := 0; w.Len() < size; i++ {
			fmt.Fprintf(w, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: scripts-%d, namespace: prod}\ndata:\n  run.sh: |\n%s", i, script)
		}
		fmt.Fprintf(w, "---\n"+pod, 0)
	}
}

// list writes one List document of size bytes, in block style or in flow
// style (as JSON is), and a Pod with a finding.
func list(size int, flow bool) func(*writer) {
	return func(w *writer) {
		if flow {
			w.WriteString("{apiVersion: v1, kind: List, items: [\n")
			for i := 0; w.Len() < size; i++ {
				fmt.Fprintf(w, "  {apiVersion: v1, kind: ConfigMap, metadata: {name: c%d, namespace: prod, labels: {app: web}}, data: {a: \"1\"}},\n", i)
			}
			w.WriteString("  {apiVersion: v1, kind: Pod, metadata: {name: p0}, spec: {containers: [{name: c, image: i}], tolerations: [{operator: Exists}]}}]}\n")
			return
		}
		w.WriteString("apiVersion: v1\nkind: List\nitems:\n")
		for i := 0; w.Len() < size; i++ {
			fmt.Fprintf(w, "  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: c%d\n      namespace: prod\n      labels:\n        app: web\n    data:\n      a: \"1\"\n", i)
		}
		fmt.Fprintf(w, "  - "+strings.ReplaceAll(strings.TrimSuffix(pod, "\n"), "\n", "\n    ")+"\n", 0)
	}
}

// dense writes a document of a flow mapping of n keys, a node every byte,
// and a Pod with a finding.
func dense(n int) func(*writer) {
	return func(w *writer) {
		w.WriteString("x: {")
		for range n {
			w.WriteString("a,")
		}
		w.WriteString("a}\n---\n")
		fmt.Fprintf(w, pod, 0)
	}
}

func linkLoops(dir string) ([]string, string, error) {
	err := errors.Join(
		os.MkdirAll(filepath.Join(dir, "a/b"), 0o755),
		os.WriteFile(filepath.Join(dir, "a/pod.yaml"), fmt.Appendf(nil, pod, 0), 0o644),
		os.Symlink("../..", filepath.Join(dir, "a/b/up")),
		os.Symlink(".", filepath.Join(dir, "a/self")),
		os.Symlink("../a", filepath.Join(dir, "a/b/again")),
		os.Symlink("pod.yaml", filepath.Join(dir, "a/same.yaml")),
		os.Symlink("loop.yaml", filepath.Join(dir, "a/loop.yaml")),
	)
	return []string{"a"}, "", err
}

func unreadable(dir string) ([]string, string, error) {
	err := errors.Join(
		os.MkdirAll(filepath.Join(dir, "tree/locked"), 0o755),
		os.WriteFile(filepath.Join(dir, "tree/pod.yaml"), fmt.Appendf(nil, pod, 0), 0o644),
		os.WriteFile(filepath.Join(dir, "tree/locked/pod.yaml"), fmt.Appendf(nil, pod, 1), 0o644),
		os.WriteFile(filepath.Join(dir, "secret.yaml"), fmt.Appendf(nil, pod, 2), 0o600),
	)
	if err != nil {
		return nil, "", err
	}
	if err := errors.Join(os.Chmod(filepath.Join(dir, "tree/locked"), 0), os.Chmod(filepath.Join(dir, "secret.yaml"), 0)); err != nil {
		return nil, "", err
	}
	return []string{"secret.yaml", "tree"}, "", nil
}

func manyFiles(dir string) ([]string, string, error) {
	for i := range 100_000 {
		sub := filepath.Join(dir, "many", fmt.Sprintf("d%03d", i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return nil, "", err
			}
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%06d.yaml", i)), fmt.Appendf(nil, pod, i), 0o644); err != nil {
			return nil, "", err
		}
	}
	return []string{"many"}, "", nil
}

func specialFiles(dir string) ([]string, string, error) {
	err := errors.Join(
		syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644),
		os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")),
		os.WriteFile(filepath.Join(dir, "pod.yaml"), fmt.Appendf(nil, pod, 0), 0o644),
	)
	return []string{"."}, "", err
}
