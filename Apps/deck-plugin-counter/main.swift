// The `counter` example plugin (plugins/counter): counts presses and shows
// the count as the title of every `increment` button; `reset` sets it to 0.
// A button may give `settings: {step: N}` to count by N.
import DeckModel
import DeckPluginKit

var count = 0

/// Puts the count on every increment button of the live layout.
@MainActor func showCount(_ plugin: PluginConnection) {
    for button in plugin.buttons where button.command == "increment" {
        plugin.setTitle("\(button.name): \(count)", for: button.reference)
    }
}

/// `step: 2` and `step: 2.0` alike: YAML and many JSON writers give a whole
/// number either way.
func wholeNumber(_ value: DeckValue) -> Int? {
    switch value {
    case .int(let number): number
    case .double(let number) where number.rounded() == number && abs(number) < 1e15: Int(number)
    default: nil
    }
}

PluginMain.run { event, plugin in
    switch event {
    case .buttons:
        showCount(plugin)  // new or moved buttons show the count at once
    case .press(let press) where press.phase != .up:  // count a tap or the down edge, once per press
        switch press.command {
        case "increment":
            guard let step = wholeNumber(press.settings["step"] ?? .int(1)) else {
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
