internal import CSDBus

extension DBusConnection {
    /// Subscribes to signals matching `rule` (D-Bus match syntax:
    /// `type='signal',interface='…',member='…'`); they arrive from ``process()``.
    ///
    /// Asynchronous, so a bus that accepts the connection and then stalls
    /// never blocks the thread; the bus handles requests in order, so the
    /// match is in place before any later call is answered. A refused match
    /// closes the connection (sd-bus's rule without an install callback),
    /// which ``process()`` then reports.
    public func addMatch(_ rule: String) throws(DBusError) {
        let code = sd_bus_add_match_async(try open(), nil, rule, Self.handler, nil, Unmanaged.passUnretained(self).toOpaque())
        guard code >= 0 else { throw .failed("subscribing to '\(rule)'", errno: -code) }
    }

    /// Sends a method call; its reply, or its error, arrives from
    /// ``process()`` with the returned cookie. One that is not answered
    /// within `timeoutMicroseconds` (25 s, D-Bus's usual bound, unless given)
    /// arrives as the error `org.freedesktop.DBus.Error.NoReply`; so does one
    /// whose peer leaves the bus first.
    @discardableResult
    public func call(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = [],
                     timeoutMicroseconds: UInt64 = 25_000_000) throws(DBusError) -> UInt64 {
        let bus = try open()
        let message = try Self.message(bus, destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        let code = sd_bus_call_async(bus, nil, message, Self.handler, Unmanaged.passUnretained(self).toOpaque(),
                                     timeoutMicroseconds)
        guard code >= 0 else { throw .failed("calling \(interface).\(member) on \(destination)", errno: -code) }
        var cookie: UInt64 = 0
        _ = sd_bus_message_get_cookie(message, &cookie)
        return cookie
    }

    /// A call answered before this returns, or an error saying why not: for
    /// a check at start (a few ms on a live bus), never in a loop that must
    /// stay responsive. Messages that arrive meanwhile stay queued for ``process()``.
    public func callAndWait(destination: String, path: String, interface: String, member: String,
                            arguments: [DBusValue] = [], timeoutMicroseconds: UInt64) throws(DBusError) -> [DBusValue] {
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
            switch name {
            case "": throw .failed("calling \(interface).\(member) on \(destination)", errno: -code)
            case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
                throw .noOwner(destination: destination)
            case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
                throw .timedOut(destination: destination, member: member)
            default: throw .refused(destination: destination, member: member, name: name, message: text)
            }
        }
        defer { sd_bus_message_unref(reply) }
        var reader = DBusReader(message: reply, limits: limits)
        return reader.readAll()
    }

    private static func message(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String,
                                _ member: String, _ arguments: [DBusValue]) throws(DBusError) -> OpaquePointer {
        var made: OpaquePointer?
        let code = sd_bus_message_new_method_call(bus, &made, destination, path, interface, member)
        guard code >= 0, let made else { throw .failed("making the call \(interface).\(member)", errno: -code) }
        do throws(DBusError) {
            for argument in arguments { try DBusWriter(message: made).append(argument) }
        } catch {
            sd_bus_message_unref(made)
            throw error
        }
        return made
    }

    /// Every callback of a connection: the message is copied and queued. The
    /// `userdata` is the connection, unretained: sd-bus calls back only from
    /// `sd_bus_process`, inside ``process()`` (or ``close(flushMilliseconds:)``),
    /// while it is alive, and closing ends all callbacks first.
    private static let handler: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let owner = Unmanaged<DBusConnection>.fromOpaque(userdata).takeUnretainedValue()
        if let copied = owner.copy(message) { owner.received.append(copied) }
        return 0
    }

    private func copy(_ message: OpaquePointer) -> DBusMessage? {
        var type: UInt8 = 0
        guard sd_bus_message_get_type(message, &type) >= 0 else { return nil }
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        var cookie: UInt64 = 0
        let kind: DBusMessage.Kind
        // The D-Bus specification's message types: 2 method return, 3 error, 4 signal.
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
        var reader = DBusReader(message: message, limits: limits)
        return DBusMessage(kind: kind, sender: text(sd_bus_message_get_sender(message)),
                           path: text(sd_bus_message_get_path(message)),
                           interface: text(sd_bus_message_get_interface(message)),
                           member: text(sd_bus_message_get_member(message)), body: reader.readAll())
    }
}
