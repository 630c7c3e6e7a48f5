import DeckProfiles
import DeckTransport
import Glibc

/// Watches the layouts folder with inotify through the event loop, and posts
/// `profilesChanged` once things settle (~150 ms after the first change, later while
/// a profile file is still being written), so a saved file reloads well
/// within a second. `profilesChanging` is posted at once on every change, so a scan
/// still reading an older save can give up without waiting for the settle
/// time. Loop-confined.
///
/// Editors save in different ways — writing in place (IN_CLOSE_WRITE), or
/// writing a temporary file and renaming it over the old one (IN_MOVED_TO),
/// or renaming the old one away as a backup first (vim, Emacs) — so every way
/// a file can appear, change or go is watched, by name in the folder: a file
/// replaced by another inode is followed. Which profiles really changed is
/// decided later by content (fingerprints), not here.
///
/// A profile file written to (IN_MODIFY) and not yet closed is still being
/// saved: the scan waits for its IN_CLOSE_WRITE (``SaveSettling`` decides).
///
/// The folder itself may be replaced (`mv layouts layouts.old`, a checkout or
/// sync tool that recreates it): then its parent is watched for a folder of
/// that name to appear, and the new folder is watched (and scanned) as soon
/// as it does. Only when the parent cannot be watched either does live
/// reloading stop, until ``rearm()`` (a `deckctl reload` or SIGHUP).
final class ProfileWatcher {
    let folder: String
    let debounce: Duration
    private let loop: EventLoop
    private let descriptor: Int32
    private var watch: FDWatch?
    private var timer: LoopTimer?
    /// Where what it sees goes: `profilesChanging`, `profilesChanged` and
    /// `folderWatch` inputs.
    private let inbox: HostInbox
    /// When the scan may come: the settle time, and files still being written.
    private var settling = SaveSettling()
    /// The folder's watch, -1 while the folder is gone.
    private var folderWatch: Int32 = -1
    /// The parent's watch while the folder is gone, else -1.
    private var parentWatch: Int32 = -1

    private static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Starts watching. It posts `profilesChanging` on each batch of changes
    /// as it is seen, `profilesChanged` once they settle, and `folderWatch`
    /// news: `waiting` (once per settle time) with the files the scan waits
    /// for to be closed, `lost` when the folder goes away and cannot be
    /// waited for, `returned` when a folder of its name is watched again.
    init(folder: String, loop: EventLoop, debounce: Duration = .milliseconds(150), inbox: HostInbox) throws(HostError) {
        self.folder = folder
        self.loop = loop
        self.debounce = debounce
        self.inbox = inbox
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .runtime(DiskFile.describe("watch", folder)) }
        folderWatch = inotify_add_watch(descriptor, folder, Self.folderMask)
        guard folderWatch >= 0 else {
            let message = DiskFile.describe("watch", folder)
            _ = close(descriptor)
            throw .runtime(message)
        }
        do {
            watch = try loop.watchReadable(descriptor) { [weak self] in self?.readEvents() }
        } catch {
            _ = close(descriptor)
            throw .runtime("could not watch \(folder): \(error)")
        }
    }

    /// Stops watching and closes the inotify descriptor.
    func cancel() {
        timer?.cancel()
        timer = nil
        guard let watch else { return }
        watch.cancel()
        self.watch = nil
        _ = close(descriptor)
    }

    /// Watches the folder again if it was lost and is there now (a reload
    /// asked for by a person); true when it is watched.
    @discardableResult
    func rearm() -> Bool {
        guard watch != nil else { return false }
        if folderWatch >= 0 { return true }
        let added = inotify_add_watch(descriptor, folder, Self.folderMask)
        guard added >= 0 else { return false }
        folderWatch = added
        if parentWatch >= 0 {
            _ = inotify_rm_watch(descriptor, parentWatch)
            parentWatch = -1
        }
        inbox.post(.folderWatch(.returned("the layouts folder \(folder) is there again; saved files reload live again")))
        return true
    }

    private var parent: String {
        let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    private var folderName: String {
        let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }

    /// The folder went: wait for it in its parent, or give up live reloading.
    private func folderGone() {
        if folderWatch >= 0 {
            // After IN_MOVE_SELF the watch follows the moved folder; drop it.
            _ = inotify_rm_watch(descriptor, folderWatch)
            folderWatch = -1
        }
        parentWatch = inotify_add_watch(descriptor, parent, Self.parentMask)
        // It may be back already (replaced by a rename, or before the parent was watched).
        if rearm() {
            scheduleChanged()
            return
        }
        if parentWatch < 0 {
            parentGone()
        } else {
            inbox.post(.folderWatch(.lost("the layouts folder \(folder) was moved or removed; its saved files are reloaded again "
                + "once a folder of that name is back")))
        }
    }

    /// The parent went too (or could not be watched): only a reload can look again.
    private func parentGone() {
        if parentWatch >= 0 {
            _ = inotify_rm_watch(descriptor, parentWatch)
            parentWatch = -1
        }
        inbox.post(.folderWatch(.lost("the layouts folder \(folder) and its parent were moved or removed; saved files are no longer "
            + "reloaded until it is back and `deckctl reload` (or SIGHUP) is run, or deckd restarts")))
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var relevant = false
        var gone = false
        var back = false
        var parentLost = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    relevant = true
                    back = back || folderWatch < 0
                    // Events were lost, closes among them: nothing is known to be open.
                    settling.forgetOpenFiles()
                } else if wd == folderWatch, folderWatch >= 0 {
                    if ProfileFolder.isProfileFileName(name) {
                        relevant = true
                        if let event = Self.fileEvent(mask) { settling.saw(event, of: name) }
                    }
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { gone = true }
                } else if wd == parentWatch, parentWatch >= 0 {
                    if name == folderName { back = true }
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { parentLost = true }
                }
                offset += header + length
            }
        }
        if gone {
            settling.forgetOpenFiles()
            folderGone()
        }
        if back, rearm() { relevant = true }
        if parentLost, folderWatch < 0, parentWatch >= 0 { parentGone() }
        if relevant {
            inbox.post(.profilesChanging)
            scheduleChanged()
        }
    }

    /// What an event says of a profile file's writing, if anything. One read
    /// can hold a close and a later write of the same file (the kernel merges
    /// only identical events), so events are taken in order.
    private static func fileEvent(_ mask: UInt32) -> SaveSettling.FileEvent? {
        if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0 { return .closed }
        return mask & UInt32(IN_MODIFY) != 0 ? .written : nil
    }

    private func scheduleChanged() {
        if settling.changed(at: .now) == .startTimer { startTimer() }
    }

    private func startTimer() {
        timer = loop.schedule(after: debounce) { [weak self] in self?.settled() }
    }

    /// The settle time is over: scan, or wait on for files still being written.
    private func settled() {
        timer = nil
        switch settling.timerFired(at: .now) {
        case .waitAgain(let tell):
            if let tell { inbox.post(.folderWatch(.waiting(tell))) }
            startTimer()
        case .scan:
            inbox.post(.profilesChanged)
        }
    }
}
