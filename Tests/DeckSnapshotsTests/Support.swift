import DeckModel
import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// A state folder of its own for one test, and helpers to look inside it.
struct Sandbox {
    let directory: TemporaryDirectory
    var state: String { directory.path }

    init(_ name: String = "snapshots") throws {
        directory = try TemporaryDirectory(prefix: name)
    }

    func open(keep: Int = SnapshotStore.defaultKeep, journal: JournalSettings? = nil) throws -> SnapshotStore {
        try SnapshotStore(stateDirectory: state, keep: keep, journal: journal)
    }

    /// `STATE/snapshots/FOLDER`.
    func folder(_ name: String = "default") -> String { state + "/snapshots/" + name }

    /// The names in a profile folder, sorted.
    func files(_ name: String = "default") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder(name))) ?? []).sorted()
    }

    func path(_ generation: Int, folder name: String = "default") -> String {
        folder(name) + "/" + String(format: "%010d.json.gz", generation)
    }
}

/// A small layout whose first button carries `tag`.
func sampleLayout(_ tag: Int, pages: Int = 2) -> DeckLayout {
    var rng = SeededGenerator(seed: UInt64(bitPattern: Int64(tag)) &+ 7)
    var layout = RandomLayouts.layout(maxPages: pages, using: &rng)
    do {
        try layout.set(page: 0, index: 0, button: DeckButton(name: "tag \(tag)", action: .open("~")))
    } catch {
        Issue.record("could not tag the layout: \(error)")
    }
    return layout
}

func sampleEntry(_ revision: Int, profile: String = "default", reason: String = "moveButton",
                 source: SnapshotSource? = SnapshotSource(file: "default.yaml", crc32: 0x1c29_1ca3, bytes: 812)) -> SnapshotEntry {
    SnapshotEntry(profile: profile, revision: revision, reason: reason, source: source,
                  layout: sampleLayout(revision), time: Date(timeIntervalSince1970: 1_795_970_400 + Double(revision)))
}

/// Writes `count` generations one by one (revisions 1…count) and returns the store.
@discardableResult
func fill(_ store: SnapshotStore, count: Int, profile: String = "default") throws -> [SnapshotInfo] {
    try (1...count).map { try store.write(sampleEntry($0, profile: profile)).written[0] }
}

/// Runs a program, returning its exit status and standard output.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.reap()
    return (process.terminationStatus, output)
}

/// Makes a folder refuse new files for real, and gives it back afterwards.
///
/// As a normal user, mode 0555 does it. Root ignores permission bits, so as
/// root the folder gets the ext4 immutable attribute (`chattr +i`), which
/// root's writes obey too. Nil when neither works here (then the test skips).
func makeUnwritable(_ folder: String) throws -> (() -> Void)? {
    if geteuid() != 0 {
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        return { _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder) }
    }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
          let set = try? run("/usr/bin/chattr", ["+i", folder]), set.status == 0 else { return nil }
    return { _ = try? run("/usr/bin/chattr", ["-i", folder]) }
}

/// True when making a folder unwritable works on this machine (see ``makeUnwritable(_:)``).
let canMakeUnwritable: Bool = {
    guard let probe = try? TemporaryDirectory(prefix: "probe"), let restore = try? makeUnwritable(probe.path) else { return false }
    defer { restore() }
    let fd = open(probe.path + "/x", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
    return fd < 0
}()
