internal import CSDBus
#if canImport(Glibc)
import Glibc
#endif

/// One connection to the session bus through sd-bus.
///
/// Not `Sendable` on purpose: sd-bus objects belong to one thread, and the
/// plugin's bus thread creates, uses and closes this. Every message sd-bus
/// hands to a callback is copied into ``DBusMessage`` and queued; the owner
/// takes them with ``process()`` after its `poll` says the socket is ready.
final class SDBus {
    private var bus: OpaquePointer?
    private var received: [DBusMessage] = []

    /// Connects to the session bus `DBUS_SESSION_BUS_ADDRESS` names (or the
    /// user's default one), as a client.
    init() throws(MediaError) {
        var opened: OpaquePointer?
        let code = sd_bus_open_user(&opened)
        guard code >= 0, let opened else {
            throw MediaError("connecting to the session bus (DBUS_SESSION_BUS_ADDRESS)", code: code)
        }
        bus = opened
    }

    deinit { close() }

    /// Sends what is still queued for at most `flushMilliseconds` (a press
    /// just before the plugin stops still reaches the player), then closes;
    /// no callback runs after this. Never `sd_bus_flush`, which waits without
    /// end on a bus that stopped reading.
    func close(flushMilliseconds: Int64 = 0) {
        guard let bus else { return }
        let deadline = SDBus.nowMilliseconds() + flushMilliseconds
        while sd_bus_get_events(bus) & Int32(POLLOUT) != 0 {
            let left = deadline - SDBus.nowMilliseconds()
            guard left > 0 else { break }
            var ready = pollfd(fd: sd_bus_get_fd(bus), events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, Int32(left)) > 0, sd_bus_process(bus, nil) >= 0 else { break }
        }
        sd_bus_close_unref(bus)
        self.bus = nil
    }

    static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// The socket to poll, with the events sd-bus waits for and its next timeout (µs, absolute; `UInt64.max`: none).
    func pollState() throws(MediaError) -> (descriptor: Int32, events: Int16, timeout: UInt64) {
        let bus = try open()
        let descriptor = sd_bus_get_fd(bus)
        guard descriptor >= 0 else { throw MediaError("reading the bus socket", code: descriptor) }
        let events = sd_bus_get_events(bus)
        guard events >= 0 else { throw MediaError("reading the bus's events", code: events) }
        var timeout: UInt64 = 0
        let code = sd_bus_get_timeout(bus, &timeout)
        guard code >= 0 else { throw MediaError("reading the bus's timeout", code: code) }
        return (descriptor, Int16(truncatingIfNeeded: events), timeout)
    }

    /// Reads and dispatches everything the socket holds; returns the messages that arrived.
    /// Throws when the connection is gone.
    func process() throws(MediaError) -> [DBusMessage] {
        let bus = try open()
        while true {
            let code = sd_bus_process(bus, nil)
            if code < 0 { throw MediaError("reading from the session bus", code: code) }
            if code == 0 { break }
        }
        defer { received = [] }
        return received
    }

    /// Subscribes to signals matching `rule` (D-Bus match syntax); they arrive from ``process()``.
    ///
    /// Asynchronous, so a bus that accepts the connection and then stalls
    /// never blocks the thread; the bus handles requests in order, so the
    /// match is in place before any later call is answered. A refused match
    /// closes the connection (sd-bus's rule without an install callback),
    /// which ``process()`` then reports.
    func addMatch(_ rule: String) throws(MediaError) {
        let bus = try open()
        let code = sd_bus_add_match_async(bus, nil, rule, SDBus.handler, nil, Unmanaged.passUnretained(self).toOpaque())
        guard code >= 0 else { throw MediaError("subscribing to '\(rule)'", code: code) }
    }

    /// Sends a method call; its reply (or error) arrives from ``process()`` with the returned cookie.
    func call(destination: String, path: String, interface: String, member: String,
              arguments: [DBusArgument] = [], timeoutMicroseconds: UInt64 = 5_000_000) throws(MediaError) -> UInt64 {
        let bus = try open()
        var message: OpaquePointer?
        var code = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard code >= 0, let message else { throw MediaError("making the call \(interface).\(member)", code: code) }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            switch argument {
            case .string(let text):
                code = text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            case .int64(var number):
                code = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "x")), &number)
            }
            guard code >= 0 else { throw MediaError("adding an argument to \(interface).\(member)", code: code) }
        }
        code = sd_bus_call_async(bus, nil, message, SDBus.handler, Unmanaged.passUnretained(self).toOpaque(),
                                 timeoutMicroseconds)
        guard code >= 0 else { throw MediaError("calling \(interface).\(member) on \(destination)", code: code) }
        var cookie: UInt64 = 0
        _ = sd_bus_message_get_cookie(message, &cookie)
        return cookie
    }

    private func open() throws(MediaError) -> OpaquePointer {
        guard let bus else { throw MediaError("the session bus connection is closed") }
        return bus
    }

    /// Every callback of this bus: the message is copied and queued. The
    /// `userdata` is this object, unretained: sd-bus calls back only from
    /// `sd_bus_process`, inside ``process()``, while `self` is alive, and
    /// ``close()`` (in `deinit` at the latest) ends all callbacks first.
    private static let handler: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let owner = Unmanaged<SDBus>.fromOpaque(userdata).takeUnretainedValue()
        if let copied = SDBus.copy(message) { owner.received.append(copied) }
        return 0
    }

    private static func copy(_ message: OpaquePointer) -> DBusMessage? {
        var type: UInt8 = 0
        guard sd_bus_message_get_type(message, &type) >= 0 else { return nil }
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        var cookie: UInt64 = 0
        let kind: DBusMessage.Kind
        // sd-bus's message types (D-Bus specification): 2 method return, 3 error, 4 signal.
        switch type {
        case 4:
            kind = .signal
        case 2:
            _ = sd_bus_message_get_reply_cookie(message, &cookie)
            kind = .reply(cookie: cookie)
        case 3:
            _ = sd_bus_message_get_reply_cookie(message, &cookie)
            let error = sd_bus_message_get_error(message)
            kind = .error(cookie: cookie, name: text(error?.pointee.name), message: text(error?.pointee.message))
        default:
            return nil
        }
        var reader = DBusReader(message: message)
        return DBusMessage(kind: kind, sender: text(sd_bus_message_get_sender(message)),
                           path: text(sd_bus_message_get_path(message)),
                           interface: text(sd_bus_message_get_interface(message)),
                           member: text(sd_bus_message_get_member(message)), body: reader.readAll())
    }
}
