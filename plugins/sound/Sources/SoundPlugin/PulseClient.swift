internal import CPulse
import DeckPluginKit
#if canImport(Glibc)
import Glibc
#endif

/// The libpulse side of the plugin: one `pa_mainloop` run on the plugin's
/// own thread, the context on it, and the ``SoundState`` machine it feeds.
/// Everything here runs on that thread only; other threads talk to it
/// through the ``SoundInbox``.
final class PulseClient {
    /// What the loop does with faces and log lines (the plugin connection).
    struct Output {
        var show: (_ page: Int, _ index: Int, _ face: SoundFace) -> Void
        var alert: (_ page: Int, _ index: Int) -> Void
        var log: (_ level: PluginLogLevel, _ message: String) -> Void
    }

    let mainloop: OpaquePointer
    let output: Output
    var machine = SoundState()
    /// The context of the current try, nil between tries.
    var context: OpaquePointer?
    /// Why the context died, seen in a callback and acted on after dispatch
    /// (a context is not freed inside its own callback).
    var died: String?
    var reconnectAt: ContinuousClock.Instant?
    var lists = ListTracker()
    /// Called once, when the first try to connect has ended (connected or not).
    private var firstTryEnded: (() -> Void)?

    init(output: Output, firstTryEnded: @escaping () -> Void = {}) throws(SoundError) {
        guard let mainloop = pa_mainloop_new() else { throw .library("pa_mainloop_new returned nothing (out of memory)") }
        self.mainloop = mainloop
        self.output = output
        self.firstTryEnded = firstTryEnded
    }

    deinit {
        tearDown()
        pa_mainloop_free(mainloop)
    }

    /// Runs until the inbox says stop.
    func run(_ inbox: SoundInbox) {
        inbox.attach(mainloop)
        defer { inbox.detach() }
        while true {
            let (inputs, stopping) = inbox.take()
            if stopping { return }
            for input in inputs { feed(input) }
            if let due = reconnectAt, ContinuousClock.now >= due {
                reconnectAt = nil
                feed(.reconnectDue)
            }
            // Last before polling: a connect above (from an input or the retry) may fail at once.
            while let reason = died {
                died = nil
                tearDown()
                feed(.lost(reason: reason))
            }
            var timeout: Int32 = -1
            if let due = reconnectAt {
                let left = ContinuousClock.now.duration(to: due)
                let microseconds = left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000
                timeout = Int32(clamping: max(microseconds, 0))
            }
            // A negative prepare means pa_mainloop_quit, which nothing calls: poll again regardless.
            if pa_mainloop_prepare(mainloop, timeout) >= 0, pa_mainloop_poll(mainloop) >= 0 {
                _ = pa_mainloop_dispatch(mainloop)
            }
        }
    }

    func feed(_ input: SoundState.Input) {
        for action in machine.handle(input) { perform(action) }
        if machine.firstTryEnded, let settled = firstTryEnded {
            firstTryEnded = nil
            settled()
        }
    }

    private func perform(_ action: SoundState.Action) {
        switch action {
        case .connect: connect()
        case .reconnect(let delay): reconnectAt = ContinuousClock.now + delay
        case .show(let page, let index, let face): output.show(page, index, face)
        case .alert(let page, let index): output.alert(page, index)
        case .change(let endpoint, let change): request(change, of: endpoint)
        case .refresh: ListKind.allCases.forEach(refresh)
        case .log(let level, let message): output.log(level, message)
        }
    }

    // MARK: The context's life

    private func connect() {
        tearDown()
        guard let api = pa_mainloop_get_api(mainloop), let made = pa_context_new(api, "deck sound plugin") else {
            died = "libpulse could not make a context (out of memory)"
            return
        }
        context = made
        lists = ListTracker()
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(made, { context, userdata in
            guard let userdata else { return }
            Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().stateChanged(context)
        }, me)
        pa_context_set_subscribe_callback(made, { context, event, index, userdata in
            guard let userdata else { return }
            Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().serverChanged(context, event: event.rawValue)
        }, me)
        // No autospawn: a deck must not start a sound server of its own; NULL is libpulse's usual server
        // (PULSE_SERVER, then the user's runtime folder), what every other client of the session uses.
        if pa_context_connect(made, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            died = Self.reason(made)
        }
    }

    private func stateChanged(_ changed: OpaquePointer?) {
        guard let context, changed == context else { return }
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_READY {
            let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
                | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            if let operation = pa_context_subscribe(context, pa_subscription_mask_t(mask), nil, nil) {
                pa_operation_unref(operation)
            }
            ListKind.allCases.forEach(refresh)
        } else if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
            died = died ?? Self.reason(context)
        }
    }

    private func serverChanged(_ changed: OpaquePointer?, event: UInt32) {
        guard let context, changed == context else { return }
        switch event & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue: refresh(.sinks)
        case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue: refresh(.sources)
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue: refresh(.streams)
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: refresh(.server)
        default: break
        }
    }

    /// Frees the context; callbacks of it that libpulse runs while freeing
    /// find `context` nil and do nothing.
    func tearDown() {
        guard let old = context else { return }
        context = nil
        pa_context_set_state_callback(old, nil, nil)
        pa_context_set_subscribe_callback(old, nil, nil)
        pa_context_disconnect(old)
        pa_context_unref(old)
    }

    static func reason(_ context: OpaquePointer) -> String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }
}
