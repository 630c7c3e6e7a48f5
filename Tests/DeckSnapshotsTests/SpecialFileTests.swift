import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@Suite("Files that are not regular files where a snapshot should be")
struct SpecialFileTests {
    @Test("a FIFO as the newest generation is damage, set aside at once; reading never blocks on it")
    func fifoIsDamage() throws {
        let sandbox = try Sandbox()
        try fill(try sandbox.open(), count: 2)
        let path = sandbox.path(3)
        try #require(mkfifo(path, 0o600) == 0)
        let store = try sandbox.open()
        let result = Mutex<Result<SnapshotReading, SnapshotError>?>(nil)
        let finished = Blocking.finishes(within: 10, release: { Blocking.unblockFIFO(path) }) {
            let reading = Result { () throws(SnapshotError) in try store.newest(profile: "default") }
            result.withLock { $0 = reading }
        }
        #expect(finished, "reading the snapshots blocked on the FIFO")
        let reading = try #require(try result.withLock { $0 }?.get())
        #expect(reading.snapshot?.info.generation == 2)
        #expect(reading.notices.map(\.message) == [
            "snapshot default/0000000003 was corrupt (it is not a regular file); kept as 0000000003.json.gz.corrupt; resumed generation 2",
        ])
    }

    @Test("a FIFO is damage when listing too (start-up lists revisions before reading)")
    func fifoInListing() throws {
        let sandbox = try Sandbox()
        try fill(try sandbox.open(), count: 2)
        let path = sandbox.path(3)
        try #require(mkfifo(path, 0o600) == 0)
        let store = try sandbox.open()
        let result = Mutex<Result<SnapshotListing, SnapshotError>?>(nil)
        let finished = Blocking.finishes(within: 10, release: { Blocking.unblockFIFO(path) }) {
            let listing = Result { () throws(SnapshotError) in try store.list(profile: "default") }
            result.withLock { $0 = listing }
        }
        #expect(finished, "listing the snapshots blocked on the FIFO")
        let listing = try #require(try result.withLock { $0 }?.get())
        #expect(listing.snapshots.map(\.generation) == [2, 1])
        #expect(listing.notices.map(\.generation) == [3])
    }

    @Test("a folder named like a generation is damage too, not a read error that stops the host")
    func folderIsDamage() throws {
        let sandbox = try Sandbox()
        try fill(try sandbox.open(), count: 2)
        try FileManager.default.createDirectory(atPath: sandbox.path(3), withIntermediateDirectories: false)
        let reading = try sandbox.open().newest(profile: "default")
        #expect(reading.snapshot?.info.generation == 2)
        #expect(reading.notices.map(\.message).first?.contains("(it is not a regular file)") == true)
    }
}
