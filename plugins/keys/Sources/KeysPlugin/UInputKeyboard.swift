#if canImport(Glibc)
import Glibc
#endif
internal import CUInput
internal import CXKBCommon

/// Keys through a uinput virtual keyboard: keysyms are found on an xkbcommon
/// keymap (the session's, from the `XKB_DEFAULT_*` variables as xkbcommon
/// reads them), and each key goes out as `input_event` records (the key,
/// then `SYN_REPORT`). Keysyms off the layout cannot be typed this way and
/// the whole command is refused before any key goes down.
///
/// Tests inject a descriptor (a file) and compare the records with goldens;
/// ``open()`` makes the real device from `/dev/uinput`.
public final class UInputKeyboard: KeyboardBackEnd {
    private let descriptor: Int32
    private let ownsDevice: Bool
    private var planner: KeyPlanner
    private var holds: [ButtonKey: [Keycode]] = [:]
    private let layout: String

    /// A keyboard writing records to `descriptor` for the keymap of `layout`
    /// (nil: xkbcommon's default, from `XKB_DEFAULT_LAYOUT` or `us`).
    public init(descriptor: Int32, layout: String? = nil) throws(KeysError) {
        self.descriptor = descriptor
        self.ownsDevice = false
        self.layout = layout ?? "the default layout"
        self.planner = KeyPlanner(map: try Self.map(layout: layout), remaps: false)
    }

    private init(device: Int32, map: KeyboardMap) {
        self.descriptor = device
        self.ownsDevice = true
        self.layout = "the session's layout"
        self.planner = KeyPlanner(map: map, remaps: false)
    }

    /// Opens `/dev/uinput` and makes the virtual keyboard.
    public static func open() throws(KeysError) -> UInputKeyboard {
        let map = try map(layout: nil)
        let device = Glibc.open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard device >= 0 else {
            throw .backEnd("cannot open /dev/uinput: \(String(cString: strerror(errno))) (it needs write access: the input group or a udev rule)")
        }
        guard deck_uinput_create(device, "deck keys") == 0 else {
            let reason = String(cString: strerror(errno))
            close(device)
            throw .backEnd("cannot make a virtual keyboard on /dev/uinput: \(reason)")
        }
        return UInputKeyboard(device: device, map: map)
    }

    deinit {
        if ownsDevice {
            _ = deck_uinput_destroy(descriptor)
            close(descriptor)
        }
    }

    public var summary: String { "uinput virtual keyboard (\(layout))" }

    public func tap(_ chords: [KeyChord]) throws(KeysError) {
        write(try planner.tap(chords))
    }

    public func hold(_ chords: [KeyChord], for button: ButtonKey) throws(KeysError) {
        var steps = try planner.tap(Array(chords.dropLast()))
        if let last = chords.last {
            let pressed = try planner.hold(last)
            steps += pressed.steps
            holds[button, default: []] += pressed.keycodes
        }
        write(steps)
    }

    public func release(_ button: ButtonKey) {
        guard let keycodes = holds.removeValue(forKey: button) else { return }
        write(planner.release(keycodes))
    }

    public func type(_ text: String) throws(KeysError) {
        write(try planner.type(text))
    }

    public func releaseAll() {
        holds = [:]
        write(planner.releaseAll())
    }

    /// The records of the steps: a key's event and a SYN_REPORT each (evdev code = XKB keycode − 8).
    private func write(_ steps: [KeyStep]) {
        var events: [input_event] = []
        for step in steps {
            let (keycode, value): (Keycode, Int32)
            switch step {
            case .down(let code): (keycode, value) = (code, 1)
            case .up(let code): (keycode, value) = (code, 0)
            case .remap, .settle: continue  // never planned: remaps are off
            }
            events.append(Self.event(type: UInt16(EV_KEY), code: UInt16(keycode) - 8, value: value))
            events.append(Self.event(type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0))
        }
        events.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    private static func event(type: UInt16, code: UInt16, value: Int32) -> input_event {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        return event
    }

    /// Levels 1 and 2 of the first layout of an xkbcommon keymap, as a ``KeyboardMap``.
    static func map(layout: String?) throws(KeysError) -> KeyboardMap {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw .backEnd("xkbcommon has no context") }
        defer { xkb_context_unref(context) }
        let keymap: OpaquePointer? = layout.map { layout in
            layout.withCString { name in
                var names = xkb_rule_names(rules: nil, model: nil, layout: name, variant: nil, options: nil)
                return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        } ?? xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS)
        guard let keymap else { throw .backEnd("xkbcommon has no keymap for \(layout ?? "the default layout")") }
        defer { xkb_keymap_unref(keymap) }
        let low = max(8, xkb_keymap_min_keycode(keymap)), high = min(255, xkb_keymap_max_keycode(keymap))
        var table: [Keysym] = []
        for keycode in low...high {
            for level in 0..<2 {
                var symbols: UnsafePointer<xkb_keysym_t>?
                let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, UInt32(level), &symbols)
                table.append(count > 0 ? symbols![0] : 0)
            }
        }
        return KeyboardMap(minimumKeycode: Keycode(low), keysymsPerKeycode: 2, keysyms: table)
    }
}
