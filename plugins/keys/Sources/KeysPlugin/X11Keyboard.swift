#if canImport(Glibc)
import Glibc
#endif
internal import CXTest
import Synchronization

/// Keys through the XTest extension of an X server: keysyms found on the
/// current keymap (read again before a command when the server said the
/// mapping, the keyboard or the group changed: ``KeymapFreshness``), the rest
/// through a spare keycode remapped for the moment (``KeyPlanner``).
///
/// Keys an earlier run of the plugin left down (it was killed) come up when
/// this one opens the display: XTest releases only keys XTest pressed, so a
/// key the user holds on a real keyboard stays down.
public final class X11Keyboard: KeyboardBackEnd {
    let display: OpaquePointer
    private let name: String
    private var planner: KeyPlanner
    private var holds: [ButtonKey: [Keycode]] = [:]
    private var freshness: KeymapFreshness

    /// Opens `display` (`:1`) and checks it has XTest.
    public init(display name: String) throws(KeysError) {
        X11Errors.install()
        guard let display = XOpenDisplay(name) else {
            throw .backEnd("cannot open the X display \(name) (is the X server running, and may this user connect?)")
        }
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XTestQueryExtension(display, &event, &error, &major, &minor) != 0 else {
            XCloseDisplay(display)
            throw .backEnd("the X display \(name) has no XTest extension")
        }
        X11Errors.watch(display)
        self.display = display
        self.name = name
        self.planner = KeyPlanner(map: KeyboardMap(minimumKeycode: 8, keysymsPerKeycode: 1, keysyms: []))
        self.freshness = KeymapFreshness(watched: Self.selectKeymapChanges(display))
        releaseStaleKeys()
    }

    deinit {
        // A display whose connection broke is left as it is: closing it would write to the dead socket.
        if !isLost { XCloseDisplay(display) }
    }

    /// True once the connection to the X server broke: nothing is typed
    /// through this display again (the plugin opens a new one when the
    /// server is back: ``KeysRevival``).
    public var isLost: Bool { X11Errors.isLost(display) }

    /// Reads what the server sent, without waiting (keymap news is kept for
    /// the next command), so that a server that went away is found between
    /// presses too: Xlib's I/O error marks the display lost.
    public func checkConnection() {
        guard !isLost else { return }
        if drainEvents() > 0 { freshness.changeSeen() }
    }

    public var summary: String { "X11 (XTest) on \(name)" }

    public var status: String {
        isLost ? "keyboard back end: \(summary): \(gone)" : "keyboard back end: \(summary)"
    }

    /// Why nothing can be typed once the connection broke, and what happens next.
    var gone: String { "the X display \(name) went away; keys are typed again once it is back" }

    public func tap(_ chords: [KeyChord]) throws(KeysError) {
        try begin()
        var steps: [KeyStep] = []
        defer { perform(steps) }
        for chord in chords { steps += try planner.tap([chord]) }
    }

    public func hold(_ chords: [KeyChord], for button: ButtonKey) throws(KeysError) {
        try begin()
        var steps: [KeyStep] = []
        defer { perform(steps) }
        steps += try planner.tap(Array(chords.dropLast()))
        guard let last = chords.last else { return }
        let pressed = try planner.hold(last)
        steps += pressed.steps
        holds[button, default: []] += pressed.keycodes
    }

    public func release(_ button: ButtonKey) {
        guard let keycodes = holds.removeValue(forKey: button), !isLost else { return }
        perform(planner.release(keycodes))
    }

    public func type(_ text: String) throws(KeysError) {
        try begin()
        let steps = try planner.type(text)
        perform(steps)
    }

    public func releaseAll() {
        holds = [:]
        guard !isLost else { return }
        let steps = planner.releaseAll() + planner.restoreSpares()
        perform(steps)
    }

    /// Reads the keymap and the active group when the server said they
    /// changed (or was never asked), and gives back the spares of the last command.
    private func begin() throws(KeysError) {
        let broken = KeysError.backEnd(gone)
        guard !isLost else { throw broken }
        if drainEvents() > 0 { freshness.changeSeen() }
        let fresh = freshness.commandStarts() == .read ? (map: readMap(), group: activeGroup()) : nil
        guard !isLost else { throw broken }  // it went while the events or the map were read
        if let fresh { planner.refresh(fresh.map, firstGroupActive: fresh.group == 0) }
        perform(planner.restoreSpares())
    }

    private func perform(_ steps: [KeyStep]) {
        guard !steps.isEmpty, !isLost else { return }
        for step in steps {
            switch step {
            case .remap(let keycode, let keysym):
                // The symbol at both levels: a lone letter would be read as
                // (lower, upper) by the core protocol's rule, and É type é.
                var symbols = [KeySym(keysym), KeySym(keysym)]
                XChangeKeyboardMapping(display, Int32(keycode), 2, &symbols, 1)
            case .down(let keycode):
                XTestFakeKeyEvent(display, UInt32(keycode), 1, 0)
            case .up(let keycode):
                XTestFakeKeyEvent(display, UInt32(keycode), 0, 0)
            case .settle:
                XSync(display, 0)
                var pause = timespec(tv_sec: 0, tv_nsec: 30_000_000)
                nanosleep(&pause, nil)
            }
        }
        XSync(display, 0)
    }

    /// Lifts every key the server has down; XTest ignores releases of keys it did not press.
    private func releaseStaleKeys() {
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &keys)
        for (byte, bits) in keys.enumerated() where bits != 0 {
            for bit in 0..<8 where UInt8(bitPattern: bits) & (1 << bit) != 0 {
                XTestFakeKeyEvent(display, UInt32(byte * 8 + bit), 0, 0)
            }
        }
        XSync(display, 0)
    }
}

/// Xlib's error handlers exit the process by default; these record instead,
/// so a bad request or a server that goes away never ends the plugin.
enum X11Errors {
    /// Whether the handlers are set, and the displays whose connection broke
    /// (by address: a lost display is never freed, so its address is never reused).
    private static let state = Mutex((installed: false, lost: Set<UInt>()))

    /// True once the connection of `display` to its X server broke.
    static func isLost(_ display: OpaquePointer) -> Bool {
        state.withLock { $0.lost.contains(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))) }
    }

    static func install() {
        let first = state.withLock { state in
            defer { state.installed = true }
            return !state.installed
        }
        guard first else { return }
        // Before any other Xlib call: the revival thread (KeysRevival) opens
        // displays too; every use is under the runner's lock, and this makes
        // Xlib's own globals safe whichever thread that is.
        XInitThreads()
        // A protocol error (a remap the server refused) is not fatal: the step is skipped.
        _ = XSetErrorHandler { _, _ in 0 }
        // The default I/O error handler prints and may exit; the exit handler of each display
        // (watch) records the loss, and Xlib returns to the caller instead of ending the plugin.
        _ = XSetIOErrorHandler { _ in 0 }
    }

    static func watch(_ display: OpaquePointer) {
        XSetIOErrorExitHandler(display, { display, _ in
            guard let display else { return }
            let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
            X11Errors.state.withLock { _ = $0.lost.insert(address) }
        }, nil)
    }
}
