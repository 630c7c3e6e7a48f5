#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One button: a label, an optional icon, what it does, and how it may look
/// (its ``style`` and ``states``, docs/faces.md §1).
///
/// Equality covers name, icon, action, style and states: the stale check of a
/// move or a guarded clear compares with it, so two buttons that merely share
/// a name are different buttons. The host compares what a device echoes
/// with ``isSameJSON(as:)`` (numbers by value), or below protocol level 8
/// with ``isEqualAtLevel7(_:)``.
public struct DeckButton: Hashable, Sendable {
    /// The label shown on the button; never empty in a valid button.
    public var name: String
    /// An icon name or a single emoji.
    public var icon: String?
    /// What a press does.
    public var action: DeckAction
    /// The button's colours; nil for the device's default.
    public var style: ButtonStyle?
    /// The states it may show, state 0 first; empty when it declares none.
    public var states: [ButtonState]

    /// Makes a button. Call ``validate()`` to check it before it enters a
    /// layout. An empty `style` is stored as nil.
    public init(name: String, icon: String? = nil, action: DeckAction, style: ButtonStyle? = nil,
                states: [ButtonState] = []) {
        self.name = name
        self.icon = icon
        self.action = action
        self.style = style?.isEmpty == true ? nil : style
        self.states = states
    }

    /// The equality of protocol level 7 and below: name, icon and action,
    /// numbers in a plugin's settings by value (``isSameJSON(as:)``). Such a
    /// device never learnt `style` and `states`, so cannot send them back in
    /// a stale check.
    public func isEqualAtLevel7(_ other: DeckButton) -> Bool {
        name == other.name && icon == other.icon && action.isSameJSON(as: other.action)
    }

    /// The state with `id`, nil when the button declares none such.
    public func state(_ id: String) -> ButtonState? {
        states.first { $0.id == id }
    }

    /// Checks what JSON or YAML cannot express as a type: a non-empty name,
    /// and action fields that make sense.
    public func validate() throws(DeckModelError) {
        if name.isBlankLabel {
            throw .invalidButton("a button needs a non-empty name")
        }
        try validateStates()
        switch action {
        case .run(let command, _, let timeout, let follow):
            if command.isEmpty { throw .invalidButton("button '\(name)': run needs a command") }
            if follow?.isEmpty == true { throw .invalidButton("button '\(name)': follow needs a command") }
            if let timeout, !(timeout > 0 && timeout.isFinite) {
                throw .invalidButton("button '\(name)': run timeout must be a positive number of seconds")
            }
        case .open(let target):
            if target.isEmpty { throw .invalidButton("button '\(name)': open needs a URL or path") }
        case .page(.number(let page)):
            if page < 0 { throw .invalidButton("button '\(name)': page numbers start at 0") }
        case .page:
            break
        case .profile(let profile):
            if profile.isEmpty { throw .invalidButton("button '\(name)': profile needs a name") }
        case .plugin(let id, let command, let settings):
            if id.isEmpty { throw .invalidButton("button '\(name)': plugin needs an id") }
            if command.isEmpty { throw .invalidButton("button '\(name)': plugin needs a command") }
            if let settings, let problem = DeckValue.object(settings).settingsProblem(depth: 1) {
                throw .invalidButton("button '\(name)': settings \(problem)")
            }
        }
    }
}

extension DeckButton {
    /// At most ``ButtonState/maximumCount`` states with valid, distinct ids
    /// and names that show something.
    private func validateStates() throws(DeckModelError) {
        if states.count > ButtonState.maximumCount {
            throw .invalidButton("button '\(name)': \(states.count) states, more than \(ButtonState.maximumCount)")
        }
        var seen: Set<String> = []
        for state in states {
            if let problem = ButtonState.idProblem(state.id) { throw .invalidButton("button '\(name)': \(problem)") }
            if !seen.insert(state.id).inserted {
                throw .invalidButton("button '\(name)': state id '\(state.id)' is used twice")
            }
            if let stateName = state.name, stateName.isBlankLabel {
                throw .invalidButton("button '\(name)': state '\(state.id)' has an empty name")
            }
        }
    }
}

extension DeckValue {
    /// Why this value cannot be a plugin setting, or nil when it can: deeper
    /// than ``DeckConstants/maximumSettingsDepth``, or a number that JSON
    /// cannot carry (infinity, NaN).
    package func settingsProblem(depth: Int) -> String? {
        switch self {
        case .double(let value) where !value.isFinite:
            return "hold a number JSON cannot carry (\(value)); use a finite number"
        case .array(let items):
            guard depth <= DeckConstants.maximumSettingsDepth else { return Self.tooDeep }
            return items.lazy.compactMap { $0.settingsProblem(depth: depth + 1) }.first
        case .object(let members):
            guard depth <= DeckConstants.maximumSettingsDepth else { return Self.tooDeep }
            return members.values.lazy.compactMap { $0.settingsProblem(depth: depth + 1) }.first
        default:
            return nil
        }
    }

    private static let tooDeep = "nest more than \(DeckConstants.maximumSettingsDepth) levels deep"
}

extension String {
    /// True when a label shows nothing: empty, or only the characters that
    /// CharacterSet.whitespacesAndNewlines holds on Linux (Unicode White_Space
    /// plus U+200B ZERO WIDTH SPACE). ``DeckButton/validate()`` refuses such
    /// a name, and the profile loader must refuse exactly the same ones, or a
    /// profile that loads would give a layout no device can read.
    ///
    /// Checked per scalar: trimmingCharacters bridges through NSString and
    /// cost ~1.4 µs a button, half of reading a 12,000-button snapshot.
    package var isBlankLabel: Bool {
        // Most names start with a visible ASCII character: no property lookup needed.
        if let first = utf8.first, first > 0x20, first < 0x7F { return false }
        return unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }
}
