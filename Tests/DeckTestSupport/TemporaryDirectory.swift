import Foundation

/// A fresh folder for one test, removed when the value is released or when
/// ``remove()`` is called. Unique per test, so parallel tests never share files.
public final class TemporaryDirectory: Sendable {
    /// The folder's URL.
    public let url: URL
    /// The folder's path.
    public var path: String { url.path }

    /// Creates `/tmp/deck-<prefix>-<random>/`, private to this user (mode 0700).
    public init(prefix: String = "test") throws {
        let name = "deck-\(prefix)-\(UUID().uuidString.prefix(8))"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// A path inside the folder.
    public func appending(_ component: String) -> URL { url.appendingPathComponent(component) }

    /// Removes the folder and everything in it (read-only folders included).
    public func remove() {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        if let items = FileManager.default.enumerator(atPath: path) {
            for case let item as String in items {
                _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.appendingPathComponent(item).path)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}
