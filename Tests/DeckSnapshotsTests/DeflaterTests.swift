import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Testing

@Suite("One deflate stream reused for every file")
struct DeflaterTests {
    @Test("a reused stream gives the bytes a fresh one gives, for small, empty and large inputs in any order")
    func reuseIsIdentical() throws {
        var rng = SeededGenerator(seed: 0xDEF1)
        let deflater = GzipDeflater()
        var inputs: [[UInt8]] = [[], Array("x".utf8)]
        for pages in [1, 3, 40] { inputs.append(EncodedLayout(RandomLayouts.layout(maxPages: pages, using: &rng)).json) }
        inputs.append(Array(GeneratedProfiles.large(pages: 200).utf8))
        for input in inputs.shuffled(using: &rng) + inputs {
            let reused = try deflater.gzip(input)
            #expect(reused == (try ZlibCodec.gzip(input)))
            #expect(try ZlibCodec.gunzip(reused, limit: 1 << 24) == input)
        }
    }
}
