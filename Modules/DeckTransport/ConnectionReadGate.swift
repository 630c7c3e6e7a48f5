/// Who holds a connection's reading back, and why, as a state machine.
/// Lines are handed to the handler (and the socket read) only while nothing
/// holds them: not while the layer above paused reading
/// (``Connection/pauseReading()``), not while unread output is above
/// ``ConnectionLimits/outputHighWater`` (backpressure), and at most
/// ``linesPerTurn`` in one loop turn (fairness). It also keeps why the input
/// ended. Facts of the connection's other parts (whether its lifecycle still
/// receives, how many bytes wait) come in as arguments; the returned
/// ``Action`` says what the connection must do.
///
/// ```
/// flowing ──pause / output above high water──▶ held(paused, output)
///    ▲                                              │
///    └──── resume / output at half the mark, ◀──────┘
///          once no reason is left: readAgain
/// ```
struct ConnectionReadGate {
    /// Why lines are held back.
    struct Holds: OptionSet, Hashable {
        let rawValue: UInt8
        /// The layer above paused reading.
        static let paused = Holds(rawValue: 1 << 0)
        /// Output above the high-water mark waits for the peer.
        static let output = Holds(rawValue: 1 << 1)
    }

    /// What the connection must do after an input.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Poll the socket for what it wants now (reading stopped).
        case updateInterest
        /// Reading goes on: first the lines the framing kept (as a loop task,
        /// never from inside the caller), then the socket.
        case readAgain
    }

    /// Lines handed to the handler per connection per loop turn. The rest
    /// wait in the framing for the next turn, after every other connection
    /// had its turn, so one flooder cannot starve a healthy client.
    static let linesPerTurn = 16

    private enum State: Equatable {
        case flowing
        case held(Holds)
    }

    private var state = State.flowing
    /// Lines handed over in this loop turn.
    private var linesThisTurn = 0
    /// Why no more lines come (`.peerClosed` or `.lineTooLong`); nil while they may.
    private(set) var inputEnd: CloseReason?

    /// Whether nothing holds reading back (the lifecycle may still have ended it).
    var isFlowing: Bool { state == .flowing }
    /// Whether the layer above paused reading.
    var isPaused: Bool { holds.contains(.paused) }
    /// Whether unread output holds reading back.
    var isHeldByOutput: Bool { holds.contains(.output) }
    /// Whether this turn's share of lines has been handed over.
    var isTurnSpent: Bool { linesThisTurn >= Self.linesPerTurn }

    private var holds: Holds {
        if case .held(let holds) = state { return holds }
        return []
    }

    // MARK: Inputs

    /// The layer above pauses reading (only while the connection is open).
    mutating func pause() -> Action {
        guard !holds.contains(.paused) else { return .none }
        state = .held(holds.union(.paused))
        return .updateInterest
    }

    /// The layer above resumes reading; `receiving`: the lifecycle still delivers lines.
    mutating func resume(receiving: Bool) -> Action {
        release(.paused, receiving: receiving)
    }

    /// Output was queued or held: `bytes` wait for the peer in all. Past the
    /// high-water mark, lines stop at the next one (the framing keeps what
    /// it has) and the socket is no longer polled for input.
    mutating func outputGrew(to bytes: Int, highWater: Int?, receiving: Bool) -> Action {
        guard let highWater, receiving, bytes > highWater, !holds.contains(.output) else { return .none }
        state = .held(holds.union(.output))
        return .updateInterest
    }

    /// Output was written: at half the high-water mark or less, reading goes
    /// on (unless the layer above paused it).
    mutating func outputShrank(to bytes: Int, highWater: Int?, receiving: Bool) -> Action {
        guard let highWater, holds.contains(.output), bytes <= highWater / 2 else { return .none }
        return release(.output, receiving: receiving)
    }

    /// A new loop turn's share begins (a read, or the held lines delivered).
    mutating func turnStarted() {
        linesThisTurn = 0
    }

    /// One line was handed to the handler; whether the next may follow now
    /// (the handler may have paused reading or closed meanwhile).
    mutating func handedOver(receiving: Bool) -> Bool {
        linesThisTurn += 1
        return receiving && isFlowing && !isTurnSpent
    }

    /// Whether the lines the framing holds must wait for the next turn:
    /// this turn's share is spent while reading otherwise goes on.
    func waitsForNextTurn(receiving: Bool, framingHoldsLines: Bool) -> Bool {
        isTurnSpent && receiving && isFlowing && framingHoldsLines
    }

    /// No more lines come, for `reason`; the first reason stays.
    mutating func inputEnded(_ reason: CloseReason) -> Action {
        if inputEnd == nil { inputEnd = reason }
        return .updateInterest
    }

    private mutating func release(_ hold: Holds, receiving: Bool) -> Action {
        guard holds.contains(hold) else { return .none }
        let left = holds.subtracting(hold)
        state = left.isEmpty ? .flowing : .held(left)
        return left.isEmpty && receiving ? .readAgain : .none
    }
}
