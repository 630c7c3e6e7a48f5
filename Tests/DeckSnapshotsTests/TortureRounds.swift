import DeckTestSupport
import Foundation
import Glibc
import Testing

/// Lines from a child's standard output, read as they come.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next whole line, waiting for it; nil at end of file.
    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffer.append(more)
        }
    }

    /// Every remaining whole line up to end of file; a last line without its
    /// newline was cut off by the kill and is not counted.
    func rest() -> [String] {
        buffer.append(handle.readDataToEndOfFile())
        var lines: [String] = []
        while let line = next() { lines.append(line) }
        return lines
    }
}

/// The kill -9 rounds TortureTests and JournalTortureTests share: `rounds`
/// times, `deck-snapshot-torture MODE STATE default` is started, waited on
/// until `ready`, and killed with SIGKILL at a random moment (odd rounds
/// first wait for a few writes, so the test always gets somewhere even on a
/// slow disk). Each round's reported generations must be gap-free and above
/// every earlier round's; `checkRound` sees them after the kill. Returns
/// every generation reported, in order.
func killNineRounds(mode: String, sandbox: Sandbox, seed: UInt64, rounds: Int,
                    checkRound: (_ round: Int, _ generations: [Int]) -> Void = { _, _ in }) throws -> [Int] {
    let helper = try BuiltProducts.path("deck-snapshot-torture")
    var random = SeededGenerator(seed: seed)
    var reported: [Int] = []
    for round in 0..<rounds {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = [mode, sandbox.state, "default"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.reap()
        }
        let lines = LineReader(pipe.fileHandleForReading)
        try #require(lines.next() == "ready", "round \(round): the helper did not start")
        var early: [String] = []
        if round % 2 == 1 {
            for _ in 0..<Int.random(in: 1...3, using: &random) { early += lines.next().map { [$0] } ?? [] }
        }
        usleep(UInt32.random(in: 0...(round % 2 == 1 ? 3_000 : 15_000), using: &random))
        kill(process.processIdentifier, SIGKILL)
        process.reap()
        #expect(process.terminationReason == .uncaughtSignal, "round \(round): the helper stopped by itself")
        let generations = (early + lines.rest()).compactMap(Int.init)
        if let first = generations.first {
            // Gap-free within a round, and never below what an earlier round reported.
            #expect(generations == Array(first..<(first + generations.count)), "round \(round)")
            #expect(first > (reported.last ?? 0), "round \(round): a generation was handed out twice")
        }
        reported += generations
        checkRound(round, generations)
    }
    return reported
}
