extension Connection {
    /// Sends a line that makes any earlier one sent this way obsolete (a
    /// full layout, PROTOCOL.md §5: the current layout, not every one).
    ///
    /// With nothing waiting it goes out as ``send(_:)`` sends. Behind output
    /// not yet written it waits instead, and a newer one sent this way takes
    /// its place (the older is dropped); lines sent after it wait behind it,
    /// so every line keeps its order relative to the others. 10 clients
    /// flooding refused edits otherwise queued one full layout per refusal
    /// for a healthy client, until it was closed for not reading its output.
    @discardableResult
    public func sendLatest(_ line: OutboundLine) -> Bool {
        loop.preconditionInLoop()
        guard lifecycle.isOpen else { return false }
        guard hasOutput else {
            framing.frame(line, on: self)
            return lifecycle.isOpen
        }
        return hold(line, replaceable: true)
    }

    /// Output queued or held.
    var hasOutput: Bool { !output.isEmpty || !held.isEmpty }

    /// Keeps `line` behind the replaceable one, within the output bound.
    func hold(_ line: OutboundLine, replaceable: Bool) -> Bool {
        held.append(line, replaceable: replaceable)
        holdReadingIfOutputHigh()
        apply(writing.held(bytes: waitingBytes))
        return lifecycle.isOpen
    }

    /// Frames the held lines, in order, once the output before them is written.
    func releaseHeld() {
        for line in held.take() where lifecycle.isOpen || lifecycle.isClosing {
            framing.frame(line, on: self)
        }
    }
}
