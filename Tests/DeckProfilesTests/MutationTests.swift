import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

/// Broken input of every shape must give problems with sane positions, or a
/// valid profile, and never crash or hang.
@Suite("Mutated profiles")
struct MutationTests {
    static let pieces: [[UInt8]] = [":", " ", "\n", "- ", "{", "}", "[", "]", ",", "&a ", "*a", "<<: ", "~", "\"", "'",
                                    "#", "\t", "!!int ", "---\n", "? ", "|\n", "99: ", "다", "\u{1}"].map { Array($0.utf8) }
        + [[0xFF], [0xC3], [0xE2, 0x80, 0xA8], [0xEF, 0xBB, 0xBF]]

    @Test func mutationsNeverCrashAndPointInsideTheFile() throws {
        let sources = try DeckctlCheckTests.exampleLayouts.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
        var rng = SeededGenerator(seed: 404)
        var rejected = 0
        for round in 0..<1500 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0...bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes.insert(contentsOf: Self.pieces.randomElement(using: &rng) ?? [], at: at)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...20, using: &rng)))
                default: if at < bytes.count { bytes[at] = UInt8.random(in: 0...255, using: &rng) }
                }
            }
            // An upper bound on libyaml's line count: every CR, LF, NEL, LS and PS may end a line.
            let lines = 2 + bytes.indices.filter { index in
                bytes[index] == 0x0A || bytes[index] == 0x0D
                    || (bytes[index] == 0x85 && index > 0 && bytes[index - 1] == 0xC2)
                    || ((bytes[index] == 0xA8 || bytes[index] == 0xA9) && index > 1 && bytes[index - 1] == 0x80 && bytes[index - 2] == 0xE2)
            }.count
            do {
                _ = try DeckProfile.parse(bytes, file: "m.yaml")
            } catch {
                rejected += 1
                #expect(!error.problems.isEmpty)
                for problem in error.problems {
                    #expect(problem.line >= 1 && problem.column >= 1 && problem.line <= lines, "\(problem)")
                }
            }
        }
        #expect(rejected > 500, "most mutations should break the file")
    }
}
