internal import CXKBCommon

/// A keysym: xkbcommon's 32-bit key symbol (`XKB_KEY_a` is 0x61).
public typealias Keysym = UInt32

/// Key names as the `keys` setting writes them: xkbcommon's keysym names,
/// case-insensitive, a single character for itself (`/`, `é`), and the
/// aliases of ``aliases`` (`ctrl`, `super`, `media_play`).
public struct KeyNames: Sendable {
    /// Short names people write, lowercased, and the keysym name each stands for.
    public static let aliases: [String: String] = [
        "ctrl": "Control_L", "control": "Control_L", "rctrl": "Control_R",
        "shift": "Shift_L", "rshift": "Shift_R",
        "alt": "Alt_L", "ralt": "Alt_R", "altgr": "ISO_Level3_Shift", "option": "Alt_L",
        "super": "Super_L", "win": "Super_L", "windows": "Super_L", "meta": "Super_L", "cmd": "Super_L",
        "esc": "Escape", "enter": "Return", "del": "Delete", "ins": "Insert", "bksp": "BackSpace",
        "pgup": "Prior", "pageup": "Prior", "pgdn": "Next", "pgdown": "Next", "pagedown": "Next",
        "up": "Up", "down": "Down", "left": "Left", "right": "Right", "caps": "Caps_Lock",
        "media_play": "XF86AudioPlay", "media_pause": "XF86AudioPause", "media_play_pause": "XF86AudioPlay",
        "media_stop": "XF86AudioStop", "media_next": "XF86AudioNext", "media_prev": "XF86AudioPrev",
        "media_previous": "XF86AudioPrev", "volume_up": "XF86AudioRaiseVolume",
        "volume_down": "XF86AudioLowerVolume", "volume_mute": "XF86AudioMute", "mute": "XF86AudioMute",
        "mic_mute": "XF86AudioMicMute", "print_screen": "Print", "printscreen": "Print",
        "brightness_up": "XF86MonBrightnessUp", "brightness_down": "XF86MonBrightnessDown",
    ]

    /// Every keysym name, for suggestions (plugins/keys/keysyms.txt); may be empty.
    private let vocabulary: [String]

    /// Names with suggestions drawn from `vocabulary` (keysym names) and the aliases.
    public init(vocabulary: [String] = []) {
        self.vocabulary = vocabulary + Self.aliases.keys.sorted()
    }

    /// The keysym `name` stands for, or nil.
    public func keysym(_ name: String) -> Keysym? {
        if let alias = Self.aliases[name.lowercased()] { return Self.xkbKeysym(alias) }
        let scalars = name.unicodeScalars
        if scalars.count == 1, let only = scalars.first, only.value > 0x20 {
            // Case-insensitive like the names: `K` is the k key (shift is written as shift).
            let symbol = xkb_keysym_to_lower(xkb_utf32_to_keysym(only.value))
            if symbol != 0 { return symbol }
        }
        return Self.xkbKeysym(name)
    }

    /// The keysym of one Unicode scalar for typing, or nil (controls other than tab and line feed).
    public static func keysym(typing scalar: Unicode.Scalar) -> Keysym? {
        switch scalar.value {
        case 0x0A, 0x0D: return 0xFF0D  // Return
        case 0x09: return 0xFF09  // Tab
        case 0..<0x20, 0x7F: return nil
        default:
            let symbol = xkb_utf32_to_keysym(scalar.value)
            return symbol == 0 ? nil : symbol
        }
    }

    /// The Unicode scalar a keysym types, or nil.
    public static func scalar(of keysym: Keysym) -> Unicode.Scalar? {
        let value = xkb_keysym_to_utf32(keysym)
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    /// xkbcommon's name of `keysym` (`Control_L`, `U20AC`).
    public static func name(of keysym: Keysym) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = xkb_keysym_get_name(keysym, &buffer, buffer.count)
        guard count > 0 else { return "0x" + String(keysym, radix: 16) }
        return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The closest known name to a misspelt one, or nil when nothing is near.
    public func suggestion(for name: String) -> String? {
        let wanted = Array(name.lowercased().unicodeScalars)
        let limit = max(1, wanted.count / 3)
        var best: (distance: Int, name: String)?
        for candidate in vocabulary {
            let letters = Array(candidate.lowercased().unicodeScalars)
            guard abs(letters.count - wanted.count) <= limit else { continue }
            let distance = Self.editDistance(wanted, letters, limit: limit)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance
                || (distance == best!.distance && candidate.count < best!.name.count) {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    private static func xkbKeysym(_ name: String) -> Keysym? {
        let symbol = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE)
        return symbol == 0 ? nil : symbol
    }

    /// Edit distance where swapping two neighbours counts as one edit
    /// (`shfit` is one from `shift`), giving up (limit + 1) once every path exceeds `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        guard !a.isEmpty else { return b.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = current[0]
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowBest = min(rowBest, current[j])
            }
            if rowBest > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
