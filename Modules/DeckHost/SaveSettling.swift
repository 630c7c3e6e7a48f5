/// When the folder watcher's scan may come: one settle time after the first
/// change, later while a profile file is still being written (written to and
/// not yet closed), but never more than ``longest`` after the first change.
///
/// A file saved in pieces must not be read half-written: cut after a page, a
/// profile is often valid YAML, and it went live (a vim-style save renamed the
/// old file away, which started the settle time, and the scan read the new
/// file while it was being written). A program that keeps a profile open for
/// writing must not stop reloads, hence the bound. The watcher drives it with
/// what inotify says and performs the actions; time comes in.
struct SaveSettling {
    /// The longest a scan waits for files being written to be closed. Longer
    /// than any editor's save; a closed file is read within one settle time
    /// of its close whatever this is.
    static let longest: Duration = .seconds(3)

    /// What happened to one profile file.
    enum FileEvent: Equatable {
        /// Written to (IN_MODIFY): open for writing until closed.
        case written
        /// Closed after writing, removed, or renamed away or into place.
        case closed
    }

    /// What the watcher does after a change.
    enum Action: Equatable {
        /// The settle timer runs already.
        case nothing
        /// Start the settle timer.
        case startTimer
    }

    /// What the watcher does when the settle timer fires.
    enum Fired: Equatable {
        /// Start the timer again; `tell` names the files waited for, the
        /// first time in this settle period (nil after).
        case waitAgain(tell: [String]?)
        /// Scan the folder now.
        case scan
    }

    private var writing: Set<String> = []
    private var firstChange: ContinuousClock.Instant?
    private var timerRunning = false
    private var told = false

    /// Keeps track of the files open for writing.
    mutating func saw(_ event: FileEvent, of file: String) {
        switch event {
        case .written: writing.insert(file)
        case .closed: writing.remove(file)
        }
    }

    /// Events were lost (the inotify queue overflowed) or the folder went:
    /// nothing is known to be open any more.
    mutating func forgetOpenFiles() {
        writing.removeAll()
    }

    /// Something in the folder changed at `now`.
    mutating func changed(at now: ContinuousClock.Instant) -> Action {
        if firstChange == nil { firstChange = now }
        guard !timerRunning else { return .nothing }
        timerRunning = true
        return .startTimer
    }

    /// The settle timer fired at `now`.
    mutating func timerFired(at now: ContinuousClock.Instant) -> Fired {
        if !writing.isEmpty, let firstChange, now - firstChange < Self.longest {
            defer { told = true }
            return .waitAgain(tell: told ? nil : writing.sorted())
        }
        timerRunning = false
        firstChange = nil
        told = false
        return .scan
    }
}
