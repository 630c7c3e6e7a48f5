import DeckProfiles
import DeckTransport
import Glibc

/// Watches the layouts folder with inotify through the event loop, and calls
/// `changed` once things settle (~150 ms after the first change), so a saved
/// file reloads well within a second. Loop-confined.
///
/// Editors save in different ways — writing in place (IN_CLOSE_WRITE), or
/// writing a temporary file and renaming it over the old one (IN_MOVED_TO) —
/// so every way a file can appear, change or go is watched. Which profiles
/// really changed is decided later by content (fingerprints), not here.
final class ProfileWatcher {
    let folder: String
    let debounce: Duration
    private let loop: EventLoop
    private let descriptor: Int32
    private var watch: FDWatch?
    private var timer: LoopTimer?
    private let changed: () -> Void
    private let lost: (String) -> Void

    /// Starts watching. `lost` is called once if the folder itself goes away.
    init(folder: String, loop: EventLoop, debounce: Duration = .milliseconds(150),
         changed: @escaping () -> Void, lost: @escaping (String) -> Void) throws(HostError) {
        self.folder = folder
        self.loop = loop
        self.debounce = debounce
        self.changed = changed
        self.lost = lost
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .runtime(DiskFile.describe("watch", folder)) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
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

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var relevant = false
        var gone = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 || ProfileFolder.isProfileFileName(name) { relevant = true }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { gone = true }
                offset += header + length
            }
        }
        if gone {
            cancel()
            lost("the layouts folder \(folder) was moved or removed; saved files are no longer reloaded until deckd restarts")
            return
        }
        if relevant, timer == nil {
            timer = loop.schedule(after: debounce) { [weak self] in
                self?.timer = nil
                self?.changed()
            }
        }
    }
}
