import DeckFuzz
import Foundation
import Testing

/// Every fuzz target's property over its committed corpus and its crash
/// fixtures, in the ordinary build: the regression half of `make fuzz`
/// (docs/reliability.md). The corpus is what the fuzzer kept plus the seeds;
/// `Fuzz/Crashes/<target>/` holds each input that once broke a property or crashed.
@Suite struct CorpusTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(of target: FuzzTarget, in kind: String) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func corpusHoldsTheProperty(_ target: FuzzTarget) throws {
        let files = Self.inputs(of: target, in: "Corpus")
        // A target without seeds would pass vacuously.
        #expect(files.count >= 3, "Fuzz/Corpus/\(target.rawValue) has \(files.count) inputs")
        for file in files + Self.inputs(of: target, in: "Crashes") {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try target.check(bytes) }
        }
    }
}
