import DeckModel
import DeckProtocol
import Glibc
import Synchronization

/// Runs `run` and `open` actions, each as a child process in its own process
/// group, with output going to the log under the button's name.
///
/// At most ``maximumRunning`` actions run at once, each on a thread of its
/// own; presses beyond that wait in a FIFO queue of at most ``maximumQueued``,
/// and a press that finds the queue full ends at once with a `failed`
/// outcome saying so. A thread that finishes an action takes the next one
/// from the queue, so a burst of presses costs at most ``maximumRunning``
/// threads and processes, and a bounded amount of memory.
final class BuiltinActionRunner: ActionRunner {
    let logger: Logger
    /// `--opener`; nil: `xdg-open` from `PATH`.
    let opener: String?
    let home: String?
    let searchPath: String?
    let maximumRunning: Int
    let maximumQueued: Int
    /// Output logged per action before the rest is counted and dropped.
    let maximumLoggedBytes: Int

    /// An admitted action: its number in ``Places/finished`` and what to run.
    private struct Job: Sendable {
        var number: Int
        var label: String
        var work: @Sendable () -> ActionOutcome
    }

    private struct Places {
        var running = 0
        var waiting: [Job] = []
        /// How each admitted action's end is told, by job number: held here,
        /// not by the job, so that ``releaseAfterStop()`` can let go of them
        /// while their commands still run.
        var finished: [Int: @Sendable (ActionOutcome) -> Void] = [:]
        var nextNumber = 0
    }

    private let places = Mutex(Places())
    private let stopped = Atomic<Bool>(false)

    init(logger: Logger, opener: String?, environment: [String: String], maximumRunning: Int = 16,
         maximumQueued: Int = 256, maximumLoggedBytes: Int = 64 << 10) {
        self.logger = logger
        self.opener = opener
        self.home = environment["HOME"]
        self.searchPath = environment["PATH"]
        self.maximumRunning = max(1, maximumRunning)
        self.maximumQueued = max(0, maximumQueued)
        self.maximumLoggedBytes = maximumLoggedBytes
    }

    /// Stops taking actions; those still waiting end with `failed`. Running
    /// commands are not killed (docs/host.md: one that writes
    /// after the host is gone ends with SIGPIPE).
    func shutdown() {
        stopped.store(true, ordering: .relaxed)
        let waiting = places.withLock { places in
            defer { places.waiting = [] }
            return places.waiting
        }
        for job in waiting { complete(job.number, .failed(reason: "the host is stopping")) }
    }

    /// The loop has stopped, so no action's end can reach it any more: drops
    /// the `finished` of the commands still running. Each holds the whole
    /// host, which LeakSanitizer then found alive at exit (docs/reliability.md).
    func releaseAfterStop() {
        // Returned and discarded, so they are released outside the lock.
        _ = places.withLock { places in
            defer { places.finished = [:] }
            return places.finished
        }
    }

    /// Tells job `number`'s end, once; nothing after ``releaseAfterStop()``.
    private func complete(_ number: Int, _ outcome: ActionOutcome) {
        places.withLock { $0.finished.removeValue(forKey: number) }?(outcome)
    }

    func run(_ request: ActionRequest, finished: @escaping @Sendable (ActionOutcome) -> Void) {
        let command: [String]
        var workingDirectory: String?
        var timeout: Double?
        switch request.button.action {
        case let .run(shell, cwd, seconds, _):
            command = ["/bin/sh", "-c", shell]
            workingDirectory = cwd.map { expandingTilde($0, home: home) }
            timeout = seconds ?? DeckAction.defaultRunTimeout
        case .open(let target):
            let target = expandingTilde(target, home: home)
            if let opener {
                // The target is a positional parameter, never part of the shell text.
                command = ["/bin/sh", "-c", opener + " \"$1\"", "deckd-open", target]
            } else if let xdgOpen = findExecutable("xdg-open", path: searchPath) {
                command = [xdgOpen, target]
            } else {
                finished(.openerMissing)
                return
            }
        default:
            finished(.failed(reason: "the \(request.button.action.kind) action is not run by this runner"))
            return
        }
        if stopped.load(ordering: .relaxed) {
            finished(.failed(reason: "the host is stopping"))
            return
        }
        let isOpen = request.button.action.kind == "open"
        let label = LogField.cut(request.button.name)
        let (folder, seconds) = (workingDirectory, timeout)
        let work: @Sendable () -> ActionOutcome = { [self] in
            execute(command, in: folder, timeout: seconds, label: label, isOpen: isOpen)
        }

        enum Admission { case start(Job), wait(Int), full }
        let admission = places.withLock { places -> Admission in
            guard places.running < maximumRunning || places.waiting.count < maximumQueued else { return .full }
            places.nextNumber += 1
            let job = Job(number: places.nextNumber, label: label, work: work)
            places.finished[job.number] = finished
            if places.running < maximumRunning {
                places.running += 1
                return .start(job)
            }
            places.waiting.append(job)
            return .wait(places.waiting.count)
        }
        switch admission {
        case .start(let job):
            startWorker(with: job)
        case .wait(let position):
            logger.info("'\(label)' waits: \(maximumRunning) actions are running (\(position) waiting)")
        case .full:
            finished(.failed(reason: "\(maximumRunning) actions are running and \(maximumQueued) more are waiting; "
                + "press again when some have finished"))
        }
    }

