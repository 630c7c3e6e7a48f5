// The `counter` example plugin (plugins/counter): counts presses and shows
// the count as the title of every `increment` button; `reset` sets it to 0.
// A button may give `settings: {step: N}` to count by N.
import DeckPluginKit

var count = 0

/// Puts the count on every increment button of the live layout.
@MainActor func showCount(_ plugin: PluginConnection) {
    for button in plugin.buttons where button.command == "increment" {
        plugin.setTitle("\(button.name): \(count)", for: button.reference)
    }
}

PluginMain.run { event, plugin in
    switch event {
    case .buttons:
        showCount(plugin)  // new or moved buttons show the count at once
    case .press(let press) where press.phase != .up:  // count a tap or the down edge, once per press
        switch press.command {
        case "increment":
            guard case .int(let step)? = press.settings["step"] ?? .int(1) else {
                plugin.log("'\(press.button.name)': settings.step must be a whole number", level: .warning)
                return
            }
            count &+= step
        case "reset":
            count = 0
        default:
            plugin.log("'\(press.button.name)': unknown command '\(press.command)' (expected increment or reset)",
                       level: .warning)
            return
        }
        showCount(plugin)
    case .hello, .press, .shutdown:
        break
    }
}
