internal import CPulse
import Synchronization

/// Inputs on their way from the plugin's thread (the host's events) to the
/// libpulse loop's thread, which alone runs the machine.
final class SoundInbox: Sendable {
    private struct Pending {
        var inputs: [SoundState.Input] = []
        var stopping = false
        var waker: Waker?
    }

    /// The loop to wake when an input arrives.
    ///
    /// `@unchecked Sendable`, and safe: its one use is `pa_mainloop_wakeup`,
    /// which libpulse documents as callable from any thread, and it is only
    /// called under the inbox's lock, which the loop's thread also takes to
    /// remove the waker before it frees the loop (``detach()``), so no wake
    /// reaches a freed loop.
    struct Waker: @unchecked Sendable {
        let mainloop: OpaquePointer
        func wake() { pa_mainloop_wakeup(mainloop) }
    }

    private let pending = Mutex(Pending())

    /// Queues an input and wakes the loop. A newer `buttons` replaces one
    /// not yet taken, since only the newest list matters.
    func post(_ input: SoundState.Input) {
        pending.withLock { pending in
            if case .buttons = input, let last = pending.inputs.lastIndex(where: { if case .buttons = $0 { true } else { false } }) {
                pending.inputs.remove(at: last)
            }
            pending.inputs.append(input)
            pending.waker?.wake()
        }
    }

    /// Asks the loop to end.
    func stop() {
        pending.withLock { pending in
            pending.stopping = true
            pending.waker?.wake()
        }
    }

    /// Everything queued since the last call, and whether to stop.
    func take() -> (inputs: [SoundState.Input], stopping: Bool) {
        pending.withLock { pending in
            defer { pending.inputs = [] }
            return (pending.inputs, pending.stopping)
        }
    }

    /// Called by the loop's thread once its loop exists.
    func attach(_ mainloop: OpaquePointer) {
        pending.withLock { $0.waker = Waker(mainloop: mainloop) }
    }

    /// Called by the loop's thread before it frees its loop.
    func detach() {
        pending.withLock { $0.waker = nil }
    }
}
