/// The host's stop (CLI.md: SIGTERM and SIGINT stop it, exit 0 within 2 s):
/// running → stopping (nothing new is accepted or read; the edits in hand
/// reach the disk, their replies go out, plugins stop) → stopped, with the
/// exit status the run ends with.
///
/// A swift-nio style state machine with no I/O: the host feeds it what it
/// sees and performs the stop it decides. Loop-confined.
struct Shutdown {
    private enum Stage: Equatable {
        case running
        case stopping
        case stopped(ExitStatus)
    }

    private var stage = Stage.running

    /// True from the start of the stop on (stopped included).
    var isStopping: Bool { stage != .running }
    /// True once the loop is told to stop.
    var isStopped: Bool { if case .stopped = stage { true } else { false } }

    /// What the run exits with: that of its stop; a loop that ended without
    /// one failed.
    var exitStatus: ExitStatus { if case .stopped(let status) = stage { status } else { .failure } }

    /// A stop was asked for; false when one is under way already.
    mutating func begin() -> Bool {
        guard stage == .running else { return false }
        stage = .stopping
        return true
    }

    /// The edits in hand are out (`pipelineEmpty`) and every plugin is gone:
    /// true when the host stops the loop now, a clean stop (exit 0).
    mutating func finishIfReady(pipelineEmpty: Bool, pluginsStopped: Bool) -> Bool {
        guard stage == .stopping, pipelineEmpty, pluginsStopped else { return false }
        stage = .stopped(.success)
        return true
    }

    /// The stop's deadline passed: nil when the host stopped already, else
    /// the warnings to log before the loop stops now. Edits whose replies
    /// never went out (the disk did not finish them) make it a runtime
    /// failure, exit 1; plugins still stopping are killed as the host exits,
    /// which is still a clean stop.
    mutating func deadlinePassed(pipelineEmpty: Bool, pluginsStopped: Bool) -> [String]? {
        guard stage == .stopping else { return nil }
        var warnings: [String] = []
        if !pipelineEmpty { warnings.append("the disk did not finish the last edits in time; stopping without their replies") }
        if !pluginsStopped { warnings.append("plugins are still stopping; they are killed as the host exits") }
        stage = .stopped(pipelineEmpty ? .success : .failure)
        return warnings
    }
}
