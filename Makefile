# deck — build, test and run the host. `make test` and `make run` are all a
# newcomer needs on a fresh machine: both install what is missing first.

SWIFT        ?= swift
SWIFTC       ?= swiftc
PREFIX       ?= $(HOME)/.local
APT_PACKAGES := libyaml-dev zlib1g-dev pkg-config binutils libhttp-parser-dev libwslay-dev nettle-dev libqrencode-dev \
                zbar-tools curl
# TLS (DeckTLS), and the network-namespace capture test of TLS: tcpdump, iproute2.
APT_PACKAGES += libssl-dev openssl tcpdump iproute2
# The web deck's browser tests: a real headless Chromium, and fonts so Korean
# names and emoji render in it (and in the screenshots); node runs the app's pure modules.
APT_PACKAGES += chromium fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji nodejs
# The media plugin (plugins/media): sd-bus (libsystemd-dev); its tests start a private dbus-daemon and a real
# mpv with Debian's MPRIS script on an ffmpeg-made file, and a stand-in player in Debian's python3 with python3-dbus.
APT_PACKAGES += libsystemd-dev dbus-daemon mpv mpv-mpris ffmpeg python3-dbus python3-gi
# The media plugin's http(s) album art: libcurl (OpenSSL flavour) and the system's CA store it verifies https against.
APT_PACKAGES += libcurl4-openssl-dev ca-certificates
# The keys plugin: XTest and Xlib, xkbcommon's keysym names; its X11 tests run Xvfb, setxkbmap and an xcb/xkbcommon-x11 client built with gcc.
APT_PACKAGES += libxtst-dev libx11-dev libxkbcommon-dev libxkbcommon-x11-dev libxcb-xkb-dev libxcb1-dev xvfb x11-xkb-utils gcc
# The sound plugin: libpulse to build it; pulseaudio and pactl/pacat/pacmd (pulseaudio-utils) for its tests with a real server.
APT_PACKAGES += libpulse-dev pulseaudio pulseaudio-utils
# The keys plugin's RemoteDesktop portal back end (sd-bus), and its tests' private bus and stand-in portal (python3-dbus, GLib).
APT_PACKAGES += libsystemd-dev dbus-daemon python3-dbus python3-gi
# DeckDBus (sd-bus) and Tests/DeckDBusTests: a private dbus-daemon per test and peer.py on Debian's python3-dbus and GLib.
APT_PACKAGES += libsystemd-dev dbus-daemon python3-dbus python3-gi
# Support/profiling/callgrind-edits.sh (and its e2e test): valgrind's callgrind and callgrind_control.
APT_PACKAGES += valgrind
# The obs plugin's WebSocket client (wslay, nettle) needs nothing new; make test-obs's real OBS is below (OBS_APT_PACKAGES).
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Release builds (make install, make bench) link the Swift runtime statically:
# deckd then starts in ~5 ms instead of ~14 ms before its own work, and idles
# in ~6 MB less memory (no dynamic loading and symbol binding of a dozen shared
# Swift libraries). Figures in docs/performance.md.
RELEASE_FLAGS := -c release --static-swift-stdlib

