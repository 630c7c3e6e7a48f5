#if canImport(Glibc)
import Glibc
#endif

/// Everything DeckDBus cannot do, as a sentence a user can act on.
public enum DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Something sd-bus (or the system under it) was asked to do failed; `what` says what, `errno` why.
    case failed(_ what: String, errno: Int32)
    /// The connection was closed (``DBusConnection/close(flushMilliseconds:)``, or after it broke): make a new one.
    case closed
    /// A waited-for call (``DBusConnection/callAndWait(destination:path:interface:member:arguments:timeoutMicroseconds:)``)
    /// went to a name nobody owns: the service is not running.
    case noOwner(destination: String)
    /// A waited-for call was not answered in time.
    case timedOut(destination: String, member: String)
    /// A waited-for call was answered with a D-Bus error `name` and its text.
    case refused(destination: String, member: String, name: String, message: String)
    /// A value cannot be written as it is; the text says which and what to send instead.
    case unwritable(String)

    /// The sentence.
    public var description: String {
        switch self {
        case .failed(let what, let number):
            "\(what) failed: \(String(cString: strerror(number))) (errno \(number))"
        case .closed:
            "the bus connection is closed (it was closed or broke); connect again"
        case .noOwner(let destination):
            "nothing owns \(destination) on the bus (the service that provides it is not running)"
        case .timedOut(let destination, let member):
            "\(destination) did not answer \(member) in time (it is busy or stuck)"
        case .refused(let destination, let member, let name, let message):
            "\(destination) refused \(member): \(name): \(message)"
        case .unwritable(let text):
            text
        }
    }
}
