# dslint — see README.md. Every target works on a fresh clone with Go installed.

GO       ?= go

.PHONY: all build install test vet fmt-check rego-check rego-fmt regal docs fuzz bench hostile clean

all: test build

build:
	$(GO) build -o bin/dslint ./cmd/dslint

install:
	$(GO) install ./cmd/dslint

# The test command of the README and of CI.
test: fmt-check vet rego-check
	$(GO) test ./...
	cd internal/differential/capacity && $(GO) test ./...
	cd internal/differential/admission && $(GO) test ./...

vet:
	$(GO) vet ./...
	cd internal/differential/capacity && $(GO) vet ./...
	cd internal/differential/admission && $(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# Rego is gated like Go: formatted as opa fmt formats it and compiling as
# opa check --strict compiles it (Go tests of internal/regogate, with the OPA
# dslint is built with), and Regal with .regal/config.yaml. Regal is built
# from its own tool module, tools/regal/go.mod, so that its OPA never
# becomes dslint's; the first run downloads and builds it (about a minute).
REGO_DIRS = rego rules examples/policies
REGAL = $(GO) tool -modfile=tools/regal/go.mod regal

rego-check:
	$(GO) test -count=1 -v -run '^TestRego(Formatted|Strict)$$' ./internal/regogate
	$(REGAL) lint --format json $(REGO_DIRS) | $(GO) run ./tools/regalgate

# Rewrites the gated Rego files as opa fmt would (tools/regofmt).
rego-fmt:
	$(GO) run ./tools/regofmt

# Regal's own report, for a closer look than rego-check's.
regal:
	$(REGAL) lint $(REGO_DIRS)

# docs/rules.md and the README's rule table are generated from the rules'
# metadata; a test fails when either is stale.
docs:
	$(GO) run ./tools/gendocs

# Fuzz the loader, the whole lint (bytes in, findings out), the template
# positions of Helm charts, fix's edits (any text, any field: refused, or
# text that parses to as many objects) and the differential comparisons with upstream
# Kubernetes (go test -fuzz takes one
# target per run). Each budget is a number of calls, about 20 s on a 2-core
# machine, not a duration: with a duration, Go 1.26's fuzz coordinator can
# report a bare "context deadline exceeded" failure as the time runs out
# (golang/go#75804, fixed in Go 1.27). A number of calls has no deadline to
# race. The calls that run the corpus first count toward it. For a long run:
# make fuzz FUZZ_PARSE=10000000x (or FUZZTIME=10m for all six, which can
# hit that race at its end).
FUZZ_PARSE ?= 300000x
FUZZ_PIPELINE ?= 15000x
FUZZ_TOLERATION ?= 40000x
FUZZ_NODESELECTOR ?= 30000x
FUZZ_POSITIONS ?= 15000x
FUZZ_FIX ?= 100000x
FUZZ = $(GO) test -run '^$$' -fuzzminimizetime 500x
fuzz:
	$(FUZZ) -fuzztime $(or $(FUZZTIME),$(FUZZ_PARSE)) -fuzz '^FuzzParse$$' ./internal/manifest
	$(FUZZ) -fuzztime $(or $(FUZZTIME),$(FUZZ_PIPELINE)) -fuzz '^FuzzPipeline$$' ./internal/lint
	$(FUZZ) -fuzztime $(or $(FUZZTIME),$(FUZZ_TOLERATION)) -fuzz '^FuzzTolerationDifferential$$' ./internal/differential
	$(FUZZ) -fuzztime $(or $(FUZZTIME),$(FUZZ_NODESELECTOR)) -fuzz '^FuzzNodeSelectorDifferential$$' ./internal/differential
	$(FUZZ) -fuzztime $(or $(FUZZTIME),$(FUZZ_POSITIONS)) -fuzz '^FuzzPositions$$' ./internal/helm
	$(FUZZ) -fuzztime $(or $(FUZZTIME),$(FUZZ_FIX)) -fuzz '^FuzzFile$$' ./internal/fix

# Timings and peak memory over generated corpora: 10,000 workloads (lint),
# 2,000 workloads on a 5,000-node cluster (placement), and 50,000 workloads in
# one 170 MB file (bigfile); and of startup: dslint version and one small
# file, 30 runs each (startup); and real Helm charts rendered in process
# (helm). SCENARIO=lint|placement|bigfile|startup|helm.
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
