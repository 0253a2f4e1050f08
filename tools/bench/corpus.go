package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// stampName is the stamp file inside the corpus directory. dslint skips
// hidden entries, so it is not linted, and it moves with the directory.
const stampName = ".stamp"

// ensureCorpus returns .bench/corpus, the lint scenario's n workloads, and
// the generator's summary line.
func ensureCorpus(root string, n int) (dir, desc string, err error) {
	return ensureGenerated(root, "corpus", fmt.Sprintf("%d objects", n), "-n", fmt.Sprint(n))
}

// ensurePlacement returns .bench/placement, the placement scenario (nodes.yaml
// and workloads/), and the generator's summary line.
func ensurePlacement(root string) (dir, desc string, err error) {
	return ensureGenerated(root, "placement", "the placement scenario", "-placement")
}

// ensureGenerated returns .bench/<name> and the generator's summary line,
// running gencorpus with args into it unless the stamp shows it was made
// with the same arguments by the same generator source.
func ensureGenerated(root, name, what string, args ...string) (dir, desc string, err error) {
	dir = filepath.Join(root, ".bench", name)
	want, err := stampKey(root, args)
	if err != nil {
		return "", "", err
	}
	if key, desc, ok := readStamp(dir); ok && key == want {
		return dir, desc + " (cached)", nil
	}
	fmt.Printf("generating %s into %s ...\n", what, relTo(root, dir))
	// Generate beside the cache and rename it into place only once complete
	// and stamped, so an interrupted run never leaves a corpus that looks
	// valid.
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return "", "", err
	}
	var out bytes.Buffer
	genArgs := append([]string{"run", "./tools/gencorpus"}, args...)
	if err := goCmd(root, &out, append(genArgs, "-o", tmp)...); err != nil {
		return "", "", fmt.Errorf("generate %s: %w", name, err)
	}
	desc = strings.TrimSpace(out.String())
	if err := os.WriteFile(filepath.Join(tmp, stampName), []byte(want+"\n"+desc+"\n"), 0o644); err != nil {
		return "", "", err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", "", err
	}
	return dir, desc, os.Rename(tmp, dir)
}

// stampKey identifies a generated input: the generator's arguments and a
// hash of its source, since changing the generator changes the output.
func stampKey(root string, args []string) (string, error) {
	srcDir := filepath.Join(root, "tools", "gencorpus")
	files, err := filepath.Glob(filepath.Join(srcDir, "*.go"))
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("no generator source in %s", srcDir)
	}
	h := sha256.New()
	for _, f := range files { // Glob sorts, so the hash is stable
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(data))
		h.Write(data)
	}
	return fmt.Sprintf("gencorpus %s src=%x", strings.Join(args, " "), h.Sum(nil)[:8]), nil
}

// readStamp returns the stamp's key and the generator's summary line.
func readStamp(dir string) (key, desc string, ok bool) {
	data, err := os.ReadFile(filepath.Join(dir, stampName))
	if err != nil {
		return "", "", false
	}
	key, desc, ok = strings.Cut(strings.TrimSpace(string(data)), "\n")
	return key, desc, ok
}
