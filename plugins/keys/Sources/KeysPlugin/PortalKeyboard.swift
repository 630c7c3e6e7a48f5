/// Keys through the XDG RemoteDesktop portal (Wayland): keysyms go to the
/// compositor with NotifyKeyboardKeysym, which finds their keys on the
/// session's layout itself, so any character is typed as itself.
///
/// This is the main thread's side: it turns commands into key downs and ups
/// (holds counted per keysym, as ``HeldKeys`` does for keycodes) and hands
/// them to the bus thread (``PortalThread``), which owns the session. While
/// the session is not started (consent pending, denied, the session closed,
/// the bus gone) every command is refused with the condition's reason.
public final class PortalKeyboard: KeyboardBackEnd {
    let link: PortalLink
    private var counts: [Keysym: Int] = [:]
    private var holds: [ButtonKey: [Keysym]] = [:]

    init(link: PortalLink) {
        self.link = link
    }

    public var summary: String { "RemoteDesktop portal (org.freedesktop.portal.Desktop)" }

    public var status: String { link.condition.status }

    public func tap(_ chords: [KeyChord]) throws(KeysError) {
        try ready()
        var keys: [PortalKey] = []
        for chord in chords { tap(chord, into: &keys) }
        link.post(keys)
    }

    public func hold(_ chords: [KeyChord], for button: ButtonKey) throws(KeysError) {
        try ready()
        var keys: [PortalKey] = []
        for chord in chords.dropLast() { tap(chord, into: &keys) }
        if let last = chords.last {
            for keysym in last.keysyms { press(keysym, into: &keys) }
            holds[button, default: []] += last.keysyms
        }
        link.post(keys)
    }

    public func release(_ button: ButtonKey) {
        guard let keysyms = holds.removeValue(forKey: button) else { return }
        var keys: [PortalKey] = []
        for keysym in keysyms.reversed() { lift(keysym, into: &keys) }
        link.post(keys)
    }

    public func type(_ text: String) throws(KeysError) {
        try ready()
        var keys: [PortalKey] = []
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            guard let keysym = KeyNames.keysym(typing: scalar) else {
                throw .untypable(character: "U+" + String(scalar.value, radix: 16, uppercase: true), offset: offset)
            }
            keys += [PortalKey(keysym, pressed: true), PortalKey(keysym, pressed: false)]
        }
        link.post(keys)
    }

    public func releaseAll() {
        let down = counts.keys.sorted(by: >)
        counts = [:]
        holds = [:]
        link.post(down.map { PortalKey($0, pressed: false) })
    }

    /// Forgets what is down without sending anything: the session ended, and
    /// the compositor lifted its keys with it.
    func sessionEnded() {
        counts = [:]
        holds = [:]
    }

    private func ready() throws(KeysError) {
        if let problem = link.condition.problem { throw problem }
    }

    private func tap(_ chord: KeyChord, into keys: inout [PortalKey]) {
        for keysym in chord.keysyms { press(keysym, into: &keys) }
        for keysym in chord.keysyms.reversed() { lift(keysym, into: &keys) }
    }

    private func press(_ keysym: Keysym, into keys: inout [PortalKey]) {
        counts[keysym, default: 0] += 1
        if counts[keysym] == 1 { keys.append(PortalKey(keysym, pressed: true)) }
    }

    private func lift(_ keysym: Keysym, into keys: inout [PortalKey]) {
        guard let count = counts[keysym] else { return }
        if count > 1 {
            counts[keysym] = count - 1
        } else {
            counts[keysym] = nil
            keys.append(PortalKey(keysym, pressed: false))
        }
    }
}
