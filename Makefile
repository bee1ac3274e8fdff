# agentcore — see README.md. Two commands matter: `make run` and `make test`.

GO       ?= go
GINKGO   := $(GO) run github.com/onsi/ginkgo/v2/ginkgo
VARIANTS := external internal ant
# -tags for each variant; external is the default build (no tag).
tags_external :=
tags_internal := internal
tags_ant      := ant

GINKGO_FLAGS ?= -r -p --randomize-all --randomize-suites --fail-on-pending --keep-going --race --trace

.PHONY: all generate check-generated build test test-% bench run vet clean

all: build

## generate: regenerate generated/ from tooldefs/
generate:
	$(GO) run ./cmd/toolgen -dir tooldefs -out generated
	$(GO) run ./cmd/toolgen -dir examples/fileinfo -out examples/fileinfo/generated

## check-generated: fail when generated/ differs from a fresh run of toolgen
check-generated:
	$(GO) run ./cmd/toolgen -dir tooldefs -out generated -check
	$(GO) run ./cmd/toolgen -dir examples/fileinfo -out examples/fileinfo/generated -check

## build: one binary per variant in bin/
build: $(addprefix bin/agentcore-,$(VARIANTS))

bin/agentcore-%: FORCE
	$(GO) build -tags '$(tags_$*)' -o $@ ./cmd/agentcore

FORCE:

## vet: go vet every variant
vet:
	@for v in $(VARIANTS); do echo "vet $$v"; $(GO) vet -tags "$$( [ $$v = external ] || echo $$v )" ./... || exit 1; done

## test: every Ginkgo suite, for every variant, with the race detector
test: vet $(addprefix test-,$(VARIANTS))

test-%:
	@echo "== test variant $*"
	$(GINKGO) $(GINKGO_FLAGS) --tags '$(tags_$*)' ./...

## bench: run the benchmarks and write BENCHMARKS.md
bench:
	$(GO) run ./benchmarks -out BENCHMARKS.md

## run: the main job, offline, with the built-in replay model
run: bin/agentcore-external
	./scripts/run-demo.sh

clean:
	rm -rf bin
