import DeckPlugins
import DeckProtocol

extension HostState {
    /// An action ended: an `action` event and a log line (`detail` says more
    /// than the outcome can: why a plugin could not take a press, as a
    /// predicate about the plugin). Both go out at once, not through the
    /// pipeline: how an action ended is news, not a reply.
    /// `level` replaces the outcome's own (info when it succeeded, else warning).
    static func actionEnded(_ request: ActionRequest, _ outcome: ActionOutcome, detail: String? = nil,
                            level: LogLevel? = nil) -> [HostAction] {
        let kind = request.button.action.kind
        let event = DeckEvent.action(page: request.page, index: request.index, button: request.button.name, action: kind,
                                     outcome: outcome, by: request.by)
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
        return [.perform(.event(event)),
                .log(level ?? (outcome.succeeded ? .info : .warning), "'\(LogField.cut(request.button.name))' (\(kind)) \(how)")]
    }

    /// A plugin press's end, as the plugin manager reported it: `delivered`,
    /// `pluginUnavailable` with why, or `failed` with what became of it.
    static func pressEnded(_ request: ActionRequest, _ result: PluginPressResult) -> [HostAction] {
        guard case let .plugin(id, _, _) = request.button.action else { return [] }
        switch result {
        case .delivered:
            return actionEnded(request, .delivered)
        case .unavailable(let reason):
            return actionEnded(request, .pluginUnavailable(plugin: id), detail: reason)
        case .dropped(let reason):
            // The plugin manager says once that the plugin stopped reading, and
            // once that it reads again; a warning per dropped press was a line
            // per press (an audit: 19,927 lines for 20,000 presses). `--log-level
            // debug` still has each; the `action` event goes out as always.
            return actionEnded(request, .failed(reason: "plugin '\(id)' \(reason)"), level: .debug)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}
