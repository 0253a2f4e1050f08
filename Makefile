# dslint — see README.md. Every target works on a fresh clone with Go installed.

GO       ?= go
FUZZTIME ?= 20s

.PHONY: all build install test vet fmt-check docs fuzz bench hostile clean

all: test build

build:
	$(GO) build -o bin/dslint ./cmd/dslint

install:
	$(GO) install ./cmd/dslint

# The test command of the README and of CI.
test: fmt-check vet
	$(GO) test ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# docs/rules.md and the README's rule table are generated from the rules'
# metadata; a test fails when either is stale.
docs:
	$(GO) run ./tools/gendocs

# Fuzz the loader, the whole lint (bytes in, findings out) and the
# differential comparisons with upstream Kubernetes, FUZZTIME each (go test
# -fuzz takes one target per run).
FUZZ = $(GO) test -run '^$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s
fuzz:
	$(FUZZ) -fuzz '^FuzzParse$$' ./internal/manifest
	$(FUZZ) -fuzz '^FuzzPipeline$$' ./internal/lint
	$(FUZZ) -fuzz '^FuzzTolerationDifferential$$' ./internal/differential
	$(FUZZ) -fuzz '^FuzzNodeSelectorDifferential$$' ./internal/differential

# Timings and peak memory over generated corpora: 10,000 workloads (lint), and
# 2,000 workloads on a 5,000-node cluster (placement). SCENARIO=lint|placement.
SCENARIO ?= all
bench:
	$(GO) run ./tools/bench -scenario $(SCENARIO)

# Hostile inputs at full size (alias bombs, 20,000 levels of nesting, binary
# files, a 200 MB file, link loops, unreadable paths, 100,000 files): each
# must end with exit 1 or 2 and a message. Prints time and peak memory.
# Generates its inputs in a temporary directory (up to some 700 MB).
hostile:
	$(GO) run ./tools/hostile

clean:
	rm -rf bin .bench
