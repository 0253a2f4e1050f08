package helm

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedCharts is the directory of real public charts beside the project
// (../shared/charts), with a README listing `helm template` commands.
func sharedCharts(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "charts")
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Skipf("the real charts (%s) are not beside the project: %v", dir, err)
	}
	return dir
}

// readmeCommand is one `helm template` command of the charts' README.
type readmeCommand struct {
	line    string
	chart   string
	opts    Options
	objects int // the count the comment above it gives; 0 when none
}

// readmeCommands reads the `helm template` commands of the charts' README
// with the object count of the comment above each.
func readmeCommands(t *testing.T, dir string) []readmeCommand {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []readmeCommand
	count := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "# "); ok {
			count = 0
			if n, rest, ok := strings.Cut(c, " objects"); ok {
				_ = rest
				fields := strings.Fields(n)
				if len(fields) > 0 {
					count = atoi(fields[len(fields)-1])
				}
			}
			continue
		}
		if !strings.HasPrefix(line, "helm template ") {
			continue
		}
		words := shellWords(t, line)
		cmd := readmeCommand{line: line, objects: count}
		var skip bool
		args := words[2:]
		for i := 0; i < len(args); i++ {
			a := args[i]
			next := func() string { i++; return args[i] }
			switch a {
			case "--namespace":
				cmd.opts.Namespace = next()
			case "--kube-version":
				cmd.opts.KubeVersion = next()
			case "--set":
				cmd.opts.Set = append(cmd.opts.Set, next())
			case "--set-json":
				cmd.opts.SetJSON = append(cmd.opts.SetJSON, next())
			case "--set-string":
				cmd.opts.SetString = append(cmd.opts.SetString, next())
			case "--include-crds":
				skip = true // crds/ are not linted: helm template leaves them out by default
			default:
				if strings.HasPrefix(a, "-") {
					t.Fatalf("README command %q: flag %s not understood by the test", line, a)
				}
				if cmd.opts.ReleaseName == "" {
					cmd.opts.ReleaseName = a
				} else {
					cmd.chart = a
				}
			}
		}
		if !skip {
			out = append(out, cmd)
		}
		count = 0
	}
	if len(out) == 0 {
		t.Fatal("no helm template command in the charts' README")
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// shellWords splits a command line the README writes: words separated by
// spaces, single-quoted words kept whole.
func shellWords(t *testing.T, line string) []string {
	var out []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}