# Where `make install` puts things (DESTDIR is prepended for packagers).
BINDIR              ?= $(PREFIX)/bin
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
# systemd looks for user units in $XDG_DATA_HOME/systemd/user (~/.local/share),
# /usr/local/share, /usr/share, /usr/local/lib and /usr/lib (see
# `systemd-analyze --user unit-paths`): PREFIX/share/systemd/user is found for
# ~/.local, /usr/local and /usr alike. PREFIX/lib/systemd/user is not searched
# for ~/.local.
SYSTEMD_USER_DIR    ?= $(PREFIX)/share/systemd/user
# The example plugins (plugins/ with their built programs). deckd searches
# PREFIX/share/deckd/plugins, found next to its own binary, after the user's
# plugins folder (deckd --help), so the example layouts work after install.
PLUGIN_DIR          ?= $(PREFIX)/share/deckd/plugins
STRIP               ?= strip
# Where systemd looks for user units, one per line (tests give their own);
# nothing printed means "cannot tell", and no hint is given.
UNIT_PATHS          ?= systemd-analyze --user unit-paths
# The folder holding the built deckd and deckctl, for install-files (install
# passes its release build; tests pass a debug build).
BUILT               ?=
INSTALLED_FILES      = $(DESTDIR)$(BINDIR)/deckd $(DESTDIR)$(BINDIR)/deckctl \
                       $(DESTDIR)$(BASH_COMPLETION_DIR)/deckctl $(DESTDIR)$(SYSTEMD_USER_DIR)/deckd.service \
                       $(addprefix $(DESTDIR)$(PLUGIN_DIR)/,$(INSTALLED_PLUGIN_FILES))
INSTALLED_PLUGIN_FILES = counter/plugin.yaml counter/counter counter/deck-plugin-counter hold/plugin.yaml hold/hold.py
INSTALLED_PLUGIN_FILES += media/plugin.yaml media/media media/deck-plugin-media
INSTALLED_PLUGIN_FILES += keys/plugin.yaml keys/keys keys/keysyms.txt keys/aliases.txt keys/deck-plugin-keys
INSTALLED_PLUGIN_FILES += sound/plugin.yaml sound/sound sound/deck-plugin-sound
INSTALLED_PLUGIN_FILES += obs/plugin.yaml obs/obs obs/deck-plugin-obs

.PHONY: test-obs
.PHONY: all setup build test run bench clean install install-files uninstall screenshots fuzz fuzz-build fuzz-regress sanitize sanitize-address sanitize-thread

all: build

