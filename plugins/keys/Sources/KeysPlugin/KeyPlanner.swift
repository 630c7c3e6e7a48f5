/// Turns chords and text into ``KeyStep``s against a ``KeyboardMap``: keysyms
/// on the map use their key (with shift for level 2); others borrow a spare
/// keycode, remapped for the moment (``restoreSpares()`` gives it back).
///
/// The planner keeps the map up to date with its own remaps, and which
/// spares it lent, so a back end just performs the steps.
public struct KeyPlanner: Sendable {
    /// The map as the server has it after the planned steps.
    public private(set) var map: KeyboardMap
    /// What is held down after the planned steps.
    public private(set) var held = HeldKeys()
    /// The spares lent now, in the order they were lent, with their keysym.
    public private(set) var lent: [(keycode: Keycode, keysym: Keysym)] = []
    /// Whether group 1 is active: otherwise level-1/2 positions of group 1
    /// would type another layout's symbol, so text goes through spares.
    private var firstGroupActive = true

    /// Whether spares may be remapped (X11); uinput cannot, and refuses keysyms off the layout.
    private let remaps: Bool

    /// A planner over the server's map; `remaps: false` types only keysyms the map has.
    public init(map: KeyboardMap, remaps: Bool = true) {
        self.map = map
        self.remaps = remaps
    }

    /// A fresh map from the server (the layout may have changed): keeps what
    /// is held and the spares lent whose remap still stands.
    public mutating func refresh(_ fresh: KeyboardMap, firstGroupActive: Bool = true) {
        lent = lent.filter { fresh.symbols(of: $0.keycode).first == $0.keysym }
        map = fresh
        self.firstGroupActive = firstGroupActive
    }

    /// The steps that give back every spare lent (the ones still remapped).
    public mutating func restoreSpares() -> [KeyStep] {
        let steps = lent.filter { spare in !held.keycodes.contains(spare.keycode) }
        lent.removeAll { spare in !held.keycodes.contains(spare.keycode) }
        return steps.map { spare in
            map.assign(0, to: spare.keycode)
            return .remap(spare.keycode, 0)
        }
    }

    /// Presses one chord's keys in order and leaves them down.
    public mutating func hold(_ chord: KeyChord) throws(KeysError) -> (steps: [KeyStep], keycodes: [Keycode]) {
        var steps: [KeyStep] = []
        var keycodes: [Keycode] = []
        for keysym in chord.keysyms {
            let (keycode, shifted) = try place(keysym, text: false, steps: &steps)
            if shifted, let shift = map.locate(0xFFE1)?.keycode, !keycodes.contains(shift) {
                if let step = held.press(shift) { steps.append(step) }
                keycodes.append(shift)
            }
            if let step = held.press(keycode) { steps.append(step) }
            keycodes.append(keycode)
        }
        return (steps, keycodes)
    }

    /// Lets go of what ``hold(_:)`` pressed, in reverse.
    public mutating func release(_ keycodes: [Keycode]) -> [KeyStep] {
        keycodes.reversed().compactMap { held.release($0) }
    }

    /// Lets go of every key held, however many holds share it.
    public mutating func releaseAll() -> [KeyStep] {
        held.releaseAll()
    }

    /// Each chord pressed and released in turn.
    public mutating func tap(_ chords: [KeyChord]) throws(KeysError) -> [KeyStep] {
        var steps: [KeyStep] = []
        for chord in chords {
            let pressed = try hold(chord)
            steps += pressed.steps + release(pressed.keycodes)
        }
        return steps
    }

    /// The steps that type `text`, character by character.
    public mutating func type(_ text: String) throws(KeysError) -> [KeyStep] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= KeysLimits.maximumTextCharacters else {
            throw .textTooLong(characters: scalars.count)
        }
        var steps: [KeyStep] = []
        for (offset, scalar) in scalars.enumerated() {
            guard let keysym = KeyNames.keysym(typing: scalar) else {
                throw .untypable(character: "U+" + String(scalar.value, radix: 16, uppercase: true), offset: offset)
            }
            let (keycode, shifted) = try place(keysym, text: true, steps: &steps)
            let shift = shifted ? map.locate(0xFFE1)?.keycode : nil
            if let shift, let step = held.press(shift) { steps.append(step) }
            if let step = held.press(keycode) { steps.append(step) }
            if let step = held.release(keycode) { steps.append(step) }
            if let shift, let step = held.release(shift) { steps.append(step) }
        }
        return steps
    }

    /// The key that types `keysym`, remapping a spare when none has it.
    private mutating func place(_ keysym: Keysym, text: Bool, steps: inout [KeyStep])
        throws(KeysError) -> (Keycode, Bool)
    {
        if let spare = lent.first(where: { $0.keysym == keysym }) { return (spare.keycode, false) }
        if !text || firstGroupActive, let found = map.locate(keysym) {
            // Shifted needs a Shift key on the map; without one, a spare types it.
            if !found.shifted || map.locate(0xFFE1) != nil { return (found.keycode, found.shifted) }
        }
        guard remaps else {
            throw .backEnd("\(KeyNames.name(of: keysym)) is not on the keyboard layout, and uinput types only keys of the layout")
        }
        let busy = Set(held.keycodes)
        let free = map.spareKeycodes.filter { !busy.contains($0) }
        let keycode: Keycode
        if let first = free.last {
            keycode = first
        } else if let oldest = lent.first(where: { !busy.contains($0.keycode) }) {
            // Every spare is lent: reuse the one lent longest ago.
            keycode = oldest.keycode
            lent.removeAll { $0.keycode == keycode }
            steps.append(.settle)
        } else {
            throw .backEnd("no spare keycode is free to type \(KeyNames.name(of: keysym)) (the keymap uses every keycode)")
        }
        map.assign(keysym, to: keycode)
        lent.append((keycode, keysym))
        steps.append(.remap(keycode, keysym))
        return (keycode, false)
    }
}
