#if canImport(Glibc)
import Glibc
#endif
internal import CSDBus

/// One client connection to a D-Bus bus through sd-bus, for a thread that
/// waits in `poll` (``pollState()``) and then takes what arrived (``process()``).
///
/// Not `Sendable` on purpose: sd-bus objects belong to one thread, so the
/// thread that makes a connection uses and closes it (a bus thread of its
/// own: ``BusThread``). Calls and matches are asynchronous, their replies and
/// signals copied into ``DBusMessage``s and queued until ``process()`` returns
/// them, so a peer that stalls never blocks the thread; only
/// ``callAndWait(destination:path:interface:member:arguments:timeoutMicroseconds:)`` waits, bounded.
public final class DBusConnection {
    /// Which bus to connect to.
    public enum Bus: Hashable, Sendable {
        /// The session bus `DBUS_SESSION_BUS_ADDRESS` names (or the user's default one).
        case session
        /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, or /run/dbus/system_bus_socket).
        case system
        /// A bus at a D-Bus address (`unix:path=/tmp/bus`), as a client of a bus daemon.
        case address(String)

        var name: String {
            switch self {
            case .session: "the session bus (DBUS_SESSION_BUS_ADDRESS)"
            case .system: "the system bus"
            case .address(let address): "the bus at \(address)"
            }
        }
    }

    /// What to wait for before calling ``DBusConnection/process()`` again.
    public struct PollState: Hashable, Sendable {
        /// The socket to poll.
        public var descriptor: Int32
        /// The `poll` events sd-bus waits for (`POLLIN`, and `POLLOUT` while it has something to send).
        public var events: Int16
        /// How long to wait at most, in milliseconds, until sd-bus's next deadline (a call's timeout); -1: none.
        public var timeoutMilliseconds: Int32
    }

    var bus: OpaquePointer?
    var received: [DBusMessage] = []
    /// What received bodies are cut to.
    public let limits: DBusLimits

    /// Connects to `bus` as a client; throws when it cannot (no bus at the address, refused authentication).
    public init(_ bus: Bus = .session, limits: DBusLimits = .standard) throws(DBusError) {
        self.limits = limits
        var opened: OpaquePointer?
        var code: Int32
        switch bus {
        case .session: code = sd_bus_open_user(&opened)
        case .system: code = sd_bus_open_system(&opened)
        case .address(let address):
            code = sd_bus_new(&opened)
            if code >= 0 { code = sd_bus_set_address(opened, address) }
            if code >= 0 { code = sd_bus_set_bus_client(opened, 1) }
            if code >= 0 { code = sd_bus_start(opened) }
            if code < 0, opened != nil { sd_bus_close_unref(opened) }
        }
        guard code >= 0, let opened else { throw .failed("connecting to \(bus.name)", errno: -code) }
        self.bus = opened
    }

    deinit { close() }

    /// This connection's unique name on the bus (`:1.42`).
    public func uniqueName() throws(DBusError) -> String {
        var name: UnsafePointer<CChar>?
        let code = sd_bus_get_unique_name(try open(), &name)
        guard code >= 0, let name else { throw .failed("reading this connection's bus name", errno: -code) }
        return String(cString: name)
    }

    /// Sends what is still queued for at most `flushMilliseconds` (a call
    /// made just before the process stops still reaches its peer), then
    /// closes; no message arrives after this. Never `sd_bus_flush`, which
    /// waits without end on a bus that stopped reading.
    public func close(flushMilliseconds: Int64 = 0) {
        guard let bus else { return }
        let deadline = Self.monotonicMilliseconds() + flushMilliseconds
        while sd_bus_get_events(bus) & Int32(POLLOUT) != 0 {
            let left = deadline - Self.monotonicMilliseconds()
            guard left > 0 else { break }
            var ready = pollfd(fd: sd_bus_get_fd(bus), events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, Int32(clamping: left)) > 0, sd_bus_process(bus, nil) >= 0 else { break }
        }
        sd_bus_close_unref(bus)
        self.bus = nil
        received = []
    }

    /// The socket, the events sd-bus waits for and how long until its next deadline.
    public func pollState() throws(DBusError) -> PollState {
        let bus = try open()
        let descriptor = sd_bus_get_fd(bus)
        guard descriptor >= 0 else { throw .failed("reading the bus socket", errno: -descriptor) }
        let events = sd_bus_get_events(bus)
        guard events >= 0 else { throw .failed("reading the bus's events", errno: -events) }
        var timeout: UInt64 = 0
        let code = sd_bus_get_timeout(bus, &timeout)
        guard code >= 0 else { throw .failed("reading the bus's timeout", errno: -code) }
        var wait: Int32 = -1
        if timeout != UInt64.max {
            let now = UInt64(Self.monotonicMicroseconds())
            wait = timeout <= now ? 0 : Int32(clamping: (timeout - now + 999) / 1000)
        }
        return PollState(descriptor: descriptor, events: Int16(truncatingIfNeeded: events), timeoutMilliseconds: wait)
    }

    /// Reads and dispatches everything the socket holds (and times out calls
    /// past their deadline); returns the messages that arrived, in order.
    /// Throws when the connection is gone (the bus stopped, a match was refused).
    public func process() throws(DBusError) -> [DBusMessage] {
        let bus = try open()
        while true {
            let code = sd_bus_process(bus, nil)
            if code < 0 { throw .failed("reading from the bus", errno: -code) }
            if code == 0 { break }
        }
        defer { received = [] }
        return received
    }

    /// CLOCK_MONOTONIC in milliseconds: the clock of sd-bus's deadlines, for a loop's own retry timing.
    public static func monotonicMilliseconds() -> Int64 { monotonicMicroseconds() / 1000 }

    static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    func open() throws(DBusError) -> OpaquePointer {
        guard let bus else { throw .closed }
        return bus
    }
}
