import Foundation

/// The project's own traces, kept next to this file in `Traces/`.
enum TraceFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Traces")

    /// Every trace file's name, sorted.
    static let names: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
