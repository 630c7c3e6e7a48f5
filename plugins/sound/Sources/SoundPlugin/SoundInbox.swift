internal import CPulse
#if canImport(Glibc)
import Glibc
#endif
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
    /// The wake-up pipe: the loop watches `read`, ``post(_:)`` writes to `write`.
    private let wakeUp: (read: Int32, write: Int32)
    /// The loop's watch of the pipe, and the loop it is in, while attached.
    private let watch = Mutex<Watch?>(nil)

    /// `@unchecked Sendable`, and safe: both pointers are used only on the
    /// loop's thread (``attach(_:)`` and ``detach()``); the mutex only keeps them.
    private struct Watch: @unchecked Sendable {
        let api: UnsafeMutablePointer<pa_mainloop_api>
        let event: OpaquePointer
    }

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wakeUp = (ends[0], ends[1])
    }

    deinit {
        if wakeUp.read >= 0 { close(wakeUp.read) }
        if wakeUp.write >= 0 { close(wakeUp.write) }
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
        wake()
    }

    /// Asks the loop to end.
    func stop() {
        pending.withLock { $0.stopping = true }
        wake()
    }

    /// Everything queued since the last call, and whether to stop.
    func take() -> (inputs: [SoundState.Input], stopping: Bool) {
        pending.withLock { pending in
            defer { pending.inputs = [] }
            return (pending.inputs, pending.stopping)
        }
    }

    /// One byte (a full pipe already wakes the loop: EAGAIN is fine).
    private func wake() {
        guard wakeUp.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeUp.write, &byte, 1)
    }

    /// Called by the loop's thread once its loop exists: the loop watches the pipe.
    func attach(_ mainloop: OpaquePointer) {
        guard wakeUp.read >= 0, let api = pa_mainloop_get_api(mainloop), let make = api.pointee.io_new,
              let event = make(api, wakeUp.read, PA_IO_EVENT_INPUT, { _, _, fd, _, _ in
                  // Empties the pipe; the loop takes the inputs after its dispatch.
                  var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                  while withUnsafeMutableBytes(of: &bytes, { read(fd, $0.baseAddress, $0.count) }) > 0 {}
              }, nil) else { return }
        watch.withLock { $0 = Watch(api: api, event: event) }
    }

    /// Called by the loop's thread before it frees its loop.
    func detach() {
        guard let watch = watch.withLock({ watch in defer { watch = nil }; return watch }) else { return }
        watch.api.pointee.io_free?(watch.event)
    }
}