    /// A thread that runs `first`, then whatever waits, until the queue is empty.
    private func startWorker(with first: Job) {
        do {
            try HostThread.start(name: "deckd action") { [self] in
                var next: Job? = first
                while let job = next {
                    complete(job.number, job.work())
                    next = places.withLock { places -> Job? in
                        guard !places.waiting.isEmpty else {
                            places.running -= 1
                            return nil
                        }
                        return places.waiting.removeFirst()
                    }
                }
            }
        } catch {
            places.withLock { $0.running -= 1 }
            complete(first.number, .failed(reason: error.description))
        }
    }

    /// Runs one child to its end (on the action's own thread).
    private func execute(_ command: [String], in folder: String?, timeout: Double?, label: String, isOpen: Bool) -> ActionOutcome {
        var child: ChildProcess
        do {
            child = try ChildProcess(command, workingDirectory: folder)
        } catch {
            return .failed(reason: error.description)
        }
        var log = OutputLog(label: label, logger: logger, limit: maximumLoggedBytes)
        let deadline = timeout.map { ContinuousClock.now + .milliseconds(Int64(min($0, 1e9) * 1000)) }
        let termination = child.wait(deadline: deadline) { bytes, isError in log.append(bytes, isError: isError) }
        // Whatever the command left running in the background may keep
        // printing: listen a little longer, then let it go.
        child.drainOutput(until: .now + .milliseconds(200)) { bytes, isError in log.append(bytes, isError: isError) }
        log.finish()
        switch termination {
        case .exited(127) where isOpen && opener != nil:
            return .openerMissing
        case .exited(let status):
            return .exited(status: Int(status))
        case .signalled(let signal):
            return .signalled(signal: Int(signal))
        case .timedOut:
            return .timedOut(seconds: timeout ?? 0)
        }
    }
}

/// Splits a child's output into lines for the log, under the button's name,
/// up to a limit (a command that prints forever must not flood the log).
struct OutputLog {
    let label: String
    let logger: Logger
    let limit: Int
    private var pending: [[UInt8]] = [[], []]
    /// Bytes of the current line of each stream past ``lineLimit``, cut.
    private var cut = [0, 0]
    private var logged = 0
    private var dropped = 0
    /// The longest line logged; the rest of a longer one is cut, with a mark.
    static let lineLimit = 4096

    init(label: String, logger: Logger, limit: Int) {
        self.label = label
        self.logger = logger
        self.limit = limit
    }

    mutating func append(_ bytes: ArraySlice<UInt8>, isError: Bool) {
        let stream = isError ? 1 : 0
        for byte in bytes {
            if byte == 0x0A {
                emit(stream)
            } else if pending[stream].count < Self.lineLimit {
                pending[stream].append(byte)
            } else {
                cut[stream] += 1
            }
        }
    }

    mutating func finish() {
        emit(0)
        emit(1)
        if dropped > 0 { logger.info("'\(label)': \(dropped) more bytes of output were not logged") }
    }

    private mutating func emit(_ stream: Int) {
        let line = pending[stream]
        let cutBytes = cut[stream]
        pending[stream] = []
        cut[stream] = 0
        guard !line.isEmpty else { return }
        guard logged + line.count <= limit else {
            dropped += line.count + cutBytes + 1
            return
        }
        logged += line.count + 1
        dropped += cutBytes
        let text = String(decoding: line, as: UTF8.self) + (cutBytes > 0 ? "…" : "")
        logger.info("'\(label)'\(stream == 1 ? " (stderr)" : ""): \(text)")
    }
}
