# deck — build, test and run the host. `make test` and `make run` are all a
# newcomer needs on a fresh machine: both install what is missing first.

SWIFT        ?= swift
PREFIX       ?= $(HOME)/.local
APT_PACKAGES := libyaml-dev zlib1g-dev pkg-config
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Release builds link the Swift runtime and Foundation statically: deckd then
# starts in ~5 ms instead of ~14 ms before its own work, and its idle resident
# memory drops by ~6 MB (no dynamic symbol binding of a dozen shared Swift
# libraries). Figures in docs/performance.md.
RELEASE_FLAGS := -c release --static-swift-stdlib

.PHONY: all setup build test run bench clean

all: build

## setup: install the system libraries (libyaml, zlib) when they are missing; quiet when present
setup:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make setup: installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c 'import yaml' 2>/dev/null || { echo "make setup: installing PyYAML (tests compare exports with it)"; python3 -m pip install -q pyyaml; }

## build: debug build of every module and app
build: setup
	$(SWIFT) build

## test: setup, then every test of the package
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test
	# The example device app: a separate package using only the device modules, built and run.
	$(SWIFT) build --package-path Examples/DeviceApp
	$(SWIFT) run --package-path Examples/DeviceApp --skip-build DeviceApp

## run: start the host on the repo's layouts/ and plugins/ (and your own plugins folder), state in ./.state/ (Ctrl-C stops it)
run: setup
	$(SWIFT) build --product deckd
	$(SWIFT) build --product deck-plugin-counter
	@install -d -m 700 .state && chmod 700 .state
	@echo "make run: devices connect to 127.0.0.1:7531; control socket $(CURDIR)/.state/control.sock"
	@echo "make run: try  deckctl --control .state/control.sock status  (or socat - UNIX-CONNECT:.state/control.sock)"
	"$$($(SWIFT) build --show-bin-path)/deckd" --layouts layouts --state .state \
		--listen 127.0.0.1:7531 --control "$(CURDIR)/.state/control.sock" \
		--plugins "$${XDG_DATA_HOME:-$$HOME/.local/share}/deckd/plugins" --plugins plugins

## bench: release build, then every figure of issue 10 against this machine's floors (docs/performance.md);
## prints a table and writes bench/results.json. Reports only: a slow machine never makes it fail.
BENCH_PRODUCTS := deck-bench $(notdir $(wildcard Apps/deckd Apps/deckctl))
bench: setup
	@for product in $(BENCH_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; done
	.build/release/deck-bench

clean:
	rm -rf .build
	rm -rf Examples/DeviceApp/.build
