import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// deckd under a file-size limit (`ulimit -f`, systemd's `LimitFSIZE=`): a
/// snapshot that would pass it must fail like a full disk (EFBIG), never end
/// the host with SIGXFSZ, and the programs deckd starts get the signal back.
///
/// Not under ThreadSanitizer (`make sanitize-thread` sets DECK_SANITIZER): its
/// runtime dies of SIGBUS as a deckd starts under `ulimit -f 16` (even
/// `deckd --help`), so there is no deckd to test (docs/reliability.md).
@Suite("A file-size limit: a write past it fails cleanly and deckd lives",
       .disabled(if: ProcessInfo.processInfo.environment["DECK_SANITIZER"] == "thread",
                 "the ThreadSanitizer runtime cannot start under ulimit -f 16"))
struct FileSizeLimitTests {
    /// Starts deckd with `ulimit -f 16`: 8 KiB in dash's (and POSIX bash's)
    /// 512-byte blocks, 16 KiB in bash's. The layouts below are far on either side.
    static let limited = ["/bin/sh", "-c", "ulimit -f 16 && exec \"$@\"", "sh"]

    /// Letters and digits that deflate does not shrink much (about 6 bits each).
    static func noise(_ count: Int, seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<count).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
    }

    static func actionEvent(_ message: HostMessage) -> ActionOutcome? {
        if case .event(.action(_, _, _, _, let outcome, _)) = message { outcome } else { nil }
    }

    @Test func aStartingLayoutPastTheLimitIsExitOneWithTheReasonNotADeathBySIGXFSZ() throws {
        // About 60 KB of noise: its first snapshot cannot be written under the limit.
        let buttons = (0..<12).map { "      \($0): {name: B\($0), action: {run: \"echo \(Self.noise(5000, seed: UInt64($0)))\"}}" }
        let host = try HostProcess(files: ["default.yaml": "pages:\n  - buttons:\n" + buttons.joined(separator: "\n") + "\n"])
        host.launcher = Self.limited
        #expect(try host.runToExit() == 1, "\(host.log)")
        #expect(host.log.contains("could not save the starting layout"), "\(host.log)")
        #expect(host.log.contains("(EFBIG)"), "\(host.log)")
    }

    @Test func anEditPastTheLimitIsRefusedTheHostServesOnAndActionsGetSIGXFSZBack() throws {
        let host = try HostProcess(files: [:])
        try host.write("default.yaml", """
            pages:
              - buttons:
                  0: {name: Signals, action: {run: "grep SigIgn /proc/self/status > ignored.txt", cwd: "\(host.root.path)"}}
            """)
        host.launcher = Self.limited
        try host.start()
        let a = try host.device("a")
        let b = try host.device("b")
        let big = DeckButton(name: "Big", action: .run(command: "echo " + Self.noise(60_000, seed: 7)))
        let reply = try a.request(.setButton(page: 0, index: 1, button: big))
        guard case .error(_, .internal, let message, _) = reply else { Issue.record("\(reply)"); return }
        #expect(message.contains("(EFBIG)") && message.hasSuffix("nothing changed"), "\(message)")
        let (revision, layout) = try b.nextLayout()
        #expect(revision == b.welcome?.revision && layout == b.welcomeLayout)
        // The host goes on; an edit that fits is written.
        let small = DeckButton(name: "Small", action: .run(command: "true"))
        #expect(try a.expectOK(.setButton(page: 0, index: 1, button: small)) == (b.welcome?.revision ?? 0) + 1)

        // deckd ignores SIGXFSZ (so that a write fails with EFBIG instead); a
        // program it starts must not inherit that.
        let control = try host.controlClient()
        try control.expectOK(.subscribe)
        try a.expectOK(.press(page: 0, index: 0, button: nil, phase: .tap))
        #expect(try Self.actionEvent(control.next(where: { Self.actionEvent($0) != nil })) == .exited(status: 0))
        let line = try String(contentsOfFile: host.root.path + "/ignored.txt", encoding: .utf8)
        let field = line.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let mask = try #require(UInt64(field, radix: 16), "\(line)")
        #expect(mask & (1 << UInt64(SIGXFSZ - 1)) == 0, "the action ignores SIGXFSZ: \(line)")
        #expect(mask & (1 << UInt64(SIGPIPE - 1)) == 0, "the action ignores SIGPIPE: \(line)")
    }
}
