import DeckModel
import DeckProtocol
import DeckTestSupport
import DeckTransport
import Foundation
import Testing

/// Clients flooding the host must not cost a healthy client its connection
/// or its answers (issue 18 §3). The latency figure is `make bench`'s; here
/// the behaviour: answered, and not dropped.
@Suite("Floods and a healthy client")
struct FloodTests {
    /// A profile whose layout is some 40 KB of JSON, so each broadcast counts.
    static let wide: String = {
        var text = "name: default\nslotsPerPage: 12\npages:\n"
        for page in 0..<30 {
            text += "  - buttons:\n"
            for slot in 0..<12 { text += "      \(slot): {name: Button \(page)-\(slot) with a long name, action: {run: \"true\"}}\n" }
        }
        return text
    }()

    /// One refused edit per line, each followed by a full layout to every
    /// device: a healthy device that reads all along was closed as "did not
    /// read its output" (one layout queued per refusal).
    @Test func refusalFloodsDoNotDropAHealthyReader() throws {
        let host = try HostProcess(files: ["default.yaml": Self.wide])
        try host.start()
        let healthy = try host.device("healthy")
        let flooders = try (0..<4).map { try host.device("flooder \($0)") }
        let refusal = try ClientMessage(id: .int(1), .clearButton(page: 0, index: 99, expecting: nil)).line() + [0x0A]
        let burst = Array(repeating: refusal, count: 3_000).flatMap { $0 }
        let done = DispatchSemaphore(value: 0)
        for flooder in flooders {
            // Flooders read what they get (or they would be closed for not reading, ending the flood).
            Thread.detachNewThread {
                while (try? flooder.line.readLine(timeout: .seconds(20))) != nil {}
            }
            Thread.detachNewThread {
                try? flooder.line.write(burst, timeout: .seconds(60))
                done.signal()
            }
        }
        // The healthy device reads all the time until every flood is written.
        var layouts = 0
        var finished = 0
        while finished < flooders.count {
            if done.wait(timeout: .now()) == .success { finished += 1; continue }
            if case .layout = try? healthy.next(timeout: .milliseconds(100)) { layouts += 1 }
        }
        let pong = try healthy.request(.ping, timeout: .seconds(30))
        guard case .pong = pong else { Issue.record("\(pong)"); return }
        layouts += healthy.backlog.filter { if case .layout = $0 { true } else { false } }.count
        let left = host.log.split(separator: "\n").filter { $0.contains(" healthy (") && $0.contains(") left") }
        #expect(left.isEmpty, "the healthy device was closed: \(left)")
        #expect(layouts < 12_000, "layouts not yet written were replaced, not queued: \(layouts)")
    }
}
