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
        .library(name: "DeckSnapshots", targets: ["DeckSnapshots"]),
    ],
    targets: [
        // MARK: Modules a device app reuses (Foundation at most)
        .target(name: "DeckModel", path: "Modules/DeckModel", swiftSettings: strict),

        // MARK: Host modules
        .target(name: "DeckSnapshots", dependencies: ["DeckModel", "CZlib"],
                path: "Modules/DeckSnapshots", swiftSettings: strict),

        // MARK: System libraries (module map + shim header; imported with `internal import`)
        .systemLibrary(name: "CZlib", path: "Modules/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),

        // MARK: Tests
        .target(name: "DeckTestSupport", path: "Tests/DeckTestSupport", swiftSettings: strict),
        .testTarget(name: "DeckModelTests", dependencies: ["DeckModel", "DeckTestSupport"],
                    path: "Tests/DeckModelTests", swiftSettings: strict),
        // Not a user-facing tool: the kill -9 durability test runs it and kills it mid-write.
        .executableTarget(name: "deck-snapshot-torture", dependencies: ["DeckSnapshots", "DeckModel"],
                          path: "Tests/DeckSnapshotTorture", swiftSettings: strict),
        .testTarget(name: "DeckSnapshotsTests",
                    dependencies: ["DeckSnapshots", "DeckModel", "DeckTestSupport", "deck-snapshot-torture"],
                    path: "Tests/DeckSnapshotsTests", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
