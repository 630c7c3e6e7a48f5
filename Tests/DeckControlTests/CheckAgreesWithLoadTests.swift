import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Issue 18 §3: deckd refuses at load a profile whose layout is too big to
/// send (a problem at the file), and `deckctl check` said the same file was
/// fine. Both now ask the one check (`FileProblem.tooBigToSend`) with the
/// host's bound, and give the same problem.
@Suite("deckctl check agrees with deckd's load")
struct CheckAgreesWithLoadTests {
    static let small = "name: small\npages:\n  - buttons:\n      0: {name: Files, action: {open: \"~\"}}\n"

    /// One button whose name alone makes the layout's JSON `bytes` long.
    static func named(_ profile: String, bytes: Int) -> String {
        "name: \(profile)\npages:\n  - buttons:\n      0: {name: \(String(repeating: "n", count: bytes)), action: {page: next}}\n"
    }

    @Test func aProfileTooBigToSendIsAProblemToBoth() throws {
        let bound = DeckConstants.maximumLayoutBytes
        let files = ["default.yaml": Self.small, "big.yaml": Self.named("big", bytes: bound + 1),
                     "fits.yaml": Self.named("fits", bytes: bound - 4096)]
        let host = try HostProcess(files: files)
        try host.start()
        let reply = try host.controlClient().request(.status)
        guard case .status(_, let status) = reply else {
            Issue.record("status answered with \(reply)")
            return
        }
        let loaded = status.problems.map { "\($0.file):\($0.line):\($0.column): \($0.message)" }
        #expect(loaded.count == 1 && loaded.first?.contains("more than the 2 MiB the host sends to every device") == true,
                "\(loaded)")
        #expect(status.profiles.sorted() == ["fits", "small"])

        let paths = files.keys.sorted().map { host.layouts + "/" + $0 }
        let checked = DeckctlRun(["check"] + paths)
        #expect(checked.status == 65)
        // The same problem, named by the path given rather than the file in the folder.
        #expect(checked.out == loaded.map { host.layouts + "/" + $0 })
    }
}
