import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// A 15 MB profile (or one 9 MB name) loaded, and its layout did not fit a
/// client's 8 MiB output queue: every device and `deckctl status` was closed,
/// forever after. A profile whose layout is larger than edits may make it
/// (`maxLayoutBytes`, 2 MiB) is refused at load with a problem at the file.
@Suite("A profile too big to send")
struct LayoutBoundTests {
    static func huge(_ name: String) -> String {
        "name: default\npages:\n  - buttons:\n      0: {name: \(name), action: {page: next}}\n"
    }

    @Test func aSaveTooBigToSendIsAProblemAndTheLiveLayoutStays() throws {
        let host = try startedHost()
        let device = try host.device()
        let live = device.welcomeLayout
        try host.write("default.yaml", Self.huge(String(repeating: "n", count: 3 << 20)))
        // A generous bound: reading 3 MB of YAML takes seconds under the sanitizers.
        #expect(host.waitForLog("more than the 2 MiB the host sends to every device", timeout: .seconds(90)))
        let control = try host.controlClient()
        let status = try control.status()
        let problem = try #require(status.problems.first { $0.file == "default.yaml" })
        #expect(problem.line == 1 && problem.column == 1)
        #expect(problem.message.hasPrefix("the layout would be 31"))
        #expect(try host.device().welcomeLayout == live)
        // The device that was there is still served.
        let pong = try device.request(.ping)
        guard case .pong = pong else { Issue.record("\(pong)"); return }
        let reply = try control.request(.reload)
        guard case .error(_, .invalid, _, let problems) = reply else { Issue.record("\(reply)"); return }
        #expect(problems.map(\.file) == ["default.yaml"])
    }

    @Test func atStartAProfileTooBigToSendIsNotServed() throws {
        let host = try HostProcess(files: ["default.yaml": Self.huge(String(repeating: "n", count: 3 << 20)),
                                           "small.yaml": deskYAML.replacingOccurrences(of: "name: default", with: "name: small")])
        try host.start()
        let control = try host.controlClient()
        let status = try control.status()
        #expect(status.profile == "small")
        #expect(status.problems.contains { $0.file == "default.yaml" && $0.message.contains("2 MiB") })
    }
}
