// deck-snapshot-torture: a helper for DeckSnapshotsTests, not a user tool.
//
//   deck-snapshot-torture loop STATE PROFILE
//       Resumes from the newest snapshot, then writes generations forever,
//       alone or in batches of up to 4, and prints each generation number on
//       its own line only after the write call returned. Revision == generation
//       and the layout is a function of the revision, so the test can check
//       every file's content. Prints "ready" once the store is open.
//   deck-snapshot-torture loop-journal STATE PROFILE
//       The same through the journal, a checkpoint and a new segment every
//       7 records (maintain() after each write), so kills land in appends,
//       checkpoints and segment starts alike.
//   deck-snapshot-torture fill STATE PROFILE MAX_FILE_BYTES
//       Limits file size with RLIMIT_FSIZE (a disk that fills up), tries one
//       large write and prints the error's description, or "written".
import DeckModel
import DeckSnapshots
import Glibc

/// The layout of revision `revision`: a few pages whose button names carry the
/// revision, so a file holding another revision's layout is caught.
func tortureLayout(revision: Int, pages: Int? = nil) -> DeckLayout {
    let pageCount = pages ?? 3 + revision % 5
    let built = (0..<pageCount).map { page in
        DeckPage(title: "page \(page)", buttons: (0..<12).map { slot -> DeckButton? in
            (slot + page + revision) % 3 == 0 ? nil
                : DeckButton(name: "r\(revision) p\(page) s\(slot)", icon: "terminal",
                             action: .run(command: "echo \(revision) \(page) \(slot)"))
        })
    }
    do {
        return try DeckLayout(slotsPerPage: 12, pages: built)
    } catch {
        fail("could not build the layout: \(error)")
    }
}

func say(_ line: String) {
    let text = Array((line + "\n").utf8)
    _ = text.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    let text = Array(("deck-snapshot-torture: " + message + "\n").utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func entry(profile: String, revision: Int, pages: Int? = nil) -> SnapshotEntry {
    SnapshotEntry(profile: profile, revision: revision, reason: "torture",
                  source: SnapshotSource(file: "\(profile).yaml", crc32: UInt32(revision & 0xFFFF), bytes: revision),
                  layout: tortureLayout(revision: revision, pages: pages))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: loop STATE PROFILE | fill STATE PROFILE MAX_FILE_BYTES") }
let (mode, statePath, profile) = (arguments[1], arguments[2], arguments[3])

switch mode {
case "loop", "loop-journal":
    do {
        let journal = mode == "loop-journal" ? JournalSettings(recordsPerSegment: 7) : nil
        let store = try SnapshotStore(stateDirectory: statePath, keep: 1_000_000, journal: journal)
        var revision = try store.newest(profile: profile).snapshot?.info.revision ?? 0
        say("ready")
        var random = SystemRandomNumberGenerator()
        while true {
            let count = Int.random(in: 1...4, using: &random)
            let entries = (1...count).map { entry(profile: profile, revision: revision + $0) }
            let commit = store.write(entries)
            for info in commit.written { say(String(info.generation)) }
            if let failure = commit.failure { fail("write failed: \(failure)") }
            store.maintain()
            revision += count
        }
    } catch {
        fail("\(error)")
    }
case "fill", "fill-journal":
    guard arguments.count == 5, let limit = Int(arguments[4]) else { fail("fill needs MAX_FILE_BYTES") }
    // Past the limit the kernel sends SIGXFSZ (which would kill us) and write fails with EFBIG.
    signal(SIGXFSZ, SIG_IGN)
    var bound = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &bound) == 0 else { fail("setrlimit failed") }
    do {
        let store = try SnapshotStore(stateDirectory: statePath, journal: mode == "fill-journal" ? JournalSettings() : nil)
        let revision = (try store.newest(profile: profile).snapshot?.info.revision ?? 0) + 1
        try store.write(entry(profile: profile, revision: revision, pages: 400))
        say("written")
    } catch {
        say("\(error)")
    }
default:
    fail("unknown mode \(mode)")
}
