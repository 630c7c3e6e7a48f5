internal import CPulse
import DeckPluginKit
import Synchronization

/// Inputs on their way from the plugin's thread (the host's events) to the
/// libpulse loop's thread, which alone runs the machine.
///
/// The loop is woken through a pipe of the inbox's own, watched by the loop
/// as an I/O event, not with `pa_mainloop_wakeup`: `pa_mainloop_prepare`
/// throws away every wake-up written before it, so an input posted between
/// the loop's ``take()`` and its next prepare waited for some other event —
/// a press that came as the loop was busy (right after connecting) was lost.
/// A byte in this pipe stays until the loop's callback reads it.
final class SoundInbox: Sendable {
    private struct Pending {
        var inputs: [SoundState.Input] = []
        var stopping = false
    }

    private let pending = Mutex(Pending())
    /// The wake-up pipe: the loop watches it, ``post(_:)`` writes to it.
    private let wakeUp = WakePipe()
    /// The loop's watch of the pipe, and the loop it is in, while attached.
    private let watch = Mutex<Watch?>(nil)

    /// `@unchecked Sendable`, and safe: both pointers are used only on the
    /// loop's thread (``attach(_:)`` and ``detach()``); the mutex only keeps them.
    private struct Watch: @unchecked Sendable {
        let api: UnsafeMutablePointer<pa_mainloop_api>
        let event: OpaquePointer
    }

    /// Queues an input and wakes the loop. A newer `buttons` replaces one
    /// not yet taken, since only the newest list matters.
    func post(_ input: SoundState.Input) {
        pending.withLock { pending in
            if case .buttons = input, let last = pending.inputs.lastIndex(where: { if case .buttons = $0 { true } else { false } }) {
                pending.inputs.remove(at: last)
            }
            pending.inputs.append(input)
        }
        wakeUp.wake()
    }

    /// Asks the loop to end.
    func stop() {
        pending.withLock { $0.stopping = true }
        wakeUp.wake()
    }

    /// Everything queued since the last call, and whether to stop.
    func take() -> (inputs: [SoundState.Input], stopping: Bool) {
        pending.withLock { pending in
            defer { pending.inputs = [] }
            return (pending.inputs, pending.stopping)
        }
    }

    /// Called by the loop's thread once its loop exists: the loop watches the pipe.
    func attach(_ mainloop: OpaquePointer) {
        guard wakeUp.readEnd >= 0, let api = pa_mainloop_get_api(mainloop), let make = api.pointee.io_new,
              let event = make(api, wakeUp.readEnd, PA_IO_EVENT_INPUT, { _, _, _, _, user in
                  // Empties the pipe; the loop takes the inputs after its dispatch.
                  user.map { Unmanaged<WakePipe>.fromOpaque($0).takeUnretainedValue().drain() }
              }, Unmanaged.passUnretained(wakeUp).toOpaque()) else { return }
        watch.withLock { $0 = Watch(api: api, event: event) }
    }

    /// Called by the loop's thread before it frees its loop.
    func detach() {
        guard let watch = watch.withLock({ watch in defer { watch = nil }; return watch }) else { return }
        watch.api.pointee.io_free?(watch.event)
    }
}
