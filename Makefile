# deck — build, test and run the host. `make test` and `make run` are all a
# newcomer needs on a fresh machine: both install what is missing first.

SWIFT        ?= swift
PREFIX       ?= $(HOME)/.local
APT_PACKAGES := libyaml-dev zlib1g-dev pkg-config
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup build test run clean

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

clean:
	rm -rf .build
	rm -rf Examples/DeviceApp/.build
