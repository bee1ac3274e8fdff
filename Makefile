# agentcore — see README.md. Two commands matter: `make run` and `make test`.

GO       ?= go
GINKGO   := $(GO) run github.com/onsi/ginkgo/v2/ginkgo
VARIANTS := external internal ant
# -tags for each variant; external is the default build (no tag).
tags_external :=
tags_internal := internal
tags_ant      := ant

# --fail-on-empty fails a suite that runs no spec (a variant pass would
# otherwise pass a package whose specs its tags all exclude); --require-suite
# fails a package whose _test.go files never call RunSpecs.
GINKGO_FLAGS ?= -p --randomize-all --randomize-suites --fail-on-pending --fail-on-empty --require-suite --keep-going --race --trace

# Each variant's Ginkgo JSON report goes to $(REPORTS)/<variant>.json;
# .ci/run lists their skipped specs with `go run ./.ci/skipped`.
REPORTS ?= .ci/reports
report_flags = --json-report=$(1).json --output-dir=$(REPORTS)

.PHONY: all generate check-generated embed build release test test-% test-durable test-durable-e2e bench bench-durable run run-agents run-tour vet cross smoke-windows clean

all: build

## generate: regenerate generated/ from tooldefs/
generate:
	$(GO) run ./cmd/toolgen -dir tooldefs -out generated -markerdoc tooldefs/doc.go
	$(GO) run ./cmd/toolgen -dir examples/fileinfo -out examples/fileinfo/generated
	cd examples/embed && $(GO) generate ./...

## embed: the examples/embed module (another module using toolgen through
## its tool directive and the runtime through runtime/session): its
## generated code in sync, then built and run
embed:
	cd examples/embed && $(GO) tool toolgen -dir tools -out gen -check
	cd examples/embed && $(GO) build ./... && $(GO) run .

## check-generated: fail when generated/ or the marker table of tooldefs/doc.go differs from a fresh run of toolgen
check-generated:
	$(GO) run ./cmd/toolgen -dir tooldefs -out generated -markerdoc tooldefs/doc.go -check
	$(GO) run ./cmd/toolgen -dir examples/fileinfo -out examples/fileinfo/generated -check

## build: one binary per variant in bin/, static (CGO_ENABLED=0) as the
## release builds are: no dynamic loader, libc or cgo threads at start-up
build: $(addprefix bin/agentcore-,$(VARIANTS))

bin/agentcore-%: FORCE
	CGO_ENABLED=0 $(GO) build -tags '$(tags_$*)' -o $@ ./cmd/agentcore

FORCE:

## release: stripped builds of every variant for each platform in dist/,
## stamped with VERSION and COMMIT, and dist/SHA256SUMS: the three
## variants for every platform users run agentcore on (issue 36).
RELEASE_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
# release_build builds variant $(2) for platform $(1) (os/arch).
define release_build
GOOS=$(word 1,$(subst /, ,$(1))) GOARCH=$(word 2,$(subst /, ,$(1))) CGO_ENABLED=0 $(GO) build -trimpath -tags '$(tags_$(2))' \
		-ldflags '-s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)' -o dist/agentcore-$(2)-$(subst /,-,$(1))$(if $(filter windows/%,$(1)),.exe) ./cmd/agentcore

endef
release:
	rm -rf dist && mkdir -p dist
	$(foreach p,$(RELEASE_PLATFORMS),$(foreach v,$(VARIANTS),$(call release_build,$(p),$(v))))
	cd dist && sha256sum agentcore-* > SHA256SUMS

## vet: go vet every variant
vet:
	@for v in $(VARIANTS); do echo "vet $$v"; $(GO) vet -tags "$$( [ $$v = external ] || echo $$v )" ./... || exit 1; done

## cross: build and vet every variant for the other platforms users run
## agentcore on (issue 37), and build for linux/arm64 (vet there finds
## nothing the linux/amd64 vet does not); the first run compiles their
## standard library
CROSS_PLATFORMS ?= darwin/arm64 darwin/amd64 windows/amd64
CROSS_BUILD_ONLY ?= linux/arm64
cross:
	@for p in $(CROSS_BUILD_ONLY); do for v in $(VARIANTS); do \
		t=$$( [ $$v = external ] || echo $$v ); echo "cross $$p $$v (build)"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -tags "$$t" ./... || exit 1; \
	done; done
	@for p in $(CROSS_PLATFORMS); do for v in $(VARIANTS); do \
		t=$$( [ $$v = external ] || echo $$v ); echo "cross $$p $$v"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -tags "$$t" ./... || exit 1; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet -tags "$$t" ./... || exit 1; \
	done; done

## smoke-windows: the windows/amd64 binary under Wine (apt-get install
## wine64; with Wine < 8.13 also binutils-mingw-w64-x86-64): version, tools
## --json and an exec batch of Write, Edit, Read, Glob and Grep, checked
smoke-windows:
	.ci/smoke-windows

## test: every Ginkgo suite, for every variant, with the race detector
test: vet $(addprefix test-,$(VARIANTS))

