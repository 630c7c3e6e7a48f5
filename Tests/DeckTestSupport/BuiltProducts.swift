import Foundation

/// Where the package's executables are, for end-to-end tests that start them.
///
/// The test runner is built into the same folder as every executable product
/// (`.build/<triple>/<config>/`), so the folder of the running test binary is
/// where `deckd`, `deckctl` and the test helpers are.
public enum BuiltProducts {
    /// The folder holding the running test binary and the package's executables.
    public static let directory: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On macOS the runner sits inside `deckPackageTests.xctest/Contents/MacOS`.
        while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
        return folder
    }()

    /// The path of the executable product `name`. Fails the calling test with
    /// a clear message when it was not built (run `swift build` first).
    public static func path(_ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw MissingProduct(name: name, folder: directory.path)
        }
        return url.path
    }

    /// A product that a test needs was not built.
    public struct MissingProduct: Error, CustomStringConvertible {
        /// The product's name.
        public let name: String
        /// Where it was looked for.
        public let folder: String
        /// What to do about it.
        public var description: String { "\(name) is not in \(folder); run `swift build` before the tests" }
    }
}
