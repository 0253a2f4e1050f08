package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// The bigfile scenario: one multi-document file of 50,000 workloads (some
// 170 MB, with the ConfigMaps and Services gencorpus puts beside them), far
// beyond the 32 MiB dslint reads whole, so that dslint reads it a document
// at a time. It is the files of a gencorpus corpus of that size joined into
// one stream with "---" between them.
const (
	bigfileObjects    = 50000
	maxBigfileWall    = 10 * time.Second
	maxBigfilePeakMiB = 400.0
)

// ensureBigfile returns .bench/bigfile.yaml and a summary line, generating
// it unless its stamp shows it was made from the same generator source.
// The corpus it is joined from is removed once joined.
func ensureBigfile(root string) (path, desc string, err error) {
	args := []string{"-n", fmt.Sprint(bigfileObjects)}
	path = filepath.Join(root, ".bench", "bigfile.yaml")
	stamp := path + ".stamp"
	want, err := stampKey(root, args)
	if err != nil {
		return "", "", err
	}
	if data, err := os.ReadFile(stamp); err == nil {
		if key, desc, ok := strings.Cut(strings.TrimSpace(string(data)), "\n"); ok && key == want {
			if _, err := os.Stat(path); err == nil {
				return path, desc + " (cached)", nil
			}
		}
	}
	fmt.Printf("generating %d workloads into one file, %s ...\n", bigfileObjects, relTo(root, path))
	corpus := filepath.Join(root, ".bench", "bigfile.corpus.tmp")
	if err := os.RemoveAll(corpus); err != nil {
		return "", "", err
	}
	defer os.RemoveAll(corpus)
	var out bytes.Buffer
	if err := goCmd(root, &out, append([]string{"run", "./tools/gencorpus", "-o", corpus}, args...)...); err != nil {
		return "", "", fmt.Errorf("generate bigfile: %w", err)
	}
	size, docs, err := joinFiles(corpus, path+".tmp")
	if err != nil {
		return "", "", err
	}
	desc = fmt.Sprintf("%s; joined into one file of %d documents, %.1f MB", strings.TrimSpace(out.String()), docs, float64(size)/1e6)
	if err := os.Rename(path+".tmp", path); err != nil {
		return "", "", err
	}
	return path, desc, os.WriteFile(stamp, []byte(want+"\n"+desc+"\n"), 0o644)
}

// joinFiles writes every file under dir, in lexical order, into one
// multi-document file at path, each file's documents after a "---" line.
// It returns the bytes written and the number of documents.
func joinFiles(dir, path string) (size int64, docs int, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	walkErr := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(data, []byte("---")) {
			w.WriteString("---\n")
			size += 4
		}
		if !bytes.HasSuffix(data, []byte("\n")) {
			data = append(data, '\n')
		}
		docs += bytes.Count(data, []byte("\n---")) + 1
		n, err := w.Write(data)
		size += int64(n)
		return err
	})
	return size, docs, errors.Join(walkErr, w.Flush(), f.Close())
}

// bigfileCommands time linting the one large file.
func bigfileCommands(path string) []command {
	return []command{{name: "bigfile", args: []string{"lint", "-q", "-f", "json", path}, objects: bigfileObjects}}
}

func bigfileTargets(r result) {
	fmt.Printf("\ntargets (one file of %s workloads, %d CPUs):\n", thousands(bigfileObjects), targetCPUs)
	wallName := fmt.Sprintf("bigfile median wall <= %.0f s", maxBigfileWall.Seconds())
	rssName := fmt.Sprintf("bigfile peak RSS <= %.0f MiB", maxBigfilePeakMiB)
	if !r.ok() {
		fmt.Printf("  %s\t-\tn/a\n  %s\t-\tn/a\n", wallName, rssName)
		return
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	target(tw, wallName, secs(r.median()), r.median() <= maxBigfileWall)
	target(tw, rssName, fmt.Sprintf("%.1f MiB", r.peakMiB()), r.peakMiB() <= maxBigfilePeakMiB)
	tw.Flush()
}
