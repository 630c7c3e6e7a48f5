import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

/// Reading a whole file: its exact bytes, up to the bound and not past it.
/// (The buffer used to double only to see the end of the file: a 10 MB
/// profile took seconds to read in a debug build, where a scan cannot give up.)
@Suite("Whole-file reads")
struct FileBytesTests {
    @Test(arguments: [0, 1, 4095, 4096, 4097, 100_000])
    func aFileIsReadExactly(_ size: Int) throws {
        let folder = try TemporaryDirectory(prefix: "filebytes")
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(bytes).write(to: folder.appending("f"))
        #expect(try FileBytes.read(folder.path + "/f", maxBytes: 1 << 20) == bytes)
        // Exactly at the bound is allowed; one byte over is not.
        #expect(try FileBytes.read(folder.path + "/f", maxBytes: size) == bytes)
        #expect(throws: FileBytes.Failure.self) { try FileBytes.read(folder.path + "/f", maxBytes: size - 1) }
    }
}
