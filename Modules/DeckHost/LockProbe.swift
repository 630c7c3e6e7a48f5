internal import CLinux
import Dispatch
import Glibc
import LockGate
import Synchronization

/// Runs the `--lock-probe` command every couple of seconds on its own thread
/// and reports only CHANGES of its result, so the event loop is woken only
/// when something changed (and never polls).
///
/// Each run is `/bin/sh -c COMMAND` in its own process group with a 5 s
/// timeout, after which the whole group is killed. Stopping kills a run in
/// progress the same way, so a hung probe never outlives the host.
final class LockProbe: Sendable {
    /// What one run gave.
    enum Result: Hashable, Sendable {
        /// A recognised answer.
        case reading(LockState.ProbeReading)
        /// The command could not run, failed, hung or printed something else;
        /// the host keeps its last reading and logs this sentence.
        case failed(String)
    }

    let command: String
    let interval: Duration
    let timeout: Duration
    private let report: @Sendable (Result) -> Void
    private let stopped = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Signalled when the probe's thread has ended (its last run killed and reaped).
    private let finished = DispatchSemaphore(value: 0)
    /// An eventfd made readable by ``stop()``: a run in progress kills its group.
    private let interrupt: Int32

    /// `report` is called on the probe's thread with the first result and
    /// then with every change.
    init(command: String, interval: Duration = .seconds(2), timeout: Duration = .seconds(5),
         report: @escaping @Sendable (Result) -> Void) {
        self.command = command
        self.interval = interval
        self.timeout = timeout
        self.report = report
        interrupt = eventfd(0, Int32(EFD_CLOEXEC))
    }

    deinit {
        if interrupt >= 0 { _ = close(interrupt) }
    }

    func start() throws(HostError) {
        try HostThread.start(name: "deckd probe") { [self] in
            loop()
            finished.signal()
        }
    }

    /// Stops: no new run starts, and a run in progress is killed (its whole
    /// process group) by the probe's own thread, which then ends.
    func stop() {
        stopped.store(true, ordering: .releasing)
        wakeUp.signal()
        var one: UInt64 = 1
        _ = write(interrupt, &one, MemoryLayout<UInt64>.size)
    }

    /// ``stop()``, then waits up to `timeout` for the probe's thread to end,
    /// so the process does not exit before a running probe is killed.
    func stopAndWait(timeout: Duration) {
        stop()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if finished.wait(timeout: .now() + seconds) == .success { finished.signal() }
    }

    private var isStopped: Bool { stopped.load(ordering: .acquiring) }

    private func loop() {
        var last: Result?
        while !isStopped {
            let result = runOnce()
            if result != last, !isStopped {
                report(result)
                last = result
            }
            let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
            _ = wakeUp.wait(timeout: .now() + seconds)
        }
    }

    /// One run of the command.
    func runOnce() -> Result {
        var child: ChildProcess
        do {
            child = try ChildProcess(["/bin/sh", "-c", command])
        } catch {
            return .failed("the lock probe could not start: \(error)")
        }
        var printed: [UInt8] = []
        var complaints: [UInt8] = []
        let termination = child.wait(deadline: .now + timeout, interrupt: interrupt) { bytes, isError in
            if isError {
                if complaints.count < 512 { complaints += bytes.prefix(512 - complaints.count) }
            } else if printed.count < 4096 {
                printed += bytes.prefix(4096 - printed.count)
            }
        }
        switch termination {
        case .timedOut:
            return .failed("the lock probe `\(command)` did not finish within \(timeout) and was killed")
        case .signalled(let signal):
            return .failed("the lock probe `\(command)` was ended by signal \(signal)")
        case .exited(let status) where status != 0:
            let said = String(decoding: complaints, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return .failed("the lock probe `\(command)` failed (exit status \(status))" + (said.isEmpty ? "" : ": \(said)"))
        case .exited:
            let text = String(decoding: printed, as: UTF8.self)
            guard let reading = LockState.ProbeReading(probeOutput: text) else {
                let shown = text.split(whereSeparator: \.isNewline).first.map { String($0.prefix(60)) } ?? ""
                return .failed("the lock probe printed '\(shown)'; it should print true/false, 1/0, locked/unlocked or yes/no")
            }
            return .reading(reading)
        }
    }
}