# The packages whose build depends on the variant: those holding gated code
# (features, tooldefs, generated registries) and everything importing them.
# The rest of the tree compiles to the same code under every tag, so the
# internal and ant passes run only these.
variant_pkgs = $(shell $(GO) list -tags '$(1)' -f '{{.ImportPath}} {{join .Deps " "}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | \
	awk '$$1 ~ /agentcore\/(.*\/)?(features|tooldefs|generated)$$/ || / github.com\/agentcore\/agentcore\/(.*\/)?(features|tooldefs|generated)( |$$)/ {print $$1}' | \
	sed 's|^github.com/agentcore/agentcore|.|')

# --skip-package: ginkgo -r walks directories, not the module, and would
# run the durable module's suites (make test-durable runs them).
test-external:
	@echo "== test variant external (every package)"
	@mkdir -p $(REPORTS)
	$(GINKGO) -r $(GINKGO_FLAGS) --skip-package=runtime/durable $(call report_flags,external) ./...

test-%:
	@echo "== test variant $* (the packages the variant changes)"
	@mkdir -p $(REPORTS)
	$(GINKGO) $(GINKGO_FLAGS) $(call report_flags,$*) --tags '$(tags_$*)' $(call variant_pkgs,$(tags_$*))

## test-durable: the durable module (runtime/durable/temporal, its own go.mod):
## vet and the unit specs on the SDK's testsuite (called by .ci/run)
DURABLE_PKGS := . ./internal/... ./cmd/...
test-durable:
	cd runtime/durable/temporal && $(GO) vet $(DURABLE_PKGS) && \
		$(GINKGO) --randomize-all --fail-on-pending --fail-on-empty --require-suite --keep-going --trace .

## test-durable-e2e: end-to-end specs against a Temporal server started in
## process (called by .ci/run; a heavy first build: go.temporal.io/server,
## see docs/durable.md); DURABLE_LABELS narrows them (e.g. '!load').
DURABLE_LABELS ?=
test-durable-e2e:
	cd runtime/durable/temporal && $(GINKGO) --fail-on-pending --fail-on-empty --keep-going --trace \
		$(if $(DURABLE_LABELS),--label-filter '$(DURABLE_LABELS)') ./e2e

## bench-durable: the durable module's benchmarks (a durable turn against
## the same turn in a local session; sessions per second over two workers),
## rewriting their section of BENCHMARKS.md alone (make bench writes it too)
bench-durable:
	$(GO) run ./benchmarks -only 'Durable sessions on Temporal' -into BENCHMARKS.md

## bench: run every benchmark and rewrite BENCHMARKS.md whole; fails naming the rows that missed their target.
## BENCH_FILTER=text runs only the suites whose title contains it and prints them (BENCHMARKS.md untouched).
bench:
ifeq ($(BENCH_FILTER),)
	$(GO) run ./benchmarks -out BENCHMARKS.md
else
	$(GO) run ./benchmarks -only '$(BENCH_FILTER)' -out -
endif

## run: the main job, offline, with the built-in replay model
run: bin/agentcore-external
	./examples/run-demo.sh

## run-agents: the sub-agents demo, offline: two Explore agents in parallel and a background agent
run-agents: bin/agentcore-external
	SCENARIO=examples/subagents.jsonl ./examples/run-demo.sh

## run-tour: plan mode, a question, a worktree and a skill, on a terminal where you answer
run-tour: bin/agentcore-external
	SCENARIO=examples/tour.jsonl MODE=default ./examples/run-demo.sh

clean:
	rm -rf bin

## fuzz-short: every fuzz target for FUZZTIME (6s) each, as .ci/run does;
## failing inputs land in the package's testdata/fuzz (commit them)
FUZZTIME ?= 6s
FUZZ_TARGETS := \
	FuzzGeneratedDecoders:./gen FuzzDecode:./gen \
	FuzzClassify:./tooldefs/shell/classify \
	FuzzCheckShell:./runtime/permission FuzzParseRule:./runtime/permission FuzzReadSettingsFile:./runtime/settings FuzzJudge:./runtime/shellprog \
	FuzzSimpleCommands:./runtime/shellsyntax FuzzConfine:./runtime/fspath \
	FuzzDecodeObject:./runtime/mcp FuzzParseConfig:./runtime/mcp \
	FuzzReplace:./tooldefs/editengine FuzzLineDiff:./tooldefs/editengine \
	FuzzPattern:./tooldefs/search/walk FuzzLineSearch:./tooldefs/search/grepengine \
	FuzzParse:./runtime/provider/replay
.PHONY: fuzz-short
## A run that ends in a bare "context deadline exceeded" with no failing input
## written is Go 1.26's fuzz-coordinator race at the -fuzztime boundary
## (go.dev/issue/75804, fixed in Go 1.27), not a finding: it is run once more.
fuzz-short:
	@for t in $(FUZZ_TARGETS); do \
		out=$$(mktemp); \
		for try in 1 2; do \
			if $(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) "$${t#*:}/" >$$out 2>&1; then ok=1; break; fi; ok=0; \
			if [ $$try = 1 ] && grep -q 'context deadline exceeded' $$out && ! grep -q 'Failing input written' $$out; then \
				echo "fuzz $${t%%:*}: the fuzztime-boundary race of go.dev/issue/75804, no failing input; running it again"; continue; fi; \
			break; \
		done; \
		if [ $$ok = 1 ]; then \
			echo "fuzz $${t%%:*} $${t#*:}: $$(grep -E 'fuzz: elapsed.*execs' $$out | tail -1)"; rm -f $$out; \
		else cat $$out; rm -f $$out; exit 1; fi; \
	done
