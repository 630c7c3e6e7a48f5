import DeckTestSupport
import DeckTransport
import Foundation
import Testing

/// docs/protocol.md ends with a session people paste into `socat` against a
/// first `make run`. This replays it, line for line, against a real deckd
/// serving the repository's own `layouts/` and `plugins/`, so the document
/// cannot drift from what the host says.
@Suite("docs/protocol.md's example session")
struct DocsExampleTests {
    /// One line of the session: sent (`>`) or expected (`<`), on the device
    /// connection or the control one.
    struct Step {
        var control: Bool
        var sent: Bool
        var text: String
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `>`/`<` lines of the "Example session" section's text blocks; a
    /// block that opens with `UNIX-CONNECT` is the control socket's.
    static func steps() throws -> [Step] {
        let document = try String(contentsOf: repository.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        guard let start = document.range(of: "## Example session"),
              let end = document.range(of: "\n## ", range: start.upperBound..<document.endIndex) else {
            throw HarnessError("docs/protocol.md has no '## Example session' section")
        }
        var steps: [Step] = []
        var control = false
        var inBlock = false
        for line in document[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                control = false
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") { control = line.contains("UNIX-CONNECT") }
            if line.hasPrefix("> ") { steps.append(Step(control: control, sent: true, text: String(line.dropFirst(2)))) }
            if line.hasPrefix("< ") { steps.append(Step(control: control, sent: false, text: String(line.dropFirst(2)))) }
        }
        return steps
    }

    /// Whether `received` is what the document shows: exactly, but for a
    /// layout written `{…}` (any layout; it is always the last field) and a
    /// line ending `,…}` (the rest of the fields, whatever they are).
    static func matches(_ received: String, _ shown: String) -> Bool {
        if shown.hasSuffix(",…}") { return received.hasPrefix(String(shown.dropLast(2))) }
        if let cut = shown.range(of: "\"layout\":{…}") {
            // The layout shortened; what follows it (`holdSlots`) is shown whole.
            let head = String(shown[..<cut.upperBound].dropLast("{…}".count))
            let tail = "}" + shown[cut.upperBound...]
            return received.hasPrefix(head) && received.hasSuffix(tail)
        }
        return received == shown
    }

    @Test func theSessionRunsAsWritten() throws {
        let steps = try Self.steps()
        #expect(steps.count >= 20, "the example lost its lines: \(steps.count)")
        #expect(steps.contains { $0.control } && steps.contains { !$0.control })

        var files: [String: String] = [:]
        let layouts = Self.repository.appendingPathComponent("layouts")
        for name in try FileManager.default.contentsOfDirectory(atPath: layouts.path) where name.hasSuffix(".yaml") {
            files[name] = try String(contentsOf: layouts.appendingPathComponent(name), encoding: .utf8)
        }
        let host = try HostProcess(files: files)
        try host.start(extra: ["--plugins", Self.repository.appendingPathComponent("plugins").path])
        let device = try LineClient(connectingTo: .tcp(host: "127.0.0.1", port: host.port))
        let control = try LineClient(connectingTo: .unix(path: host.control))
        for step in steps {
            let connection = step.control ? control : device
            if step.sent {
                try connection.send(step.text + "\n")
                continue
            }
            // A plugin starts in its own time, so its first title may come a while after the welcome.
            let line = try connection.readLine(timeout: .seconds(15))
            let received = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .newlines)
            #expect(Self.matches(received, step.text), "docs/protocol.md shows\n\(step.text)\nthe host sent\n\(received)")
        }
    }
}
