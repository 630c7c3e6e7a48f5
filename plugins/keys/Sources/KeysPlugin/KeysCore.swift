import DeckModel
import DeckPluginKit

/// Where a button is: what a hold is remembered by.
public struct ButtonKey: Hashable, Sendable, Comparable {
    /// 0-based page.
    public var page: Int
    /// 0-based slot.
    public var index: Int

    /// Makes a key.
    public init(page: Int, index: Int) {
        self.page = page
        self.index = index
    }

    public static func < (lhs: ButtonKey, rhs: ButtonKey) -> Bool { (lhs.page, lhs.index) < (rhs.page, rhs.index) }
}

/// What a button of the keys plugin asks for, once its settings are read.
public enum KeysRequest: Hashable, Sendable {
    /// `press`: the chords, and whether the last is held while the finger is down.
    case press([KeyChord], hold: Bool)
    /// `type`: the text.
    case type(String)
}

/// The plugin's logic without a keyboard: reads settings, remembers holds,
/// and says what to do. Each input returns the actions the caller performs,
/// in order (``KeysAction``); tests drive it directly.
public struct KeysCore: Sendable {
    private let names: KeyNames
    /// Why no back end runs, or why it cannot type now (every press shows it), or nil.
    private var problem: KeysError?
    /// Buttons held down now (`hold: true`, between `down` and `up`).
    private var held: Set<ButtonKey> = []
    /// Buttons whose title shows a problem now.
    private var flagged: Set<ButtonKey> = []

    /// A core resolving names with `names`; `problem` when no back end could start.
    public init(names: KeyNames, problem: KeysError? = nil) {
        self.names = names
        self.problem = problem
    }

    /// The `buttons` event: checks every button's settings, showing a problem
    /// on the button (and once in the log), and lets go of holds whose button left.
    public mutating func buttons(_ buttons: [PluginButton]) -> [KeysAction] {
        var actions: [KeysAction] = []
        var nowFlagged: Set<ButtonKey> = []
        for button in buttons {
            let key = ButtonKey(page: button.page, index: button.index)
            let trouble: KeysError?
            if let problem {
                trouble = problem
            } else {
                do throws(KeysError) {
                    _ = try request(command: button.command, settings: button.settings)
                    trouble = nil
                } catch {
                    trouble = error
                }
            }
            if let trouble {
                nowFlagged.insert(key)
                actions.append(.setTitle(button.reference, trouble.title))
                if !flagged.contains(key) {
                    actions.append(.log(.warning, "\(button.logName): \(trouble)"))
                }
            } else if flagged.contains(key) {
                actions.append(.setTitle(button.reference, nil))
            }
        }
        flagged = nowFlagged
        let present = Set(buttons.map { ButtonKey(page: $0.page, index: $0.index) })
        for gone in held.subtracting(present).sorted() {
            held.remove(gone)
            actions.append(.up(gone))
        }
        return actions
    }

    /// The back end can type again (nil), or no longer can (the portal's
    /// consent is pending, denied or revoked): every button of `buttons`
    /// shows it or gets its title back, and every key comes up.
    public mutating func backEndChanged(problem: KeysError?, buttons: [PluginButton]) -> [KeysAction] {
        guard problem != self.problem else { return [] }
        self.problem = problem
        var actions = self.buttons(buttons)
        if problem != nil {
            held = []
            actions.append(.releaseAll)
        }
        return actions
    }

    /// A press: what to do with the keyboard, or the problem shown on the button.
    public mutating func press(_ press: PluginPress) -> [KeysAction] {
        let key = ButtonKey(page: press.button.page, index: press.button.index)
        if press.phase == .up {
            guard held.remove(key) != nil else { return [] }
            return [.up(key)]
        }
        if let problem { return refusal(problem, press) }
        let request: KeysRequest
        do throws(KeysError) {
            request = try self.request(command: press.command, settings: press.settings)
        } catch {
            return refusal(error, press)
        }
        switch request {
        case .press(let chords, hold: true) where press.phase == .down:
            guard !held.contains(key) else { return [] }
            held.insert(key)
            return [.hold(key, chords)]
        case .press(let chords, _):
            return [.tap(chords)]
        case .type(let text):
            return [.type(text)]
        }
    }

    /// A press was refused or a back end failed on it: the button shows why
    /// and flashes the alert (docs/faces.md §3), so the finger learns nothing was typed.
    public func failed(_ error: KeysError, on button: PluginButtonReference) -> [KeysAction] {
        [.setTitle(button, error.title), .alert(button), .log(.warning, "\(button.logName): \(error)")]
    }

    /// `shutdown`, or the host went away: every key comes up.
    public mutating func end() -> [KeysAction] {
        held = []
        return [.releaseAll]
    }

    /// Reads one button's command and settings.
    public func request(command: String, settings: [String: DeckValue]) throws(KeysError) -> KeysRequest {
        switch command {
        case "press":
            guard case .string(let keys)? = settings["keys"] else {
                throw .badSetting(command: command, setting: "keys", expected: "a string like \"ctrl+shift+t\"")
            }
            var hold = false
            switch settings["hold"] {
            case nil: break
            case .bool(let value)?: hold = value
            default: throw .badSetting(command: command, setting: "hold", expected: "true or false")
            }
            return .press(try names.chords(keys), hold: hold)
        case "type":
            guard case .string(let text)? = settings["text"] else {
                throw .badSetting(command: command, setting: "text", expected: "a string")
            }
            let count = text.unicodeScalars.count
            guard count <= KeysLimits.maximumTextCharacters else { throw .textTooLong(characters: count) }
            return .type(text)
        default:
            throw .unknownCommand(command)
        }
    }

    private mutating func refusal(_ error: KeysError, _ press: PluginPress) -> [KeysAction] {
        flagged.insert(ButtonKey(page: press.button.page, index: press.button.index))
        return failed(error, on: press.button)
    }
}

/// What ``KeysCore`` asks its caller to do.
public enum KeysAction: Hashable, Sendable {
    /// Press and release each chord in turn.
    case tap([KeyChord])
    /// Tap every chord but the last, then hold the last down for the button.
    case hold(ButtonKey, [KeyChord])
    /// Let go of what the button holds.
    case up(ButtonKey)
    /// Type the text.
    case type(String)
    /// Let go of every key held.
    case releaseAll
    /// Show a title on the button (nil: its name again).
    case setTitle(PluginButtonReference, String?)
    /// Flash the button's alert on every device.
    case alert(PluginButtonReference)
    /// A line for the host log.
    case log(PluginLogLevel, String)
}
