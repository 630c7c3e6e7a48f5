#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A plugin's way to talk to the host: ``setTitle(_:for:)``, ``setState(_:for:)``,
/// ``setImage(_:for:)``, ``showAlert(for:)``, ``showOk(for:)``, ``log(_:level:)``
/// and ``send(_:)-(PluginMessage)`` write one line each to the plugin's
/// standard output; ``send(_:)-([PluginMessage])`` writes several at once.
///
/// Safe from any thread (a plugin may update titles from a timer): each line
/// goes out in one locked write, so lines never interleave. When the host has
/// gone away (the pipe is broken), sends return false and write nothing.
public final class PluginConnection: Sendable {
    private struct State {
        var plugin = ""
        var buttons: [PluginButton] = []
        var broken = false
    }

    private let output: Int32
    private let state = Mutex(State())

    /// A connection writing to `output` (standard output, normally).
    public init(output: Int32 = 1) {
        self.output = output
    }

    /// The plugin's id, as the host's `hello` said (empty before it).
    public var plugin: String { state.withLock { $0.plugin } }

    /// The buttons of the live layout that use this plugin, as the last
    /// `buttons` event listed them.
    public var buttons: [PluginButton] { state.withLock { $0.buttons } }

    /// False once a write found the host gone.
    public var isConnected: Bool { state.withLock { !$0.broken } }

    /// Sends one message. Returns false when the host is gone.
    @discardableResult
    public func send(_ message: PluginMessage) -> Bool {
        send([message])
    }

    /// Sends `messages` in one write, so the host reads them together and
    /// shows what they change as one face: a new state and its title, never
    /// the state under the old title for a frame (docs/faces.md,
    /// "Coalescing"; up to 4 KiB of lines reach the host in one read).
    /// Returns false when the host is gone.
    @discardableResult
    public func send(_ messages: [PluginMessage]) -> Bool {
        let lines = messages.flatMap { $0.line() }
        return state.withLock { state in
            guard !state.broken else { return false }
            if !Self.writeAll(lines, to: output) { state.broken = true }
            return !state.broken
        }
    }

    /// Shows `title` on the button at `page`/`index` of the live layout on
    /// every device; nil goes back to the button's name.
    @discardableResult
    public func setTitle(_ title: String?, page: Int, index: Int) -> Bool {
        send(.setTitle(page: page, index: index, title: title))
    }

    /// Shows `title` on `button` (from a press, or a ``PluginButton``'s
    /// `reference`); nil goes back to its name.
    @discardableResult
    public func setTitle(_ title: String?, for button: PluginButtonReference) -> Bool {
        setTitle(title, page: button.page, index: button.index)
    }

    /// Says how the plugin is doing, for `deckctl plugins` (nil clears it).
    @discardableResult
    public func setStatus(_ status: String?) -> Bool {
        send(.setStatus(status))
    }

    /// Shows `title` on every button `target` names; nil goes back to
    /// their names.
    @discardableResult
    public func setTitle(_ title: String?, for target: ButtonTarget) -> Bool {
        send(.setTitle(target: target, title: title))
    }

    /// Shows the state with id `state` (one the button declares in its
    /// `states`) on every button `target` names; nil goes back to state 0.
    @discardableResult
    public func setState(_ state: String?, for target: ButtonTarget) -> Bool {
        send(.setState(target: target, state: state))
    }

    /// Shows the state with id `state` on `button`; nil goes back to state 0.
    @discardableResult
    public func setState(_ state: String?, for button: PluginButtonReference) -> Bool {
        setState(state, for: button.target)
    }

    /// Shows `image` (PNG, JPEG or SVG bytes, at most
    /// ``PluginProtocol/maximumImageBytes``) on every button `target`
    /// names; nil removes it. Returns false without sending when the image
    /// is over the bound (the host would refuse it) or the host is gone.
    @discardableResult
    public func setImage(_ image: [UInt8]?, for target: ButtonTarget) -> Bool {
        if let image, image.count > PluginProtocol.maximumImageBytes { return false }
        return send(.setImage(target: target, image: image))
    }

    /// Shows `image` on `button`; nil removes it. See ``setImage(_:for:)-(_,ButtonTarget)``.
    @discardableResult
    public func setImage(_ image: [UInt8]?, for button: PluginButtonReference) -> Bool {
        setImage(image, for: button.target)
    }

    /// Flashes every button `target` names red once, on every device.
    @discardableResult
    public func showAlert(for target: ButtonTarget) -> Bool {
        send(.showAlert(target: target))
    }

    /// Flashes `button` red once, on every device.
    @discardableResult
    public func showAlert(for button: PluginButtonReference) -> Bool {
        showAlert(for: button.target)
    }

    /// Flashes every button `target` names green once, on every device.
    @discardableResult
    public func showOk(for target: ButtonTarget) -> Bool {
        send(.showOk(target: target))
    }

    /// Flashes `button` green once, on every device.
    @discardableResult
    public func showOk(for button: PluginButtonReference) -> Bool {
        showOk(for: button.target)
    }

    /// Writes `message` to the host's log under this plugin's id.
    @discardableResult
    public func log(_ message: String, level: PluginLogLevel = .info) -> Bool {
        send(.log(level: level, message: message))
    }

    // MARK: Kept by the runtime

    func received(_ event: PluginEvent) {
        state.withLock { state in
            switch event {
            case .hello(let hello): state.plugin = hello.plugin
            case .buttons(let buttons): state.buttons = buttons
            case .press, .shutdown: break
            }
        }
    }

    /// Writes every byte, retrying short writes and interrupted calls; false
    /// when the descriptor is broken (the host closed our output).
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        // A non-blocking output: wait until it drains rather than lose the line.
                        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, -1)
                        continue
                    }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
