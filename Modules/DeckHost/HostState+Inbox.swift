import DeckTransport

// The inputs that reach the rules through the HostInbox rather than from a
// client: timers the rules armed, the folder watch's news, the stop's progress.

extension HostState {
    /// How long a face frame lasts: at most one `buttonFace` per button per frame.
    static let faceFrame: Duration = .milliseconds(16)

    /// A timer the rules armed fired.
    mutating func timerFired(_ timer: HostTimer) -> [HostAction] {
        switch timer {
        case .faceFrame:
            return feedFaces(.frameTick)
        case .stopDeadline:
            guard let warnings = shutdown.deadlinePassed(pipelineEmpty: commits.isEmpty, pluginsStopped: pluginsStopped) else {
                return []
            }
            return warnings.map { .log(.warning, $0) } + [.stop(.stopLoop)]
        }
    }

    /// The disk or the plugins got further while stopping (`pluginsStopped`:
    /// every plugin process is gone, remembered for the deadline).
    mutating func stopProgressed(pluginsStopped: Bool) -> [HostAction] {
        guard stopping else { return [] }
        self.pluginsStopped = self.pluginsStopped || pluginsStopped
        return shutdown.finishIfReady(pipelineEmpty: commits.isEmpty, pluginsStopped: self.pluginsStopped) ? [.stop(.stopLoop)] : []
    }

    /// The folder watch's news: what it waits for is debug detail, a folder
    /// lost is a notice `status` keeps (saves no longer reload), one back is news.
    func folderWatch(_ news: FolderWatchNews) -> [HostAction] {
        switch news {
        case .waiting(let files):
            [.log(.debug, "the layouts folder is scanned once \(files.joined(separator: ", ")) (still being written) is closed")]
        case .lost(let message):
            [.note(message, level: .warning)]
        case .returned(let message):
            [.log(.info, message)]
        }
    }
}
