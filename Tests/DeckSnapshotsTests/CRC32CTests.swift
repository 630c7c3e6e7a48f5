@testable import DeckSnapshots
import DeckTestSupport
import Testing

/// Published check values: RFC 3720 §B.4 (32 zeros, 32 0xFF, 0…31) and the usual "123456789".
private let checkValues: [(bytes: [UInt8], expected: UInt32)] = [
    (Array("123456789".utf8), 0xE306_9283),
    ([UInt8](repeating: 0, count: 32), 0x8A91_36AA),
    ([UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
    ((0..<32).map { UInt8($0) }, 0x46DD_794E),
    ([], 0),
]

@Suite("CRC-32C, the version-2 record checksum")
struct CRC32CTests {
    @Test(arguments: checkValues)
    func knownValues(bytes: [UInt8], expected: UInt32) {
        #expect(bytes.withUnsafeBytes { CRC32C.checksum($0) } == expected)
        #expect(bytes.withUnsafeBytes { CRC32C.software($0) } == expected)
    }

    /// The CPU's instruction (where there is one) and the tables agree on any
    /// bytes, and continuing a checksum over pieces gives the whole one.
    @Test func hardwareAndSoftwareAgreeAndPiecesContinue() {
        var random = SeededGenerator(seed: 0xC4C3_2C00)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...3_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let split = Int.random(in: 0...bytes.count, using: &random)
            bytes.withUnsafeBytes { raw in
                let whole = CRC32C.checksum(raw)
                #expect(CRC32C.software(raw) == whole)
                let first = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[..<split]))
                #expect(CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[split...]), seed: first) == whole)
                let soft = CRC32C.software(UnsafeRawBufferPointer(rebasing: raw[..<split]))
                #expect(CRC32C.software(UnsafeRawBufferPointer(rebasing: raw[split...]), seed: soft) == whole)
            }
        }
    }
}
