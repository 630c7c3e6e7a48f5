import DeckPluginKit
import Glibc

extension PluginSupervisor {
    // MARK: Writing to the plugin

    /// What became of an event handed to ``send(_:)``.
    enum Sent {
        /// Written to the pipe, or queued behind what the pipe has not taken yet.
        case queued
        /// No process, or its queue is full: the event is dropped.
        case dropped
        /// The write found the pipe broken (why): the event never reached the plugin.
        case broken(String)
    }

    /// Queues one event for the plugin and writes what the pipe takes.
    @discardableResult
    func send(_ event: PluginEvent) -> Sent {
        guard process != nil else { return .dropped }
        guard outbox.append(event.line()) else {
            if dropped == 0 {
                log(.warning, "plugin '\(id)' is not reading its input (\(outbox.count) lines are waiting); messages to it are dropped until it reads again")
            }
            dropped += 1
            if case .buttons = event { buttonsLost = true }
            return .dropped
        }
        return flushInput().map { .broken($0) } ?? .queued
    }

    func sendButtons() {
        if case .queued = send(.buttons(buttons)) {
            sentButtons = buttons
        } else {
            buttonsLost = true
        }
    }

    func sendPress(_ press: PluginPress) -> PluginPressResult {
        switch send(.press(press)) {
        case .queued: .delivered
        case .dropped: .dropped("is not reading its input, so the press was dropped")
        case .broken(let reason): .unavailable("\(reason), so the press was lost; it is started again")
        }
    }

    /// Writes queued lines until the pipe is full; watches for room then.
    /// Returns why the pipe is broken when this write found it so.
    @discardableResult
    func flushInput() -> String? {
        guard let process else { return nil }
        switch outbox.flush(to: process.input) {
        case .empty:
            inputWatch?.cancel()
            inputWatch = nil
            caughtUp()
        case .blocked:
            if inputWatch == nil {
                inputWatch = try? loop.watchWritable(process.input) { [weak self] in self?.flushInput() }
            }
        case .broken(let error):
            inputWatch?.cancel()
            inputWatch = nil
            outbox.removeAll()
            let reason = error == EPIPE ? "closed its input" : "could not be written to (\(String(cString: strerror(error))))"
            brokeUnlessExiting(reason)
            return reason
        }
        return nil
    }

    /// The queue emptied: say how much was lost, and resend the buttons if
    /// their update was among it.
    private func caughtUp() {
        if dropped > 0 {
            log(.info, "plugin '\(id)' reads its input again; \(dropped) messages to it were dropped meanwhile")
            dropped = 0
        }
        if buttonsLost && lifecycle.isReady {
            buttonsLost = false
            sendButtons()
        }
    }

    // MARK: Reading from the plugin

    func readOutput() {
        guard let fd = process?.output else { return }
        var pieces: [LineSplitter.Piece] = []
        let outcome = read(fd, into: &outputLines) { pieces.append($0) }
        // Handled after reading: handling may end the process and reset the splitter.
        for piece in pieces { handleOutput(piece) }
        switch outcome {
        case .more, .drained:
            break
        case .ended:
            outputWatch?.cancel()
            outputWatch = nil
            brokeUnlessExiting("closed its output")
        }
    }

    /// A pipe to the plugin ended (`reason`). A plugin that exits closes its
    /// pipes a moment before the exit is seen: give the exit a moment, so the
    /// log and `deckctl status` say how it ended ("exited with status 4")
    /// rather than which pipe noticed first.
    private func brokeUnlessExiting(_ reason: String) {
        if process?.hasExited == true {
            checkExit()
        } else {
            perform(lifecycle.pipeEnded(reason))
        }
    }

    func readErrors() {
        guard let fd = process?.errors else { return }
        var pieces: [LineSplitter.Piece] = []
        let outcome = read(fd, into: &errorLines) { pieces.append($0) }
        for piece in pieces {
            switch piece {
            case .line(let bytes):
                guard !bytes.isEmpty else { continue }
                limitedLog(.info, {
                    var text = String(decoding: bytes, as: UTF8.self)
                    if text.count > 2000 { text = String(text.prefix(2000)) + "…" }
                    return "plugin '\(id)' (stderr): \(text)"
                }())
            case .tooLong:
                limitedLog(.warning, "plugin '\(id)' wrote a stderr line longer than \(errorLines.limit) bytes; it was not logged")
            }
        }
        if outcome == .ended {
            errorWatch?.cancel()
            errorWatch = nil
        }
    }

    /// Reads what `fd` has, within the policy's budget per loop turn, so a
    /// plugin that never stops writing cannot keep the loop from its other work.
    private func read(_ fd: Int32, into splitter: inout LineSplitter, _ each: (LineSplitter.Piece) -> Void) -> PipeReading {
        PipeReading.read(fd, buffer: &readBuffer, budget: policy.readBudget, into: &splitter, each)
    }

