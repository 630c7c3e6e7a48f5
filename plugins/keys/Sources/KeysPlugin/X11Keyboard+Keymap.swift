internal import CXTest

/// The keymap and the active group as the server has them, and the events
/// that say they changed (``KeymapFreshness``).
extension X11Keyboard {
    /// Asks the server for the XKB events that mean the keymap or the active
    /// group changed; false when it refused (no XKB): the map is then read
    /// before every command. Core `MappingNotify` comes unasked.
    static func selectKeymapChanges(_ display: OpaquePointer) -> Bool {
        let device = UInt32(XkbUseCoreKbd)
        let changes = UInt32(XkbNewKeyboardNotifyMask | XkbMapNotifyMask)
        guard XkbSelectEvents(display, device, changes, changes) != 0 else { return false }
        // Only the group of the state: a StateNotify for every modifier the plugin presses would cost a read each.
        let group = UInt(XkbGroupStateMask)
        return XkbSelectEventDetails(display, device, UInt32(XkbStateNotify), group, group) != 0
    }

    /// Takes every event the connection has (without waiting): the number
    /// taken. This connection selects only the changes above (and has no
    /// window), so any event is taken as one.
    func drainEvents() -> Int {
        var count = 0
        var event = XEvent()
        while XEventsQueued(display, QueuedAfterReading) > 0 {
            XNextEvent(display, &event)
            count += 1
        }
        return count
    }

    func readMap() -> KeyboardMap {
        var low: Int32 = 0, high: Int32 = 0
        XDisplayKeycodes(display, &low, &high)
        var perKeycode: Int32 = 0
        let count = high - low + 1
        guard count > 0, let table = XGetKeyboardMapping(display, KeyCode(low), count, &perKeycode) else {
            return KeyboardMap(minimumKeycode: 8, keysymsPerKeycode: 1, keysyms: [])
        }
        defer { XFree(table) }
        let keysyms = (0..<Int(count * perKeycode)).map { Keysym(truncatingIfNeeded: table[$0]) }
        return KeyboardMap(minimumKeycode: Keycode(low), keysymsPerKeycode: Int(perKeycode), keysyms: keysyms)
    }

    func activeGroup() -> Int {
        var state = XkbStateRec()
        guard XkbGetState(display, UInt32(XkbUseCoreKbd), &state) == 0 else { return 0 }
        return Int(state.group)
    }
}
