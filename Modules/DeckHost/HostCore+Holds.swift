import DeckProtocol
import DeckTransport

extension HostCore {
    /// Sends each `up` that ``HeldButtons`` owes, with a log line that says
    /// `why` (given who held it). PROTOCOL.md says both edges reach the
    /// action; it is silent on a device that leaves in between
    /// (docs/plugins.md, "Presses").
    ///
    /// Done in pipeline order, after the presses it follows (a `down` may
    /// still wait behind a write to disk). Not while the host stops: every
    /// plugin is sent `shutdown` then.
    func lift(_ ups: [ActionRequest], why: (String) -> String) {
        for request in ups {
            guard case let .plugin(plugin, command, settings) = request.button.action else { continue }
            services.logger.info("'\(LogField.cut(request.button.name))' lifted at \(request.page)/\(request.index): "
                + why(request.by?.name ?? "the device"))
            pressPlugin(request, plugin: plugin, command: command, settings: settings)
        }
    }
}