    private func handleOutput(_ piece: LineSplitter.Piece) {
        let message: PluginMessage
        switch piece {
        case .tooLong(let bytes):
            limitedLog(.warning, "plugin '\(id)' sent a line longer than \(PluginProtocol.maximumImageLineBytes) bytes (\(bytes) or more); it was dropped")
            return
        case .line(let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }  // blank lines carry nothing
            do {
                message = try PluginMessage(line: bytes)
            } catch {
                limitedLog(.warning, "plugin '\(id)' sent a line the host cannot use (\(error)); it was dropped")
                return
            }
            // PLUGINS.md §2 bounds a line at 64 KiB; only an image needs more room.
            if bytes.count > PluginProtocol.maximumLineBytes, message.type != "setImage" {
                limitedLog(.warning, "plugin '\(id)' sent a \(message.type) line of \(bytes.count) bytes, longer than "
                    + "\(PluginProtocol.maximumLineBytes) (only a setImage may be longer); it was dropped")
                return
            }
        }
        switch message {
        case .ready:
            if lifecycle.isReady { log(.debug, "plugin '\(id)' said ready again; ignored") }
            perform(lifecycle.readyReceived(now: .now))
        case let .setTitle(target, title):
            if let title, title.utf8.count > policy.maximumTitleBytes {
                limitedLog(.warning, "plugin '\(id)' set a title of \(title.utf8.count) bytes on \(describe(target)), more than \(policy.maximumTitleBytes); ignored")
                return
            }
            for button in ownButtons(target, doing: "set the title of") {
                delegate?.plugin(self, setTitle: title, page: button.page, index: button.index)
            }
        case .setState(let target, _), .setImage(let target, _), .showAlert(let target), .showOk(let target):
            let matched = ownButtons(target, doing: "set the face of")
            if !matched.isEmpty { delegate?.plugin(self, face: message, for: matched) }
        case let .log(level, text):
            limitedLog(level, "plugin '\(id)': \(text)")
        case let .setStatus(status):
            // One line of a table: bounded, and without control characters that would break it.
            selfReported = status.map { String(String($0.unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) }).prefix(200)) }
            reportStatus()
        }
    }

    /// The live buttons of this plugin that `target` names. A slot that is
    /// not one of them is logged (as `setTitle` always was); a `for` that
    /// matches nothing is not an error, the buttons may not be live yet.
    func ownButtons(_ target: ButtonTarget, doing what: String) -> [PluginButton] {
        let matched = buttons.filter { target.matches($0) }
        if matched.isEmpty, case let .slot(page, index) = target {
            limitedLog(.warning, "plugin '\(id)' \(what) slot \(page)/\(index), which is not one of its buttons; ignored")
        }
        return matched
    }

    /// `slot 0/3` or `the buttons of command 'mute'`, for log lines.
    func describe(_ target: ButtonTarget) -> String {
        switch target {
        case let .slot(page, index): "\(page)/\(index)"
        case let .matching(command, _): "the buttons of command '\(command)'"
        }
    }

    /// Logs a line the plugin caused, within its log budget. The message is
    /// made only when it is logged: a plugin writing garbage in a loop costs
    /// a count per line past the budget, not a sentence.
    func limitedLog(_ level: PluginLogLevel, _ message: @autoclosure () -> String) {
        switch budget.take(now: .now) {
        case .suppress(let due):
            guard let due else { return }
            _ = loop.schedule(after: max(.zero, due - .now)) { [weak self] in self?.logSuppressedCount() }
        case let .log(suppressedBefore, isLast):
            sayNotLogged(suppressedBefore)
            log(level, message())
            if isLast {
                log(.warning, "plugin '\(id)' writes a lot: its next lines within \(PluginLifecycle.words(budget.window)) are counted, not logged")
            }
        }
    }

    /// The window whose lines were counted has ended: say how many.
    private func logSuppressedCount() {
        sayNotLogged(budget.takeCount(now: .now))
    }

    private func sayNotLogged(_ count: Int) {
        if count > 0 { log(.warning, "plugin '\(id)': \(count) more lines from it were not logged") }
    }

    // MARK: The end of a process

    /// The pidfd says the process ended (or the poll found it): reap it,
    /// read what it left in its pipes, and let the lifecycle decide.
    func checkExit() {
        guard let how = process?.reap() else { return }
        if outputWatch != nil { readOutput() }
        if errorWatch != nil { readErrors() }
        if let pid = process?.pid { log(.debug, "plugin '\(id)' (pid \(pid)) \(how)") }
        lastExit = "\(how)"
        tearDown()
        if budget.suppressed > 0 {
            sayNotLogged(budget.suppressed)
            budget = LogBudget(capacity: policy.logBudget, window: policy.logWindow)
        }
        failHeld("\(how) before it was ready", keepingRestartWaits: true)
        delegate?.pluginProcessEnded(self)
        perform(lifecycle.exited(how, now: .now))
    }

    /// Forgets the process: watches, descriptors and queued lines (its timers
    /// are cancelled by the lifecycle's actions for the exit).
    func tearDown() {
        for watch in [outputWatch, errorWatch, exitWatch, inputWatch] { watch?.cancel() }
        (outputWatch, errorWatch, exitWatch, inputWatch) = (nil, nil, nil, nil)
        process?.close()
        process = nil
        outbox.removeAll()
        outputLines = LineSplitter(limit: PluginProtocol.maximumImageLineBytes)
        errorLines = LineSplitter(limit: PluginProtocol.maximumLineBytes)
        readBuffer = []
        sentButtons = nil
        buttonsLost = false
        selfReported = nil
        if dropped > 0 {
            log(.info, "plugin '\(id)' ended with \(dropped) messages to it dropped")
            dropped = 0
        }
    }
}
