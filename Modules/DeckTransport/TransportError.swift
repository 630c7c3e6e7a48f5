import Glibc

/// Everything that can go wrong in the transport, as a sentence a person can act on.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A listen or connect address that is not `HOST:PORT` (or a usable socket path).
    case invalidAddress(String, reason: String)
    /// A host name that did not resolve.
    case cannotResolve(host: String, reason: String)
    /// The TCP address is taken by another socket.
    case addressInUse(String)
    /// A live process already serves the Unix socket at `path`; it was left alone.
    case anotherHostListening(path: String)
    /// The folder meant to hold a Unix socket is not private to this user.
    case insecureFolder(path: String, reason: String)
    /// Something other than a socket sits where the Unix socket should go.
    case notASocket(path: String)
    /// A Unix socket path longer than the kernel accepts.
    case pathTooLong(path: String, limit: Int)
    /// A system call failed; `operation` says what was being done.
    case system(operation: String, errno: Int32)
    /// A client could not connect to `endpoint`.
    case connectFailed(endpoint: String, errno: Int32)
    /// A blocking client operation did not finish in time.
    case timedOut(operation: String, after: Duration)
    /// The other side closed the connection.
    case connectionClosed
    /// A received line was longer than the reader's limit.
    case lineTooLong(limit: Int)
    /// A line to send contains a line feed, so it would arrive as several lines.
    case lineContainsNewline
    /// A configured limit that cannot work (zero connections, a negative timeout).
    case invalidLimit(name: String, value: String, rule: String)
    /// The event loop has stopped (or is stopping) and takes no more work.
    case loopStopped
    /// `run` was called on a loop that is already running or has run before.
    case loopAlreadyRunning

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case let .invalidAddress(text, reason):
            return "'\(text)' is not a usable address: \(reason)"
        case let .cannotResolve(host, reason):
            return "cannot resolve host '\(host)': \(reason); use a numeric address such as 127.0.0.1"
        case let .addressInUse(address):
            return "\(address) is already in use by another program; stop it or choose another port"
        case let .anotherHostListening(path):
            return "another host is listening on \(path); stop it first or choose another socket path"
        case let .insecureFolder(path, reason):
            return "refusing to put a socket in \(path): \(reason)"
        case let .notASocket(path):
            return "\(path) exists and is not a socket; remove it or choose another socket path"
        case let .pathTooLong(path, limit):
            return "the socket path \(path) is longer than \(limit) bytes; choose a shorter path"
        case let .system(operation, code):
            return "cannot \(operation): \(TransportError.message(for: code))"
        case let .connectFailed(endpoint, code):
            if code == ECONNREFUSED || code == ENOENT {
                return "nothing is listening on \(endpoint) (\(TransportError.message(for: code))); is the host running?"
            }
            return "cannot connect to \(endpoint): \(TransportError.message(for: code))"
        case let .timedOut(operation, after):
            return "\(operation) timed out after \(after)"
        case .connectionClosed:
            return "the other side closed the connection"
        case let .lineTooLong(limit):
            return "a received line is longer than the limit of \(limit) bytes"
        case .lineContainsNewline:
            return "a line to send contains a line feed; encode it as one line (JSON escapes newlines as \\n)"
        case let .invalidLimit(name, value, rule):
            return "the limit \(name) = \(value) is not usable; it must be \(rule)"
        case .loopStopped:
            return "the event loop has stopped and takes no more work"
        case .loopAlreadyRunning:
            return "the event loop is already running (or has run before); make a new one"
        }
    }

    /// The C library's message for an errno value.
    static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The error for a failed system call, from the current `errno`.
    static func lastSystemError(_ operation: String) -> TransportError {
        .system(operation: operation, errno: errno)
    }
}
