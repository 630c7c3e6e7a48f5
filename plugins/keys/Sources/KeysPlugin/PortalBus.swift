#if canImport(Glibc)
import Glibc
#endif
internal import CSDBus

/// The portal back end's connection to the session bus through sd-bus.
///
/// Not `Sendable`: sd-bus objects are used by one thread at a time. The
/// probe makes one and closes it on the main thread; the bus thread makes
/// its own. Messages sd-bus hands to callbacks are copied (``PortalMessage``)
/// and queued until ``process()`` returns them.
final class PortalBus {
    private var bus: OpaquePointer?
    private var received: [PortalMessage] = []

    /// Connects to the bus `DBUS_SESSION_BUS_ADDRESS` names (or the user's).
    init() throws(KeysError) {
        var opened: OpaquePointer?
        let code = sd_bus_open_user(&opened)
        guard code >= 0, let opened else { throw Self.failure("connecting to the session bus (DBUS_SESSION_BUS_ADDRESS)", code) }
        bus = opened
    }

    deinit { close() }

    /// This connection's unique name (`:1.42`), which request paths are made from.
    func uniqueName() throws(KeysError) -> String {
        var name: UnsafePointer<CChar>?
        let code = sd_bus_get_unique_name(try open(), &name)
        guard code >= 0, let name else { throw Self.failure("reading this connection's bus name", code) }
        return String(cString: name)
    }

    /// Sends what is queued for at most `flushMilliseconds` (the last key
    /// releases reach the portal), then closes. Never `sd_bus_flush`, which
    /// waits without end on a bus that stopped reading.
    func close(flushMilliseconds: Int64 = 0) {
        guard let bus else { return }
        let deadline = Self.nowMilliseconds() + flushMilliseconds
        while sd_bus_get_events(bus) & Int32(POLLOUT) != 0 {
            let left = deadline - Self.nowMilliseconds()
            guard left > 0 else { break }
            var ready = pollfd(fd: sd_bus_get_fd(bus), events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, Int32(left)) > 0, sd_bus_process(bus, nil) >= 0 else { break }
        }
        sd_bus_close_unref(bus)
        self.bus = nil
    }

