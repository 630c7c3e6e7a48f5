// swift-tools-version: 6.2
// A device app's touch logic and wire messages, reusing the deck's device
// modules and nothing of the host: proof that DeckModel, DeckGeometry,
// DeckGestures and DeckProtocol stand on their own.
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
                .product(name: "DeckProtocol", package: "deck"),
            ],
            path: "Sources/DeviceApp",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
