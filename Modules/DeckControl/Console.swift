#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where deckctl writes: standard output for results, standard error for
/// errors. Tests pass closures that collect the text instead.
public struct Console: Sendable {
    /// Writes one line (without its newline) of results.
    public var out: @Sendable (String) -> Void
    /// Writes one line (without its newline) of errors.
    public var err: @Sendable (String) -> Void
    /// True when results go to a person at a terminal rather than to a pipe
    /// or a file: only then does deckctl add reassurance such as `FILE: ok`,
    /// so that a script reading the output sees nothing but results.
    public var interactive: Bool

    /// A console from two line writers.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                interactive: Bool = false) {
        self.out = out
        self.err = err
        self.interactive = interactive
    }

    /// The process's standard output and standard error, written unbuffered
    /// with `write(2)`, one whole line at a time under a lock, so nothing is
    /// lost when the process exits and no line is ever cut in half (``exitBetweenLines(status:)``).
    public static let standard = Console(out: { writeLine($0, to: 1) }, err: { writeLine($0, to: 2) },
                                         interactive: isatty(1) == 1)

    /// Held while a line is written to the standard streams.
    private static let lineLock = Mutex(())

    /// Ends the process with `status` once no line is being written, so
    /// that `watch` stopped by a signal leaves only whole lines behind.
    static func exitBetweenLines(status: Int32) -> Never {
        lineLock.withLock { _ in exit(status) }
    }

    private static func writeLine(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        lineLock.withLock { _ in
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = write(descriptor, base + offset, buffer.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}
