import DeckModel
import DeckSnapshots
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

@Suite("kill -9 while writing")
struct TortureTests {
    /// What `deck-snapshot-torture loop` writes for `revision`: every button is
    /// named `r<revision> …` and there are 3 + revision % 5 pages before the empty one.
    func holdsRevision(_ snapshot: Snapshot) -> Bool {
        let revision = snapshot.info.revision
        return snapshot.info.generation == revision
            && snapshot.layout.pages.count == 3 + revision % 5 + 1
            && snapshot.layout.buttonCount > 0
            && snapshot.layout.placedButtons.allSatisfy { $0.button.name.hasPrefix("r\(revision) p") }
    }

    @Test("every generation reported before SIGKILL reads back intact, nothing is half-written, numbering goes on")
    func killNine() throws {
        let helper = try BuiltProducts.path("deck-snapshot-torture")
        let sandbox = try Sandbox("torture")
        var random = SeededGenerator(seed: 0xDEC4_5EED)
        var reported: [Int] = []
        for round in 0..<50 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: helper)
            process.arguments = ["loop", sandbox.state, "default"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.reap()
            }
            let lines = LineReader(pipe.fileHandleForReading)
            try #require(lines.next() == "ready", "round \(round): the helper did not start")
            // Odd rounds first wait for a few writes, so the test always gets
            // somewhere even on a slow disk; every round then kills at a random moment.
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
                #expect(first > (reported.last ?? 0), "round \(round)")
            }
            reported += generations

            let names = sandbox.files()
            #expect(!names.contains { $0.hasSuffix(".corrupt") }, "round \(round)")
            let finals = Set(names.compactMap { $0.hasSuffix(".json.gz") ? Int($0.prefix(10)) : nil })
            #expect(Set(generations).isSubset(of: finals), "round \(round): a reported generation is missing")
        }
        try #require(reported.count >= 25, "too few writes to mean anything: \(reported.count)")

        let store = try sandbox.open(keep: 1_000_000)
        let newest = try store.newest(profile: "default")
        #expect(newest.notices.isEmpty)
        let top = try #require(newest.snapshot?.info.generation)
        #expect(top >= reported.last ?? 0)
        // Every file under a final name is whole, gap-free from 1, and holds its own revision.
        #expect(sandbox.files() == (1...top).map { String(format: "%010d.json.gz", $0) })
        for generation in 1...top {
            let snapshot = try store.read(profile: "default", generation: generation)
            #expect(holdsRevision(snapshot), "generation \(generation) holds the wrong layout")
        }
        #expect(try store.write(sampleEntry(top + 1)).written.map(\.generation) == [top + 1])
    }
}
