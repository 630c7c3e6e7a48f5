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
        .library(name: "DeckProfiles", targets: ["DeckProfiles"]),
        .library(name: "DeckControl", targets: ["DeckControl"]),
        .executable(name: "deckctl", targets: ["deckctl"]),
    ],
    targets: [
        // MARK: Modules a device app reuses (Foundation at most)
        .target(name: "DeckModel", path: "Modules/DeckModel", swiftSettings: strict),

        // MARK: Host modules
        .target(name: "DeckProfiles", dependencies: ["DeckModel", "CYAML", "CZlib"],
                path: "Modules/DeckProfiles", swiftSettings: strict),
        .target(name: "DeckControl", dependencies: ["DeckProfiles"],
                path: "Modules/DeckControl", swiftSettings: strict),

        // MARK: Apps (thin mains over a module)
        .executableTarget(name: "deckctl", dependencies: ["DeckControl"],
                          path: "Apps/deckctl", swiftSettings: strict),

        // MARK: System libraries (module map + shim header; imported with `internal import`)
        .systemLibrary(name: "CZlib", path: "Modules/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CYAML", path: "Modules/CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),

        // MARK: Tests
        .target(name: "DeckTestSupport", dependencies: ["DeckModel"], path: "Tests/DeckTestSupport", swiftSettings: strict),
        .testTarget(name: "DeckModelTests", dependencies: ["DeckModel", "DeckTestSupport"],
                    path: "Tests/DeckModelTests", swiftSettings: strict),
        .testTarget(name: "DeckProfilesTests", dependencies: ["DeckProfiles", "DeckControl", "DeckTestSupport"],
                    path: "Tests/DeckProfilesTests", exclude: ["Fixtures"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