## setup: install the system libraries (libyaml, zlib, OpenSSL) and test tools when they are missing; quiet when present
setup:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make setup: installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c 'import yaml' 2>/dev/null || { echo "make setup: installing PyYAML (tests compare exports with it)"; python3 -m pip install -q pyyaml; }
	@command -v node >/dev/null 2>&1 || { echo "make setup: installing nodejs (the web engine and its tests in Apps/web run on it)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs >/dev/null; }
	@python3 -c 'import pytest' 2>/dev/null || { echo "make setup: installing pytest (the e2e tests)"; python3 -m pip install -q pytest; }
	@python3 -c 'import websockets.sync.client' 2>/dev/null || { echo "make setup: installing websockets (the e2e tests' WebSocket client)"; \
		python3 -m pip install -q 'websockets>=12' || python3 -m pip install -q --break-system-packages 'websockets>=12'; }
	@python3 -c 'import sslyze' 2>/dev/null || { echo "make setup: installing sslyze (the TLS scan of the device and web ports)"; python3 -m pip install -q sslyze; }
	@python3 -c 'import websocket' 2>/dev/null || { echo "make setup: installing websocket-client (the browser tests drive Chromium over CDP)"; \
		python3 -m pip install -q websocket-client || python3 -m pip install -q --break-system-packages websocket-client; }

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
	# The web engine: unit tests, every trace file, and the differential test against
	# the Swift engine built above (.build/debug/deck-gestures, deck-layout-replay).
	node --test Apps/web/test/*.test.mjs
	# End to end against a real deckd: HTTP, WebSocket, pairing (Tests/e2e, pytest + websockets).
	DECK_BIN="$$($(SWIFT) build --show-bin-path)" python3 -m pytest -q Tests/e2e
	# Power cuts: deckd's file operations recorded (LD_PRELOAD), replayed into the states a
	# power cut may leave, a fresh deckd on each (Tests/powercut/README.md; ~10 s, 120 states).
	DECK_BIN="$$($(SWIFT) build --show-bin-path)" python3 -m pytest -q -p no:cacheprovider Tests/powercut
	# The obs plugin against its obs-websocket stand-in (the real OBS is make test-obs).
	DECK_BIN="$$($(SWIFT) build --show-bin-path)" python3 -m pytest -q -p no:cacheprovider Tests/obs/test_obs_standin.py
	# The web app: its pure modules in node, then the deck in a real Chromium against a real deckd.
	node --test Tests/web/
	DECK_BIN="$$($(SWIFT) build --show-bin-path)" python3 -m pytest -q -p no:cacheprovider Tests/browser
	# Every fuzz target over its corpus and crash fixtures, instrumented (libFuzzer + ASan): seconds once built.
	@$(MAKE) --no-print-directory fuzz-regress

# What make test-obs adds: OBS Studio 29+ (obs-websocket 5) and a virtual X display for it.
OBS_APT_PACKAGES := obs-studio xvfb

## test-obs: the obs plugin on a real deckd against a real OBS Studio under Xvfb (installs obs-studio and xvfb when missing; about 15 s)
test-obs: setup
	@missing=""; for p in $(OBS_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "make test-obs: installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; fi
	$(SWIFT) build --product deckd
	$(SWIFT) build --product deckctl
	$(SWIFT) build --product deck-plugin-obs
	DECK_BIN="$$($(SWIFT) build --show-bin-path)" python3 -m pytest -q -p no:cacheprovider Tests/obs/test_obs_real.py

## screenshots: the web deck on a phone and a tablet (a held button's hint, arrange mode, coloured and stateful buttons), written to docs/
screenshots: setup
	$(SWIFT) build --product deckd
	$(SWIFT) build --product deckctl
	DECK_BIN="$$($(SWIFT) build --show-bin-path)" DECK_SCREENSHOTS=docs python3 -m pytest -q -p no:cacheprovider Tests/browser/test_screenshots.py

# Where make run serves the web deck: WEB=0.0.0.0:7532 serves phones on the local network.
WEB ?= 127.0.0.1:7532
# More deckd options for make run, e.g. DECKD_ARGS="--tls auto" to encrypt what phones send (docs/security.md).
DECKD_ARGS ?=
WEB_SCHEME := $(if $(findstring --tls,$(DECKD_ARGS)),https,http)
# What to open on this machine: a listener on every address (0.0.0.0, [::]) is reached at 127.0.0.1,
# whose page is trusted without a token (docs/security.md); the bind address itself is no page's name.
WEB_PORT := $(lastword $(subst :, ,$(WEB)))
WEB_HERE := $(if $(filter 0.0.0.0:% [::]:%,$(WEB)),127.0.0.1:$(WEB_PORT),$(WEB))
DEVICE_PORT_NOTE := $(if $(findstring --tls,$(DECKD_ARGS)), (TLS),)

## run: build deckd and deckctl, then start the host on the repo's layouts/ and plugins/ (and your own plugins folder), state in ./.state/ (Ctrl-C stops it)
run: setup
	$(SWIFT) build --product deckd
	$(SWIFT) build --product deckctl
	$(SWIFT) build --product deck-plugin-counter
	$(SWIFT) build --product deck-plugin-media
	$(SWIFT) build --product deck-plugin-keys
	$(SWIFT) build --product deck-plugin-sound
	$(SWIFT) build --product deck-plugin-obs
	@install -d -m 700 .state && chmod 700 .state
	@echo "make run: open $(WEB_SCHEME)://$(WEB_HERE)/ in a browser (the web deck; deckctl pair NAME gives a phone its link); devices connect to 127.0.0.1:7531$(DEVICE_PORT_NOTE); control socket $(CURDIR)/.state/control.sock"
	@echo "make run: try  .build/debug/deckctl --control .state/control.sock status  (or socat - UNIX-CONNECT:.state/control.sock)"
	"$$($(SWIFT) build --show-bin-path)/deckd" --layouts layouts --state .state \
		--listen 127.0.0.1:7531 --web $(WEB) --web-root Apps/web --control "$(CURDIR)/.state/control.sock" \
		--plugins "$${XDG_DATA_HOME:-$$HOME/.local/share}/deckd/plugins" --plugins plugins $(DECKD_ARGS)

## bench: release build, then every figure of issue 10 against this machine's floors (docs/performance.md);
## prints a table and writes bench/results.json. Reports only: a slow machine never makes it fail.
BENCH_PRODUCTS := deck-bench $(notdir $(wildcard Apps/deckd Apps/deckctl))
# The sound plugin's latency figure runs the plugin itself.
BENCH_PRODUCTS += deck-plugin-sound
# The obs figure's plugin (it reports 'not measurable' without OBS Studio and Xvfb).
BENCH_PRODUCTS += deck-plugin-obs
bench: setup
	@for product in $(BENCH_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; done
	.build/release/deck-bench
	# The web deck's figures in headless Chromium (docs/performance.md, "The web deck").
	DECK_BIN=.build/release python3 Tests/browser/bench.py

# Where `make install` puts the web app; deckd finds it there from its own path (docs/web.md).
WEB_DIR             ?= $(PREFIX)/share/deckd/web

## install: release build, then deckd, deckctl, deckctl's bash completion and the deckd.service user unit under PREFIX (default ~/.local)
install: setup
	$(SWIFT) build $(RELEASE_FLAGS) --product deckd
	$(SWIFT) build $(RELEASE_FLAGS) --product deckctl
	$(SWIFT) build $(RELEASE_FLAGS) --product deck-plugin-counter
	$(SWIFT) build $(RELEASE_FLAGS) --product deck-plugin-media
	$(SWIFT) build $(RELEASE_FLAGS) --product deck-plugin-keys
	$(SWIFT) build $(RELEASE_FLAGS) --product deck-plugin-sound
	$(SWIFT) build $(RELEASE_FLAGS) --product deck-plugin-obs
	@$(MAKE) --no-print-directory install-files BUILT="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"

## install-files: install already built binaries from BUILT (no build; for packagers and tests)
install-files:
	@test -n "$(BUILT)" -a -x "$(BUILT)/deckd" -a -x "$(BUILT)/deckctl" -a -x "$(BUILT)/deck-plugin-counter" || \
		{ echo "make install-files: no deckd, deckctl and deck-plugin-counter in BUILT='$(BUILT)'; run make install, which builds them" >&2; exit 1; }
	@test -x "$(BUILT)/deck-plugin-keys" || \
		{ echo "make install-files: no deck-plugin-keys in BUILT='$(BUILT)'; run make install, which builds it" >&2; exit 1; }
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(BASH_COMPLETION_DIR)" "$(DESTDIR)$(SYSTEMD_USER_DIR)" \
		"$(DESTDIR)$(PLUGIN_DIR)/counter" "$(DESTDIR)$(PLUGIN_DIR)/hold" "$(DESTDIR)$(PLUGIN_DIR)/keys"
	@test -x "$(BUILT)/deck-plugin-obs" || \
		{ echo "make install-files: no deck-plugin-obs in BUILT='$(BUILT)'; run make install, which builds it" >&2; exit 1; }
	install -d "$(DESTDIR)$(PLUGIN_DIR)/obs"
	# Stripped: symbols are most of a static Swift binary (deckctl: 76 MB to a few).
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deckd" "$(DESTDIR)$(BINDIR)/deckd"
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deckctl" "$(DESTDIR)$(BINDIR)/deckctl"
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deck-plugin-counter" "$(DESTDIR)$(PLUGIN_DIR)/counter/deck-plugin-counter"
	install -m 644 plugins/counter/plugin.yaml "$(DESTDIR)$(PLUGIN_DIR)/counter/plugin.yaml"
	install -m 755 plugins/counter/counter "$(DESTDIR)$(PLUGIN_DIR)/counter/counter"
	install -m 644 plugins/hold/plugin.yaml "$(DESTDIR)$(PLUGIN_DIR)/hold/plugin.yaml"
	install -m 755 plugins/hold/hold.py "$(DESTDIR)$(PLUGIN_DIR)/hold/hold.py"
	@test -x "$(BUILT)/deck-plugin-media" || { echo "make install-files: no deck-plugin-media in BUILT='$(BUILT)'" >&2; exit 1; }
	install -d "$(DESTDIR)$(PLUGIN_DIR)/media"
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deck-plugin-media" "$(DESTDIR)$(PLUGIN_DIR)/media/deck-plugin-media"
	install -m 644 plugins/media/plugin.yaml "$(DESTDIR)$(PLUGIN_DIR)/media/plugin.yaml"
	install -m 755 plugins/media/media "$(DESTDIR)$(PLUGIN_DIR)/media/media"
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deck-plugin-keys" "$(DESTDIR)$(PLUGIN_DIR)/keys/deck-plugin-keys"
	install -m 644 plugins/keys/plugin.yaml plugins/keys/keysyms.txt plugins/keys/aliases.txt "$(DESTDIR)$(PLUGIN_DIR)/keys/"
	install -m 755 plugins/keys/keys "$(DESTDIR)$(PLUGIN_DIR)/keys/keys"
	@test -x "$(BUILT)/deck-plugin-sound" || \
		{ echo "make install-files: no deck-plugin-sound in BUILT='$(BUILT)'; run make install, which builds it" >&2; exit 1; }
	install -d "$(DESTDIR)$(PLUGIN_DIR)/sound"
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deck-plugin-sound" "$(DESTDIR)$(PLUGIN_DIR)/sound/deck-plugin-sound"
	install -m 644 plugins/sound/plugin.yaml "$(DESTDIR)$(PLUGIN_DIR)/sound/plugin.yaml"
	install -m 755 plugins/sound/sound "$(DESTDIR)$(PLUGIN_DIR)/sound/sound"
	install -m 755 -s --strip-program="$(STRIP)" "$(BUILT)/deck-plugin-obs" "$(DESTDIR)$(PLUGIN_DIR)/obs/deck-plugin-obs"
	install -m 644 plugins/obs/plugin.yaml "$(DESTDIR)$(PLUGIN_DIR)/obs/plugin.yaml"
	install -m 755 plugins/obs/obs "$(DESTDIR)$(PLUGIN_DIR)/obs/obs"
	rm -rf "$(DESTDIR)$(WEB_DIR)" && install -d "$(DESTDIR)$(WEB_DIR)"
	# The web app as deckd serves it: its tests (Apps/web/test) stay behind.
	if [ -d Apps/web ]; then cp -R Apps/web/. "$(DESTDIR)$(WEB_DIR)/" && rm -rf "$(DESTDIR)$(WEB_DIR)/test" && \
		chmod -R u=rwX,go=rX "$(DESTDIR)$(WEB_DIR)"; fi
	"$(BUILT)/deckctl" completion bash > "$(DESTDIR)$(BASH_COMPLETION_DIR)/deckctl.tmp"
	mv "$(DESTDIR)$(BASH_COMPLETION_DIR)/deckctl.tmp" "$(DESTDIR)$(BASH_COMPLETION_DIR)/deckctl"
	sed 's|@BINDIR@|$(BINDIR)|g' Support/deckd.service.in > "$(DESTDIR)$(SYSTEMD_USER_DIR)/deckd.service.tmp"
	mv "$(DESTDIR)$(SYSTEMD_USER_DIR)/deckd.service.tmp" "$(DESTDIR)$(SYSTEMD_USER_DIR)/deckd.service"
	@chmod 644 "$(DESTDIR)$(BASH_COMPLETION_DIR)/deckctl" "$(DESTDIR)$(SYSTEMD_USER_DIR)/deckd.service"
	@paths="$$($(UNIT_PATHS) 2>/dev/null)"; \
	if [ -z "$(DESTDIR)" ] && [ -n "$$paths" ] && ! printf '%s\n' "$$paths" | grep -qx "$(SYSTEMD_USER_DIR)"; then \
		echo "installed deckd and deckctl in $(BINDIR), the example plugins in $(PLUGIN_DIR)."; \
		echo "note: systemd does not look for user units in $(SYSTEMD_USER_DIR); link the unit, then start the host:"; \
		echo "  systemctl --user link $(SYSTEMD_USER_DIR)/deckd.service"; \
		echo "  systemctl --user start deckd"; \
		echo "(to have it start at every login, install with a PREFIX systemd searches, such as the default ~/.local)"; \
	else \
		if [ -z "$(DESTDIR)" ]; then systemctl --user daemon-reload >/dev/null 2>&1 || true; fi; \
		echo "installed deckd and deckctl in $(BINDIR), the example plugins in $(PLUGIN_DIR);"; \
		echo "start the host now and at every login with:"; \
		echo "  systemctl --user enable --now deckd"; \
	fi

## uninstall: remove exactly the files install put (stopping and disabling deckd.service first if it is that unit)
uninstall:
	@unit="$(DESTDIR)$(SYSTEMD_USER_DIR)/deckd.service"; \
	if [ -z "$(DESTDIR)" ] && [ -f "$$unit" ] && command -v systemctl >/dev/null 2>&1 && \
	    [ "$$(systemctl --user show -P FragmentPath deckd.service 2>/dev/null)" = "$$unit" ]; then \
		systemctl --user disable --now deckd.service >/dev/null 2>&1 || true; \
	fi
	rm -f $(INSTALLED_FILES)
	@# Each plugin folder it made (when empty), then the plugins folder itself.
	@for d in $(sort $(dir $(INSTALLED_PLUGIN_FILES))); do rmdir "$(DESTDIR)$(PLUGIN_DIR)/$$d" 2>/dev/null || true; done
	@rmdir "$(DESTDIR)$(PLUGIN_DIR)" 2>/dev/null || true
	rm -rf "$(DESTDIR)$(WEB_DIR)"
	@# share/deckd, which install made for the two above, when nothing else is in it.
	@rmdir "$(DESTDIR)$(PREFIX)/share/deckd" 2>/dev/null || true
	@if [ -z "$(DESTDIR)" ]; then systemctl --user daemon-reload >/dev/null 2>&1 || true; fi

## fuzz: build the fuzz targets (one libFuzzer + ASan binary, .build-fuzz/debug/deck-fuzz), then run each for FUZZ_SECONDS (default 60) at low priority;
## a crash stops with its input in .build-fuzz/campaign/TARGET-crashes/ (docs/reliability.md)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := protocol json profile manifest snapshot plugin-message http-head websocket pairing
FUZZ_TARGETS += media-metadata
FUZZ_TARGETS += face-image
FUZZ_TARGETS += journal
# One -sanitize flag with both: two -Xswiftc -sanitize flags build without coverage (the last wins).
FUZZ_BUILD    = DECK_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
# The Swift runtime's crash handler reads the crashed process's memory, which ASan reports as an error of its own.
FUZZ_ENV     := SWIFT_BACKTRACE=enable=no
fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do Fuzz/campaign.sh $$target $(FUZZ_SECONDS) || exit 1; done

fuzz-build: setup
	$(FUZZ_BUILD) --product deck-fuzz

## fuzz-regress: each fuzz target once over Fuzz/Corpus/TARGET and Fuzz/Crashes/TARGET (part of make test)
fuzz-regress: fuzz-build
	@for target in $(FUZZ_TARGETS); do \
		crashes=$$([ -d Fuzz/Crashes/$$target ] && echo Fuzz/Crashes/$$target); \
		$(FUZZ_ENV) .build-fuzz/debug/deck-fuzz $$target -runs=0 Fuzz/Corpus/$$target $$crashes 2>.build-fuzz/regress-$$target.log \
			&& echo "fuzz-regress: $$target: $$(find Fuzz/Corpus/$$target $$crashes -type f | wc -l) inputs, no crash, property holds" \
			|| { tail -40 .build-fuzz/regress-$$target.log; echo "fuzz-regress: $$target failed (.build-fuzz/regress-$$target.log)"; exit 1; }; \
	done

## sanitize: the whole Swift suite under AddressSanitizer (with leak checking), then under ThreadSanitizer,
## each in its own build folder (.build-asan, .build-tsan) so .build is untouched (docs/reliability.md)
sanitize: sanitize-address sanitize-thread

# DECK_SANITIZER tells the tests which bounds do not hold under it (FloodTests' memory).
ASAN_ENV := $(FUZZ_ENV) DECK_SANITIZER=address ASAN_OPTIONS=detect_leaks=1:suppressions=$(CURDIR)/Support/sanitizers/asan.supp
sanitize-address: setup
	@# The leak suppression's proof: still a report without it, none with it.
	@mkdir -p .build-asan && $(SWIFTC) -sanitize=address Support/sanitizers/EmptyReadProof.swift -o .build-asan/empty-read-proof
	@! $(ASAN_ENV) .build-asan/empty-read-proof >/dev/null 2>&1 || \
		{ echo "sanitize-address: LeakSanitizer no longer reports EmptyReadProof.swift; drop leak:readBytesFromFile in Support/sanitizers/lsan.supp"; exit 1; }
	$(ASAN_ENV) LSAN_OPTIONS=suppressions=$(CURDIR)/Support/sanitizers/lsan.supp .build-asan/empty-read-proof
	$(SWIFT) build --build-tests --scratch-path .build-asan --sanitize=address
	$(ASAN_ENV) LSAN_OPTIONS=suppressions=$(CURDIR)/Support/sanitizers/lsan.supp $(SWIFT) test --skip-build --scratch-path .build-asan --sanitize=address

# DECK_SANITIZER tells the tests which can not run under it (FileSizeLimitTests, FloodTests' memory bound).
TSAN_ENV := $(FUZZ_ENV) DECK_SANITIZER=thread
TSAN_SUPP := suppressions=$(CURDIR)/Support/sanitizers/tsan.supp exitcode=66
sanitize-thread: setup
	@# The suppression's proof: MutexProof is reported without it and not with it; RaceProof (a real race) is still reported with it.
	@mkdir -p .build-tsan && $(SWIFTC) -sanitize=thread Support/sanitizers/MutexProof.swift -o .build-tsan/mutex-proof \
		&& $(SWIFTC) -sanitize=thread Support/sanitizers/RaceProof.swift -o .build-tsan/race-proof
	@! $(FUZZ_ENV) TSAN_OPTIONS=exitcode=66 .build-tsan/mutex-proof >/dev/null 2>&1 || \
		{ echo "sanitize-thread: TSan no longer reports MutexProof.swift; drop the suppression in Support/sanitizers/tsan.supp"; exit 1; }
	$(TSAN_ENV) TSAN_OPTIONS="$(TSAN_SUPP)" .build-tsan/mutex-proof
	@! $(TSAN_ENV) TSAN_OPTIONS="$(TSAN_SUPP)" .build-tsan/race-proof >/dev/null 2>&1 || \
		{ echo "sanitize-thread: Support/sanitizers/tsan.supp hides the real race in RaceProof.swift"; exit 1; }
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize=thread
	$(TSAN_ENV) TSAN_OPTIONS="$(TSAN_SUPP) halt_on_error=1" $(SWIFT) test --skip-build --scratch-path .build-tsan --sanitize=thread

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
	rm -rf Examples/DeviceApp/.build
