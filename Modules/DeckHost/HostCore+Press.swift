import DeckModel
import DeckProtocol
import DeckTransport

extension HostCore {
    /// `press`: look the slot up in `head`, check the expected button, answer
    /// `ok` and hand the action on. How the action ends is an `action` event
    /// and a log line, never the reply.
    func press(page: Int, index: Int, expecting: DeckButton?, phase: PressPhase, id: RequestID?, from session: Session) {
        let connection = session.connection.id
        func refuse(_ code: ErrorCode, _ message: String) {
            submit(Outcome(refusal(ProtocolError(code, message, id: id), request: "press", session: session)), from: session)
        }
        do {
            try live.head.layout.checkRange(page: page, index: index)
        } catch {
            return refuse(.outOfRange, error.description)
        }
        let button = live.head.layout.button(page: page, index: index)
        // A press that names its button is checked first: a slot emptied
        // since the device drew it no longer holds that button (`stale`, as
        // `clearButton` with `expecting` says), so the device learns its
        // picture drifted; `empty` is for a press on a slot it saw empty.
        if let expecting, expecting != button {
            return refuse(.stale, DeckModelError.stale(page: page, index: index, expected: expecting.name).description)
        }
        guard let button else {
            return refuse(.empty, "slot \(page)/\(index) is empty; there is nothing to run")
        }
        var effects: [Effect] = [
            .ok(connection, id, withRevision: false),
            .event(.press(page: page, index: index, button: button.name, phase: phase, by: session.info)),
            .log(.info, "pressed '\(LogField.cut(button.name))' at \(page)/\(index)" + (phase == .tap ? "" : " (\(phase.rawValue))") + byline(session)),
        ]
        let request = ActionRequest(page: page, index: index, button: button, phase: phase, by: session.info)
        if phase != .tap && !session.isControl {
            // deckctl's `press --down` and `--up` come on two connections, on purpose.
            effects.append(.trackHold(request, of: connection))
        }
        if case .plugin = button.action {
            // Plugins learn every phase as it is, in the order the presses came.
            effects.append(.pressPlugin(request))
        } else if phase == .up {
            // Built-in actions run on `tap` or `down`; the `up` edge is for plugins.
            effects.append(.log(.debug, "'\(LogField.cut(button.name))': the up edge of a \(button.action.kind) action does nothing"))
        } else {
            switch button.action {
            case .page(let target):
                let shown = target.resolve(from: page, pageCount: live.head.layout.pages.count)
                effects.append(.send(connection, .showPage(page: shown)))
                effects.append(.actionEnded(request, .delivered))
            case .profile(let name):
                effects.append(.switchProfile(name, press: request))
            case .run, .open:
                effects.append(.startAction(request))
            case .plugin:
                break  // handed to the plugin above
            }
        }
        submit(Outcome(effects), from: session)
    }

    /// Hands a `run` or `open` action to the runner; its end comes back to the loop.
    func startAction(_ request: ActionRequest) {
        let bound = self.bound
        services.runner.run(request) { outcome in
            bound.loop.execute { bound.value.actionEnded(request, outcome) }
        }
    }

    /// An action ended: an `action` event and a log line (`detail` says more
    /// than the outcome can: why a plugin could not take a press, as a
    /// predicate about the plugin).
    func actionEnded(_ request: ActionRequest, _ outcome: ActionOutcome, detail: String? = nil) {
        let kind = request.button.action.kind
        emit(.action(page: request.page, index: request.index, button: request.button.name, action: kind,
                     outcome: outcome, by: request.by))
        let how: String = switch outcome {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was ended by signal \(signal)"
        case .timedOut(let seconds): "did not finish within \(Self.seconds(seconds)) and was killed with its process group"
        // `delivered` ends page and profile actions too, where no plugin is involved.
        case .delivered:
            switch kind {
            case "plugin": "was delivered to its plugin"
            case "page": "sent the page to the device that pressed it"
            default: "is done"
            }
        case .openerMissing: "found no opener (install xdg-utils, or pass --opener COMMAND)"
        case .pluginUnavailable(let plugin): "could not reach plugin '\(plugin)'" + (detail.map { ": it \($0)" } ?? "")
        case .failed(let reason): "failed: \(reason)"
        }
        services.logger.log(outcome.succeeded ? .info : .warning, "'\(LogField.cut(request.button.name))' (\(kind)) \(how)")
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}
