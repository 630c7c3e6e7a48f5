import DeckModel
import DeckProtocol
import Glibc
import Synchronization

/// Runs `run` and `open` actions, each as a child process in its own process
/// group on a thread of its own, with output going to the log under the
/// button's name.
///
/// At most ``maximumRunning`` actions run at once; a press beyond that ends
/// at once with a `failed` outcome saying so (issue 9 adds a bounded queue).
final class BuiltinActionRunner: ActionRunner {
    let logger: Logger
    /// `--opener`; nil: `xdg-open` from `PATH`.
    let opener: String?
    let home: String?
    let searchPath: String?
    let maximumRunning: Int
    /// Output logged per action before the rest is counted and dropped.
    let maximumLoggedBytes: Int
    private let running = Mutex(0)
    private let stopped = Atomic<Bool>(false)

    init(logger: Logger, opener: String?, environment: [String: String], maximumRunning: Int = 16,
         maximumLoggedBytes: Int = 64 << 10) {
        self.logger = logger
        self.opener = opener
        self.home = environment["HOME"]
        self.searchPath = environment["PATH"]
        self.maximumRunning = maximumRunning
        self.maximumLoggedBytes = maximumLoggedBytes
    }

    func shutdown() {
        stopped.store(true, ordering: .relaxed)
    }

    func run(_ request: ActionRequest, finished: @escaping @Sendable (ActionOutcome) -> Void) {
        let command: [String]
        var workingDirectory: String?
        var timeout: Double?
        switch request.button.action {
        case let .run(shell, cwd, seconds):
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
        let admitted = running.withLock { count -> Bool in
            guard count < maximumRunning else { return false }
            count += 1
            return true
        }
        guard admitted else {
            finished(.failed(reason: "\(maximumRunning) actions are already running; press again when one has finished"))
            return
        }
        let isOpen = request.button.action.kind == "open"
        let label = request.button.name
        let (folder, seconds) = (workingDirectory, timeout)
        do {
            try HostThread.start(name: "deckd action") { [self] in
                let outcome = execute(command, in: folder, timeout: seconds, label: label, isOpen: isOpen)
                running.withLock { $0 -= 1 }
                finished(outcome)
            }
        } catch {
            running.withLock { $0 -= 1 }
            finished(.failed(reason: error.description))
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
    private var logged = 0
    private var dropped = 0

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
            } else if pending[stream].count < 4096 {
                pending[stream].append(byte)
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
        pending[stream] = []
        guard !line.isEmpty else { return }
        guard logged + line.count <= limit else {
            dropped += line.count + 1
            return
        }
        logged += line.count + 1
        let text = String(decoding: line, as: UTF8.self)
        logger.info("'\(label)'\(stream == 1 ? " (stderr)" : ""): \(text)")
    }
}
