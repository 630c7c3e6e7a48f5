// swift-tools-version: 6.2
// A device app's touch logic, reusing the deck's device modules and nothing
// of the host: proof that DeckModel, DeckGeometry and DeckGestures stand on
// their own. (DeckProtocol joins them once it exists.)
import PackageDescription

let package = Package(
    name: "DeviceApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The deck package, by path. Only the products named below are built.
        .package(name: "deck", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "DeviceApp",
            dependencies: [
                .product(name: "DeckModel", package: "deck"),
                .product(name: "DeckGeometry", package: "deck"),
                .product(name: "DeckGestures", package: "deck"),
            ],
            path: "Sources/DeviceApp",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
