# unosim: common tasks. Everything here is plain `go` underneath; the README
# gives the equivalent commands for machines without make.

GO ?= go
FUZZTIME ?= 30s

.PHONY: all build test bench fuzz lint run signature faults tune-check

all: lint test build

build:
	$(GO) build -o bin/unosim ./cmd/unosim

# The test command of the README and of CI.
test:
	$(GO) test ./...

# Speed of the engine on one core, built with the profile the unosim binary
# is built with (cmd/unosim/default.pgo); compare runs with benchstat.
bench:
	$(GO) test ./engine -pgo=$(CURDIR)/cmd/unosim/default.pgo -run '^$$' -bench Game -benchtime 2s -count 6 -cpu 1

fuzz:
	$(GO) test ./engine -run '^$$' -fuzz FuzzGame -fuzztime $(FUZZTIME)
	$(GO) test ./analysis -run '^$$' -fuzz FuzzIntHistQuantile -fuzztime $(FUZZTIME)
	$(GO) test ./engine -run '^$$' -fuzz FuzzParseDeck -fuzztime $(FUZZTIME)
	$(GO) test ./engine -run '^$$' -fuzz FuzzOptionsSet -fuzztime $(FUZZTIME)
	$(GO) test ./strategy -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./experiments -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./sim -run '^$$' -fuzz FuzzParseShard -fuzztime $(FUZZTIME)

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

run:
	$(GO) run ./cmd/unosim simulate

# Rewrite the pinned bench signature after an intended change of behaviour.
signature:
	$(GO) test ./engine -run BenchSignature -update

# Long fault loops: shards killed (SIGKILL, SIGTERM) at random points many
# times and resumed, then merged and compared with one run. The default
# `go test` runs a few rounds of the same tests.
faults:
	UNOSIM_FAULT_ROUNDS=100 $(GO) test ./cmd/unosim -run Killed -count=1 -v

# The tuner on a real problem (about 30 s on 2 cores; not part of `make test`):
# both methods must beat their start on a million fresh games.
tune-check:
	UNOSIM_LONG=1 $(GO) test ./cmd/unosim -run TestTuneRealProblem -count=1 -v
