// swift-tools-version: 6.2
// The deck package: the host daemon, its control CLI, and the modules a device
// app reuses. Every module is also a library product so another package can
// depend on one module alone.
import PackageDescription

/// Settings every target shares: Swift 6 language mode comes from the tools
/// version; warnings are errors so CI never lets one through.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "deck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DeckModel", targets: ["DeckModel"]),
        .library(name: "DeckGeometry", targets: ["DeckGeometry"]),
        .library(name: "DeckGestures", targets: ["DeckGestures"]),
        .library(name: "DeckProtocol", targets: ["DeckProtocol"]),
        .library(name: "DeckGestureTraces", targets: ["DeckGestureTraces"]),
        .library(name: "LockGate", targets: ["LockGate"]),
        .library(name: "DeckSnapshots", targets: ["DeckSnapshots"]),
        .library(name: "DeckProfiles", targets: ["DeckProfiles"]),
        .library(name: "DeckCommandLine", targets: ["DeckCommandLine"]),
        .library(name: "DeckControl", targets: ["DeckControl"]),
        .executable(name: "deckctl", targets: ["deckctl"]),
        .executable(name: "deck-gestures", targets: ["deck-gestures"]),
        .library(name: "DeckTransport", targets: ["DeckTransport"]),
        .library(name: "DeckPluginKit", targets: ["DeckPluginKit"]),
        .library(name: "DeckPlugins", targets: ["DeckPlugins"]),
        .executable(name: "deck-plugin-counter", targets: ["deck-plugin-counter"]),
        .executable(name: "deck-plugin-keys", targets: ["deck-plugin-keys"]),
        .library(name: "DeckTLS", targets: ["DeckTLS"]),
        .library(name: "DeckWeb", targets: ["DeckWeb"]),
        .library(name: "DeckDigest", targets: ["DeckDigest"]),
        .library(name: "DeckHost", targets: ["DeckHost"]),
        .executable(name: "deckd", targets: ["deckd"]),
        // MARK: DeckDBus (product)
        .library(name: "DeckDBus", targets: ["DeckDBus"]),
        // MARK: plugin media (product)
        .executable(name: "deck-plugin-media", targets: ["deck-plugin-media"]),
        // MARK: plugin sound
        .executable(name: "deck-plugin-sound", targets: ["deck-plugin-sound"]),
        // MARK: plugin obs (product)
        .executable(name: "deck-plugin-obs", targets: ["deck-plugin-obs"]),
    ],
    targets: [
        // MARK: Modules a device app reuses (Foundation at most)
        .target(name: "DeckModel", path: "Modules/DeckModel", swiftSettings: strict),
        .target(name: "DeckGeometry", dependencies: ["DeckModel"], path: "Modules/DeckGeometry", swiftSettings: strict),
        .target(name: "DeckGestures", dependencies: ["DeckGeometry", "DeckModel"], path: "Modules/DeckGestures",
                swiftSettings: strict),
        .target(name: "DeckProtocol", dependencies: ["DeckModel"], path: "Modules/DeckProtocol",
                swiftSettings: strict),
        // Trace files for DeckGestures (GESTURES.md §3): parsing, replay, comparison. Foundation only too.
        .target(name: "DeckGestureTraces", dependencies: ["DeckGestures", "DeckGeometry", "DeckModel"],
                path: "Modules/DeckGestureTraces", swiftSettings: strict),

        // The plugin side of PLUGINS.md §2: the message types (both directions) and a
        // runtime that makes a Swift plugin a few lines. No Foundation, no host module.
        .target(name: "DeckPluginKit", dependencies: ["DeckModel"], path: "Modules/DeckPluginKit",
                swiftSettings: strict),

        // MARK: Host modules
        .target(name: "LockGate", dependencies: ["DeckProtocol"], path: "Modules/LockGate", swiftSettings: strict),
        .target(name: "DeckSnapshots", dependencies: ["DeckModel", "CZlib", "CCRC32C"],
                path: "Modules/DeckSnapshots", swiftSettings: strict),
        .target(name: "DeckProfiles", dependencies: ["DeckModel", "CYAML", "CZlib"],
                path: "Modules/DeckProfiles", swiftSettings: strict),
        // deckctl's logic: the control-socket client, show's grid, watch, check.
        .target(name: "DeckControl",
                dependencies: ["DeckCommandLine", "DeckProfiles", "DeckProtocol", "DeckModel", "DeckTransport", "CQRencode",
                               "DeckPlugins"],
                path: "Modules/DeckControl", swiftSettings: strict),

        // MARK: Command-line tools (no deck module; the parser both deckd and deckctl use)
        .target(name: "DeckCommandLine", path: "Modules/DeckCommandLine", swiftSettings: strict),
        // Linux sockets for the host and tools; no other deck module.
        .target(name: "DeckTransport", dependencies: ["CLinux"], path: "Modules/DeckTransport", swiftSettings: strict),
        // TLS over OpenSSL as a state machine on memory buffers (SECURITY.md §2), and the host's certificates.
        .target(name: "DeckTLS", dependencies: ["DeckTransport", "COpenSSL"], path: "Modules/DeckTLS", swiftSettings: strict),
        // The host side of plugins: manifests, discovery, and supervision of plugin processes on the event loop.
        .target(name: "DeckPlugins",
                dependencies: ["DeckPluginKit", "DeckModel", "DeckProtocol", "DeckProfiles", "DeckTransport", "CLinux"],
                path: "Modules/DeckPlugins", swiftSettings: strict),
        // HTTP/1.1 for the web app's files and the WebSocket device protocol (WEB.md), on DeckTransport's loop; icons.
        .target(name: "DeckWeb", dependencies: ["DeckTransport", "DeckModel", "DeckDigest", "CHTTPParser", "CWslay", "CZlib"],
                path: "Modules/DeckWeb", swiftSettings: strict),
        // MARK: DeckDigest
        // SHA-1 and SHA-256 by nettle, shared by DeckWeb and the obs plugin (neither depends on the other).
        .target(name: "DeckDigest", dependencies: ["CNettle"], path: "Modules/DeckDigest", swiftSettings: strict),
        .testTarget(name: "DeckDigestTests", dependencies: ["DeckDigest"], path: "Tests/DeckDigestTests", swiftSettings: strict),
        // The daemon's composition: live layout, requests, group commit, profiles, tokens, runners.
        .target(name: "DeckHost",
                dependencies: ["DeckModel", "DeckProtocol", "DeckTransport", "LockGate", "DeckSnapshots", "DeckProfiles",
                               "DeckPlugins", "DeckPluginKit", "DeckCommandLine", "DeckTLS", "DeckWeb", "CLinux"],
                path: "Modules/DeckHost", swiftSettings: strict),

        // MARK: System libraries (module map + shim header; imported with `internal import`)
        .systemLibrary(name: "CZlib", path: "Modules/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CYAML", path: "Modules/CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Modules/COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"])]),
        // Header-only: SSE4.2's crc32 instruction for the journal's version-2 records (nothing to link).
        .systemLibrary(name: "CCRC32C", path: "Modules/CCRC32C"),
        // No pkg-config file for these three in Debian: linked by name.
        .systemLibrary(name: "CHTTPParser", path: "Modules/CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
        .systemLibrary(name: "CWslay", path: "Modules/CWslay", providers: [.apt(["libwslay-dev"])]),
        .systemLibrary(name: "CNettle", path: "Modules/CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        .systemLibrary(name: "CQRencode", path: "Modules/CQRencode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CSDBus", path: "Modules/CSDBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // Header only: epoll, eventfd, signalfd, accept4 and thread naming, which Glibc does not import.
        .systemLibrary(name: "CLinux", path: "Modules/CLinux"),

        // MARK: Apps (thin mains over a module)
        .executableTarget(name: "deckctl", dependencies: ["DeckControl"],
                          path: "Apps/deckctl", swiftSettings: strict),
        .executableTarget(name: "deckd", dependencies: ["DeckHost"], path: "Apps/deckd", swiftSettings: strict),
        .executableTarget(name: "deck-gestures", dependencies: ["DeckGestureTraces"], path: "Apps/deck-gestures",
                          swiftSettings: strict),
        // The example plugin of plugins/counter (run through its launcher script there).
        .executableTarget(name: "deck-plugin-counter", dependencies: ["DeckPluginKit", "DeckModel"],
                          path: "Apps/deck-plugin-counter", swiftSettings: strict),

        // MARK: plugin keys
        // Hotkeys and typed text (issue 25, docs/plugins.md): chord parsing and key planning, the XTest back end.
        .target(name: "KeysPlugin", dependencies: ["DeckPluginKit", "DeckModel", "CXKBCommon", "CXTest", "CUInput", "DeckDBus"],
                path: "plugins/keys/Sources/KeysPlugin", swiftSettings: strict),
        .executableTarget(name: "deck-plugin-keys", dependencies: ["KeysPlugin"],
                          path: "plugins/keys/Sources/deck-plugin-keys", swiftSettings: strict),
        .testTarget(name: "KeysPluginTests", dependencies: ["KeysPlugin", "DeckPluginKit", "DeckModel", "DeckDBus", "DeckTestSupport"],
                    path: "Tests/KeysPluginTests", exclude: ["Goldens"], swiftSettings: strict),
        .systemLibrary(name: "CXKBCommon", path: "Modules/CXKBCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(name: "CXTest", path: "Modules/CXTest", pkgConfig: "xtst", providers: [.apt(["libxtst-dev", "libx11-dev"])]),
        // Header only: the kernel's input_event and uinput ioctls, for the uinput back end.
        .systemLibrary(name: "CUInput", path: "Modules/CUInput"),

        // MARK: Benchmark (`make bench`; not a library: it measures the others)
        .target(name: "DeckBench",
                dependencies: ["DeckModel", "DeckProtocol", "DeckProfiles", "DeckSnapshots", "DeckTestSupport", "DeckTLS",
                               "CLinux"],
                path: "Modules/DeckBench", swiftSettings: strict),
        .executableTarget(name: "deck-bench", dependencies: ["DeckBench"], path: "Apps/deck-bench", swiftSettings: strict),

        // MARK: Fuzzing (docs/reliability.md)
        // Each fuzz target's property, as plain code: the libFuzzer binaries below
        // call it, and DeckFuzzTests run it over every corpus file in the normal build.
        .target(name: "DeckFuzz",
                dependencies: ["DeckModel", "DeckProtocol", "DeckProfiles", "DeckPlugins", "DeckPluginKit", "DeckSnapshots",
                               "DeckWeb", "CZlib",
                               "MediaPlugin", "DeckDBus"],
                path: "Modules/DeckFuzz", swiftSettings: strict),

        // MARK: plugin obs
        // OBS Studio over obs-websocket v5 (plugins/obs): a WebSocket client on wslay and nettle, its own poll loop.
        .target(name: "ObsPlugin", dependencies: ["DeckPluginKit", "DeckModel", "DeckDigest", "CWslay"],
                path: "plugins/obs/Sources/ObsPlugin", swiftSettings: strict),
        .executableTarget(name: "deck-plugin-obs", dependencies: ["ObsPlugin"], path: "plugins/obs/Sources/deck-plugin-obs",
                          swiftSettings: strict),
        .testTarget(name: "ObsPluginTests", dependencies: ["ObsPlugin", "DeckPluginKit", "DeckModel", "DeckDigest", "DeckPlugins",
                                                      "DeckProfiles", "DeckTestSupport"],
                    path: "Tests/ObsPluginTests", swiftSettings: strict),

        // MARK: Tests
        .target(name: "DeckTestSupport", dependencies: ["DeckModel", "DeckProtocol", "DeckTransport"],
                path: "Tests/DeckTestSupport", swiftSettings: strict),
        .testTarget(name: "DeckModelTests", dependencies: ["DeckModel", "DeckTestSupport"],
                    path: "Tests/DeckModelTests", swiftSettings: strict),
        .testTarget(name: "LockGateTests", dependencies: ["LockGate", "DeckProtocol"],
                    path: "Tests/LockGateTests", swiftSettings: strict),
        .testTarget(name: "DeckProtocolTests", dependencies: ["DeckProtocol", "DeckModel", "DeckTestSupport"],
                    path: "Tests/DeckProtocolTests", swiftSettings: strict),
        .testTarget(name: "DeckGeometryTests", dependencies: ["DeckGeometry", "DeckTestSupport"],
                    path: "Tests/DeckGeometryTests", swiftSettings: strict),
        .testTarget(name: "DeckGesturesTests",
                    dependencies: ["DeckGestures", "DeckGeometry", "DeckModel", "DeckTestSupport"],
                    path: "Tests/DeckGesturesTests", swiftSettings: strict),
        .testTarget(name: "DeckGestureTracesTests", dependencies: ["DeckGestureTraces", "DeckTestSupport"],
                    path: "Tests/DeckGestureTracesTests", exclude: ["Traces"], swiftSettings: strict),
        // Not a user-facing tool: the web engine's differential test (Apps/web/test) runs
        // DeckModel's and DeviceLayout's edits through it to compare the two engines' moves.
        .executableTarget(name: "deck-layout-replay", dependencies: ["DeckGestures", "DeckModel"],
                          path: "Tests/DeckLayoutReplay", swiftSettings: strict),
        // Not a user-facing tool: the kill -9 durability test runs it and kills it mid-write.
        .executableTarget(name: "deck-snapshot-torture", dependencies: ["DeckSnapshots", "DeckModel"],
                          path: "Tests/DeckSnapshotTorture", swiftSettings: strict),
        .testTarget(name: "DeckSnapshotsTests",
                    dependencies: ["DeckSnapshots", "DeckModel", "DeckTestSupport", "deck-snapshot-torture"],
                    path: "Tests/DeckSnapshotsTests", swiftSettings: strict),
        .testTarget(name: "DeckProfilesTests", dependencies: ["DeckProfiles", "DeckControl", "DeckTestSupport"],
                    path: "Tests/DeckProfilesTests", exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "DeckBenchTests", dependencies: ["DeckBench", "DeckProfiles", "DeckTestSupport", "deck-bench"],
                    path: "Tests/DeckBenchTests", swiftSettings: strict),
        .testTarget(name: "DeckPluginKitTests", dependencies: ["DeckPluginKit", "DeckModel", "DeckTestSupport"],
                    path: "Tests/DeckPluginKitTests", swiftSettings: strict),
        .testTarget(name: "DeckPluginsTests",
                    dependencies: ["DeckPlugins", "DeckPluginKit", "DeckModel", "DeckProtocol", "DeckTransport",
                                   "DeckTestSupport", "deck-plugin-counter"],
                    path: "Tests/DeckPluginsTests", exclude: ["SettingsFixtures"], swiftSettings: strict),
        .testTarget(name: "DeckHostTests",
                    dependencies: ["DeckHost", "DeckProtocol", "DeckModel", "DeckTransport", "DeckSnapshots", "DeckProfiles",
                                   "LockGate", "DeckTestSupport", "deckd"],
                    path: "Tests/DeckHostTests", swiftSettings: strict),
        .testTarget(name: "DeckCommandLineTests", dependencies: ["DeckCommandLine", "DeckTestSupport"],
                    path: "Tests/DeckCommandLineTests", swiftSettings: strict),
        .testTarget(name: "DeckControlTests",
                    dependencies: ["DeckControl", "DeckCommandLine", "DeckProtocol", "DeckModel", "DeckHost", "DeckTestSupport",
                                   "deckctl", "deckd", "deck-plugin-keys", "deck-plugin-obs"],
                    path: "Tests/DeckControlTests", exclude: ["Expected"], swiftSettings: strict),
        .testTarget(name: "DeckFuzzTests", dependencies: ["DeckFuzz"], path: "Tests/DeckFuzzTests",
                    swiftSettings: strict),
        .testTarget(name: "DeckTLSTests", dependencies: ["DeckTLS", "DeckTestSupport"],
                    path: "Tests/DeckTLSTests", swiftSettings: strict),
        .testTarget(name: "DeckWebTests", dependencies: ["DeckWeb", "DeckTransport", "DeckTestSupport"],
                    path: "Tests/DeckWebTests", swiftSettings: strict),
        // MARK: DeckDBus
        // D-Bus for plugins over sd-bus (docs/plugins.md, "D-Bus for plugins"): a connection for a poll loop,
        // one value type both ways, a bus thread and its mailbox. CSDBus stays behind `internal import`.
        .target(name: "DeckDBus", dependencies: ["CSDBus"], path: "Modules/DeckDBus", swiftSettings: strict),
        .testTarget(name: "DeckDBusTests", dependencies: ["DeckDBus", "DeckTestSupport"],
                    path: "Tests/DeckDBusTests", exclude: ["peer.py"], swiftSettings: strict),

        // MARK: plugin media
        // MPRIS over sd-bus (docs/plugins.md, "media"): the logic a test reaches, a thin main, its tests.
        .target(name: "MediaPlugin", dependencies: ["DeckPluginKit", "DeckModel", "DeckDBus", "CCurl"],
                path: "plugins/media/Sources/MediaPlugin", swiftSettings: strict),
        .executableTarget(name: "deck-plugin-media", dependencies: ["MediaPlugin"],
                          path: "plugins/media/Sources/deck-plugin-media", swiftSettings: strict),
        .testTarget(name: "MediaPluginTests",
                    dependencies: ["MediaPlugin", "DeckPluginKit", "DeckModel", "DeckDBus", "deck-plugin-media", "DeckTestSupport"],
                    path: "Tests/MediaPluginTests", swiftSettings: strict),
        // libcurl for the media plugin's http(s) album art (the OpenSSL flavour, like COpenSSL).
        .systemLibrary(name: "CCurl", path: "Modules/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),

        .testTarget(name: "DeckTransportTests", dependencies: ["DeckTransport", "DeckTestSupport"],
                    path: "Tests/DeckTransportTests", swiftSettings: strict),

        // MARK: plugin sound
        // Mute and volume over libpulse (plugins/sound); its logic in a library the tests reach.
        // Linked by name: libpulse.pc adds only -D_REENTRANT -pthread, flags SwiftPM refuses with a warning.
        .systemLibrary(name: "CPulse", path: "Modules/CPulse", providers: [.apt(["libpulse-dev"])]),
        .target(name: "SoundPlugin", dependencies: ["DeckPluginKit", "DeckModel", "CPulse"],
                path: "plugins/sound/Sources/SoundPlugin", swiftSettings: strict),
        .executableTarget(name: "deck-plugin-sound", dependencies: ["SoundPlugin", "DeckPluginKit"],
                          path: "plugins/sound/Sources/deck-plugin-sound", swiftSettings: strict),
        .testTarget(name: "SoundPluginTests",
                    dependencies: ["SoundPlugin", "DeckPluginKit", "DeckModel", "DeckProtocol", "DeckTestSupport",
                                   "deck-plugin-sound", "deckd"],
                    path: "Tests/SoundPluginTests", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer binary (`make fuzz`: `deck-fuzz TARGET …`), only when
// DECK_FUZZ=1: it needs `-sanitize=fuzzer`, which provides
// LLVMFuzzerRunDriver, so an ordinary build could not link it. `make fuzz`
// builds it in its own scratch path (.build-fuzz), so .build is never rebuilt.
if Context.environment["DECK_FUZZ"] == "1" {
    package.targets += [
        .target(name: "DeckFuzzDriver", dependencies: ["DeckFuzz"], path: "Fuzz/Driver", swiftSettings: strict),
        .executableTarget(name: "deck-fuzz", dependencies: ["DeckFuzzDriver"], path: "Fuzz/Main", swiftSettings: strict),
    ]
}
