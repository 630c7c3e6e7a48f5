/// A key code of the X server (8…255).
public typealias Keycode = UInt8

/// The core keyboard mapping of an X server at one moment: for each keycode
/// from ``minimumKeycode``, ``keysymsPerKeycode`` keysyms (index 0 and 1 are
/// group 1's levels 1 and 2, as XKB writes its keymap into the core table).
public struct KeyboardMap: Hashable, Sendable {
    /// The first keycode of ``keysyms``.
    public var minimumKeycode: Keycode
    /// Columns of ``keysyms`` per keycode.
    public var keysymsPerKeycode: Int
    /// Row-major table, 0 for no symbol.
    public var keysyms: [Keysym]

    /// Makes a map.
    public init(minimumKeycode: Keycode, keysymsPerKeycode: Int, keysyms: [Keysym]) {
        self.minimumKeycode = minimumKeycode
        self.keysymsPerKeycode = max(1, keysymsPerKeycode)
        self.keysyms = keysyms
    }

    /// The keycodes the table covers.
    public var keycodes: [Keycode] {
        let count = keysyms.count / keysymsPerKeycode
        return (0..<count).compactMap { Keycode(exactly: Int(minimumKeycode) + $0) }
    }

    /// The keysyms of one keycode (empty outside the table).
    public func symbols(of keycode: Keycode) -> ArraySlice<Keysym> {
        let row = Int(keycode) - Int(minimumKeycode)
        guard row >= 0, (row + 1) * keysymsPerKeycode <= keysyms.count else { return [] }
        return keysyms[(row * keysymsPerKeycode)..<((row + 1) * keysymsPerKeycode)]
    }

    /// Where `keysym` is typed without a remap: the lowest keycode with it at
    /// level 1 (no shift), else at level 2 (with shift), else nil.
    public func locate(_ keysym: Keysym) -> (keycode: Keycode, shifted: Bool)? {
        // On the table itself: every key of a press looks here, and a list of keycodes per look cost more than the X call.
        let rows = keysyms.count / keysymsPerKeycode
        for level in 0..<min(2, keysymsPerKeycode) {
            for row in 0..<rows where keysyms[row * keysymsPerKeycode + level] == keysym {
                guard let keycode = Keycode(exactly: Int(minimumKeycode) + row) else { break }  // past 255: none further
                return (keycode, level == 1)
            }
        }
        return nil
    }

    /// Keycodes with no symbol at all: the spares a keysym with no key is typed through.
    public var spareKeycodes: [Keycode] {
        keycodes.filter { keycode in symbols(of: keycode).allSatisfy { $0 == 0 } }
    }

    /// Sets one keycode's first two symbols to `keysym` and the rest to none
    /// (0: none at all), as a remap does.
    public mutating func assign(_ keysym: Keysym, to keycode: Keycode) {
        let row = Int(keycode) - Int(minimumKeycode)
        guard row >= 0, (row + 1) * keysymsPerKeycode <= keysyms.count else { return }
        for column in 0..<keysymsPerKeycode { keysyms[row * keysymsPerKeycode + column] = column < 2 ? keysym : 0 }
    }
}
