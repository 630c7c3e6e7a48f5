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
        if let index = heldReplaceable, let older = held[index] {
            held[index] = nil
            heldBytes -= older.count
        }
        heldReplaceable = held.count
        return hold(line, replaceable: true)
    }

    /// Output queued or held.
    var hasOutput: Bool { !output.isEmpty || !held.isEmpty }

    /// Keeps `line` behind the replaceable one, within the output bound.
    func hold(_ line: OutboundLine, replaceable: Bool) -> Bool {
        held.append(line)
        heldBytes += line.count
        holdReadingIfOutputHigh()
        if output.pendingBytes + heldBytes > limits.maxQueuedOutputBytes {
            apply(lifecycle.fail(.outputLimit(limit: limits.maxQueuedOutputBytes)))
            return false
        }
        // A peer that does not read gets its lines with the next EPOLLOUT.
        if !writeBlocked { scheduleFlush() }
        return lifecycle.isOpen
    }

    /// Frames the held lines, in order, once the output before them is written.
    func releaseHeld() {
        let lines = held
        dropHeld()
        for line in lines {
            guard let line, lifecycle.isOpen || lifecycle.isClosing else { continue }
            framing.frame(line, on: self)
        }
    }

    func dropHeld() {
        held = []
        heldReplaceable = nil
        heldBytes = 0
    }
}