    /// The socket, the events sd-bus waits for, and its next timeout in ms (-1: none).
    func pollState() throws(KeysError) -> (descriptor: Int32, events: Int16, timeoutMilliseconds: Int32) {
        let bus = try open()
        let descriptor = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        guard descriptor >= 0, events >= 0 else { throw Self.failure("reading the bus socket", min(descriptor, events)) }
        var timeout: UInt64 = 0
        guard sd_bus_get_timeout(bus, &timeout) >= 0 else { throw Self.failure("reading the bus's timeout", -EINVAL) }
        var wait: Int32 = -1
        if timeout != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            wait = timeout <= nowMicroseconds ? 0 : Int32(clamping: (timeout - nowMicroseconds + 999) / 1000)
        }
        return (descriptor, Int16(truncatingIfNeeded: events), wait)
    }

    /// Reads everything the socket holds; the messages that arrived. Throws when the connection is gone.
    func process() throws(KeysError) -> [PortalMessage] {
        let bus = try open()
        while true {
            let code = sd_bus_process(bus, nil)
            if code < 0 { throw Self.failure("reading from the session bus", code) }
            if code == 0 { break }
        }
        defer { received = [] }
        return received
    }

    /// Subscribes to signals matching `rule`, asynchronously: the bus handles
    /// requests in order, so the match is in place before a later call is answered.
    func addMatch(_ rule: String) throws(KeysError) {
        let code = sd_bus_add_match_async(try open(), nil, rule, Self.handler, nil, Unmanaged.passUnretained(self).toOpaque())
        guard code >= 0 else { throw Self.failure("subscribing to '\(rule)'", code) }
    }

    /// Sends a call; its reply arrives from ``process()`` with the returned cookie.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [PortalArgument], timeoutMicroseconds: UInt64 = 25_000_000) throws(KeysError) -> UInt64 {
        let bus = try open()
        let message = try Self.message(bus, destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        let code = sd_bus_call_async(bus, nil, message, Self.handler, Unmanaged.passUnretained(self).toOpaque(), timeoutMicroseconds)
        guard code >= 0 else { throw Self.failure("calling \(interface).\(member)", code) }
        var cookie: UInt64 = 0
        _ = sd_bus_message_get_cookie(message, &cookie)
        return cookie
    }

    /// A call answered before this returns (the probe at start: a few ms on a live bus).
    func callAndWait(_ destination: String, _ path: String, _ interface: String, _ member: String,
                     _ arguments: [PortalArgument], timeoutMicroseconds: UInt64) throws(KeysError) -> [PortalValue] {
        let bus = try open()
        let message = try Self.message(bus, destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let code = sd_bus_call(bus, message, timeoutMicroseconds, &error, &reply)
        guard code >= 0, let reply else {
            let name = error.name.map { String(cString: $0) } ?? ""
            let text = error.message.map { String(cString: $0) } ?? ""
            if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                throw .backEnd("nothing owns \(destination) on the session bus (xdg-desktop-portal is not running)")
            }
            throw name.isEmpty ? Self.failure("calling \(interface).\(member) on \(destination)", code)
                : .backEnd("\(destination) refused \(member): \(name): \(text)")
        }
        defer { sd_bus_message_unref(reply) }
        var reader = PortalReader(message: reply)
        return reader.readAll()
    }

    private func open() throws(KeysError) -> OpaquePointer {
        guard let bus else { throw .backEnd("the session bus connection is closed") }
        return bus
    }

    private static func message(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String,
                                _ member: String, _ arguments: [PortalArgument]) throws(KeysError) -> OpaquePointer {
        var made: OpaquePointer?
        let code = sd_bus_message_new_method_call(bus, &made, destination, path, interface, member)
        guard code >= 0, let made else { throw failure("making the call \(interface).\(member)", code) }
        do throws(KeysError) {
            for argument in arguments { try PortalWriter(message: made).append(argument) }
        } catch {
            sd_bus_message_unref(made)
            throw error
        }
        return made
    }

    /// Every callback of this bus copies the message into the queue. The
    /// `userdata` is this object, unretained: sd-bus calls back only inside
    /// `sd_bus_process` in ``process()`` while `self` is alive, and
    /// ``close()`` (in `deinit` at the latest) ends every callback first.
    private static let handler: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let owner = Unmanaged<PortalBus>.fromOpaque(userdata).takeUnretainedValue()
        if let copied = copy(message) { owner.received.append(copied) }
        return 0
    }

    private static func copy(_ message: OpaquePointer) -> PortalMessage? {
        var type: UInt8 = 0
        guard sd_bus_message_get_type(message, &type) >= 0 else { return nil }
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        var cookie: UInt64 = 0
        let kind: PortalMessage.Kind
        switch type {  // the D-Bus message types: 2 method return, 3 error, 4 signal
        case 4: kind = .signal
        case 2:
            _ = sd_bus_message_get_reply_cookie(message, &cookie)
            kind = .reply(cookie: cookie)
        case 3:
            _ = sd_bus_message_get_reply_cookie(message, &cookie)
            let error = sd_bus_message_get_error(message)
            kind = .error(cookie: cookie, name: text(error?.pointee.name), message: text(error?.pointee.message))
        default: return nil
        }
        var reader = PortalReader(message: message)
        return PortalMessage(kind: kind, path: text(sd_bus_message_get_path(message)),
                             interface: text(sd_bus_message_get_interface(message)),
                             member: text(sd_bus_message_get_member(message)), body: reader.readAll())
    }

    static func failure(_ what: String, _ code: Int32) -> KeysError {
        .backEnd("\(what) failed: \(String(cString: strerror(-code))) (errno \(-code))")
    }

    static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
