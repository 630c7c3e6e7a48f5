import DeckTestSupport
import Foundation

/// Runs python3 once over a whole batch (spawning it per case would make the
/// tests slow): the script reads JSON lines from the file named by argv[1]
/// and prints one JSON line per input line.
enum Python {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(script: String, lines: [String]) throws -> [String] {
        let folder = try TemporaryDirectory(prefix: "profiles-python")
        defer { folder.remove() }
        let scriptURL = folder.appending("check.py")
        let inputURL = folder.appending("input.jsonl")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        try (lines.joined(separator: "\n") + "\n").write(to: inputURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path, inputURL.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a full pipe would block python forever.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 failed (\(process.terminationStatus)): \(errorText) — is PyYAML installed? `make setup` installs it")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// A JSON string literal for `text`.
    static func json(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
