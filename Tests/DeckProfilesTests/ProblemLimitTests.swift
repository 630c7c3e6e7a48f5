import DeckProfiles
import Testing

/// A file with hundreds of thousands of problems made a `status` reply over
/// the 8 MiB a client's output holds and a 42 MB log: each file lists its first
/// 100 problems and counts the rest.
@Suite("Problems listed per file")
struct ProblemLimitTests {
    /// `count` buttons, each with one unknown key (one problem each).
    static func file(problems count: Int) -> String {
        var text = "slotsPerPage: 1\npages:\n"
        for _ in 0..<count { text += "  - buttons: {0: {name: A, action: {page: next}, nmae: B}}\n" }
        return text
    }

    @Test func theFirstHundredAreListedAndTheRestCounted() throws {
        let error = try #require(throws: DeckProfilesError.self) {
            try DeckProfile.parse(Self.file(problems: 250), file: "many.yaml")
        }
        let problems = error.problems
        #expect(problems.count == 101)
        #expect(problems.prefix(100).allSatisfy { $0.message.hasPrefix("unknown key 'nmae' in button") })
        #expect(problems.prefix(100).map(\.line) == Array(3...102))
        #expect(problems.last?.description == "many.yaml:103:50: 150 more problems from here on are not listed (a file lists its first 100)")
    }

    @Test func aHundredAreAllListed() throws {
        let error = try #require(throws: DeckProfilesError.self) {
            try DeckProfile.parse(Self.file(problems: 100), file: "many.yaml")
        }
        #expect(error.problems.count == 100)
        #expect(error.problems.allSatisfy { $0.message.hasPrefix("unknown key 'nmae' in button") })
    }
}

@Suite("Repeated keys")
struct RepeatedKeyTests {
    /// Each repeat names the first line without searching the keys before it
    /// (that search made 100,000 keys take 17 s; the time is a `make bench`
    /// figure, profile.repeatedKeys). Here: the answers stay right.
    @Test func everyRepeatNamesTheFirstLine() throws {
        var text = "pages:\n  - buttons:\n      0:\n        name: a\n        action:\n          plugin: p\n          command: c\n          settings:\n"
        for key in 0..<2_000 { text += "            k\(key % 2): \(key)\n" }
        let error = try #require(throws: DeckProfilesError.self) { try DeckProfile.parse(text, file: "r.yaml") }
        #expect(error.problems.prefix(100).map(\.message) == (0..<100).map { "key 'k\($0 % 2)' is given twice (first at line \(9 + $0 % 2))" })
        #expect(error.problems.last?.message == "1898 more problems from here on are not listed (a file lists its first 100)")
    }

    @Test func aRepeatedButtonKeyNamesTheFirstLine() throws {
        var text = "pages:\n  - buttons:\n      0:\n        action: {page: next}\n"
        for key in 0..<300 { text += "        name: n\(key)\n" }
        let error = try #require(throws: DeckProfilesError.self) { try DeckProfile.parse(text, file: "r.yaml") }
        #expect(error.problems.prefix(100).allSatisfy { $0.message == "key 'name' is given twice (first at line 5)" })
        #expect(error.problems.count == 101)
    }
}
