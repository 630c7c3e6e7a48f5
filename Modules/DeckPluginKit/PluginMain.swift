#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole life of a Swift plugin in one call:
///
/// ```swift
/// import DeckPluginKit
///
/// var presses = 0
/// PluginMain.run { event, plugin in
///     guard case .press(let press) = event, press.phase != .up else { return }
///     presses += 1
///     plugin.setTitle("\(presses)", for: press.button)
/// }
/// ```
///
/// ``run(input:output:maximumLineBytes:_:)`` reads the host's lines from
/// standard input and hands each event to the closure on the calling thread,
/// in order. After the closure has seen `hello`, it answers `ready` (so do
/// set-up there, and be quick: the host waits 5 s). `buttons` is also kept in
/// ``PluginConnection/buttons``. It returns after `shutdown` (once the
/// closure has seen it) or at the end of input (the host went away).
///
/// Events this library does not know (from a newer host) are skipped; a line
/// that cannot be read, a line longer than the limit, and an error the
/// closure throws are reported to the host's log and the plugin carries on.
public enum PluginMain {
    /// Why ``run(input:output:maximumLineBytes:_:)`` returned.
    public enum Ending: Hashable, Sendable {
        /// The host sent `shutdown`.
        case shutdown
        /// The input ended: the host closed it or went away.
        case endOfInput
        /// Reading the input failed (`errno`).
        case inputError(Int32)
        /// The closure threw on `hello`; `ready` was not sent.
        case helloFailed(String)

        /// The exit status a plugin should end with: 0, or 1 after a failure.
        public var exitStatus: Int32 {
            switch self {
            case .shutdown, .endOfInput: 0
            case .inputError, .helloFailed: 1
            }
        }
    }

    /// Runs the plugin until `shutdown` or the end of its input.
    ///
    /// - Parameters:
    ///   - input: where the host's lines come from (standard input).
    ///   - output: where messages go (standard output).
    ///   - maximumLineBytes: longer host lines are skipped (16 MiB; a
    ///     `buttons` line grows with the number of buttons and their settings).
    ///   - handle: called with every event, on the calling thread.
    @discardableResult
    public static func run(input: Int32 = 0, output: Int32 = 1, maximumLineBytes: Int = 16 << 20,
                           _ handle: (PluginEvent, PluginConnection) throws -> Void) -> Ending {
        // A host that goes away must end the plugin with an error from
        // `write`, not kill it with SIGPIPE mid-way through its own clean-up.
        signal(SIGPIPE, SIG_IGN)
        let plugin = PluginConnection(output: output)
        var splitter = LineSplitter(limit: maximumLineBytes)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var ending: Ending?

        func deliver(_ piece: LineSplitter.Piece) {
            guard ending == nil else { return }
            switch piece {
            case .tooLong(let bytes):
                plugin.log("a line from the host was longer than \(maximumLineBytes) bytes (\(bytes) or more) and was skipped",
                           level: .warning)
            case .line(let bytes):
                if bytes.isEmpty { return }
                let event: PluginEvent
                do {
                    event = try PluginEvent(line: bytes)
                } catch .unknownType {
                    return  // a newer host's event: nothing to do with it
                } catch {
                    plugin.log("could not read a line from the host: \(error)", level: .warning)
                    return
                }
                ending = dispatch(event, to: plugin, handle)
            }
        }

        while ending == nil {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .inputError(errno)
            }
            if count == 0 {
                splitter.finish(deliver)
                return ending ?? .endOfInput
            }
            buffer.withUnsafeBufferPointer { splitter.append(UnsafeBufferPointer(rebasing: $0[0..<count]), deliver) }
        }
        return ending ?? .endOfInput
    }

    /// Hands one event to the closure; returns an ending when the plugin must stop.
    private static func dispatch(_ event: PluginEvent, to plugin: PluginConnection,
                                 _ handle: (PluginEvent, PluginConnection) throws -> Void) -> Ending? {
        plugin.received(event)
        do {
            try handle(event, plugin)
        } catch {
            plugin.log("\(event.name) failed: \(error)", level: .error)
            if case .hello = event { return .helloFailed("\(error)") }
        }
        switch event {
        case .hello: plugin.send(.ready)
        case .shutdown: return .shutdown
        case .buttons, .press: break
        }
        return nil
    }
}
