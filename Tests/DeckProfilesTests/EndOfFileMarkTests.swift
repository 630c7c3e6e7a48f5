import DeckProfiles
import Testing

/// Found by the profile fuzz target (docs/reliability.md): at the end of a
/// file without a final line break, libyaml reports a syntax error on the
/// line after the last one (4:1 in a 3-line file), a line an editor cannot go to.
@Suite("Syntax errors at the end of a file")
struct EndOfFileMarkTests {
    /// A file and its last position: its last line, one past that line's last character.
    @Test(arguments: [
        // The fuzzer's input (Fuzz/Crashes/profile): its last line is four bytes, not UTF-8 or NUL.
        (Array("name017: work/home\npages: []#\n".utf8) + [0xFD, 0xFF, 0x00, 0x00], 3, 5),
        (Array("name: x\npages: [".utf8), 2, 9),
        (Array("name: x\npages: []\n\"abc".utf8), 3, 5),
        (Array("pages:\n  - buttons: {0: {name: A".utf8), 2, 27),
    ])
    func pointsInsideTheFile(_ bytes: [UInt8], lastLine: Int, lastColumn: Int) throws {
        let error = try #require(throws: DeckProfilesError.self) { try DeckProfile.parse(bytes, file: "end.yaml") }
        #expect(!error.problems.isEmpty)
        for problem in error.problems {
            #expect(problem.line <= lastLine, "\(problem)")
            #expect(problem.line < lastLine || problem.column <= lastColumn, "\(problem)")
        }
    }
}
