import DeckTransport

/// What takes the inputs a ``HostInbox`` carries: the shell (`HostCore`),
/// which hands each to ``HostState/handle(_:)`` and applies the actions.
protocol HostInputSink: AnyObject {
    /// One input, on the loop's thread.
    func receive(_ input: HostInput)
}

/// The one channel from the host's components into the rules (docs/host.md,
/// "One channel in"): the plugin manager, the follow runner, the folder
/// watch, the signals, the lock probe, the action runner and the timers the
/// rules arm all report by posting a ``HostInput`` here, and hold this
/// value instead of the core. The sink is held weakly: a component kept
/// alive by a loop callback does not keep the host alive (the listener
/// cycle LeakSanitizer once found, docs/reliability.md), and an input posted
/// after the host is gone is dropped, as nothing could act on it.
struct HostInbox: Sendable {
    private final class Target {
        weak var sink: (any HostInputSink)?
        init(_ sink: any HostInputSink) { self.sink = sink }
    }

    private let target: LoopBound<Target>

    /// Points at `sink`; call on `loop`'s thread.
    init(_ sink: any HostInputSink, loop: EventLoop) {
        target = LoopBound(Target(sink), loop: loop)
    }

    /// The loop the inputs are handled on.
    var loop: EventLoop { target.loop }

    /// Hands `input` to the rules now; call on the loop's thread. Posted
    /// while the shell applies actions, its actions queue behind theirs
    /// (``HostCore/apply(_:)``), so a component may post from inside a call
    /// the shell made.
    func post(_ input: HostInput) {
        target.value.sink?.receive(input)
    }

    /// From any thread: carries `value` to the loop and posts the input
    /// `input` makes of it there (a runner's or probe's result).
    func post<Value: Sendable>(_ value: Value, fromAnyThread input: @escaping @Sendable (Value) -> HostInput) {
        let inbox = self
        _ = loop.execute { inbox.post(input(value)) }
    }
}

/// A timer the rules arm (``HostAction/armTimer(_:after:)``); its firing
/// comes back as ``HostInput/timerFired(_:)``. A value, so a test compares
/// what was armed and fires it by hand.
enum HostTimer: Hashable {
    /// A face frame (16 ms, or the turn a change came in) is over: the faces it held go out.
    case faceFrame
    /// The stop's deadline: stop the loop whatever is left.
    case stopDeadline
}
