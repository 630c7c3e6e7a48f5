import Dispatch
import Foundation
import Synchronization
@testable import DeckTransport

/// What the test handler saw, in order, readable from any thread.
final class EventLog: Sendable {
    enum Event: Sendable, Equatable {
        case opened(ConnectionID, SocketAddress)
        case line(ConnectionID, String)
        case closed(ConnectionID, CloseReason)
        case rejected(SocketAddress)
    }

    private let events = Mutex<[Event]>([])
    private let changed = DispatchSemaphore(value: 0)

    func append(_ event: Event) {
        events.withLock { $0.append(event) }
        changed.signal()
    }

    var all: [Event] { events.withLock { $0 } }

    /// Waits until `predicate` holds for the events seen so far (a signal,
    /// not a sleep: every new event re-checks it). False after `timeout`.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), until predicate: ([Event]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.components.seconds) * 1_000_000_000
            + Int(timeout.components.attoseconds / 1_000_000_000))
        while true {
            if predicate(all) { return true }
            if changed.wait(timeout: deadline) == .timedOut { return predicate(all) }
        }
    }

    func closeReason(of id: ConnectionID) -> CloseReason? {
        for case let .closed(closed, reason) in all where closed == id { return reason }
        return nil
    }

    var openedIDs: [ConnectionID] {
        all.compactMap { if case let .opened(id, _) = $0 { return id } else { return nil } }
    }

    var closedCount: Int { all.filter { if case .closed = $0 { return true } else { return false } }.count }
}

/// What the test server does with a line: runs on the loop.
typealias LineBehavior = @Sendable (Connection, Data, TestHandler) -> Void

enum Behaviors {
    /// Sends every line straight back.
    static let echo: LineBehavior = { connection, line, _ in
        if let reply = try? OutboundLine(line) { connection.send(reply) }
    }
}

/// A handler that records everything and applies a behaviour to lines.
final class TestHandler: ConnectionHandler {
    let log: EventLog
    let behavior: LineBehavior
    var connections: [ConnectionID: Connection] = [:]
    /// Free-form counters a behaviour may keep.
    var counters: [String: Int] = [:]

    init(log: EventLog, behavior: @escaping LineBehavior) {
        self.log = log
        self.behavior = behavior
    }

    func connectionOpened(_ connection: Connection) {
        connections[connection.id] = connection
        log.append(.opened(connection.id, connection.peer))
    }

    func connection(_ connection: Connection, received line: Data) {
        log.append(.line(connection.id, String(decoding: line, as: UTF8.self)))
        behavior(connection, line, self)
    }

    func connectionClosed(_ connection: Connection, reason: CloseReason) {
        connections[connection.id] = nil
        log.append(.closed(connection.id, reason))
    }

    func connectionRejected(from peer: SocketAddress, by listener: Listener) {
        log.append(.rejected(peer))
    }
}

/// An event loop on its own thread with one listener and a recording handler.
struct TestServer: Sendable {
    let loop: EventLoop
    let log: EventLog
    let endpoint: Endpoint
    let address: SocketAddress
    let handler: LoopBound<TestHandler>
    let listener: LoopBound<Listener>

    static func start(_ endpoint: Endpoint = .tcp(host: "127.0.0.1", port: 0),
                      limits: ConnectionLimits = ConnectionLimits(),
                      behavior: @escaping LineBehavior = Behaviors.echo) throws -> TestServer {
        let loop = try EventLoop.spawn(name: "test-loop")
        let log = EventLog()
        do {
            let (handler, listener) = try loop.sync {
                let handler = TestHandler(log: log, behavior: behavior)
                let listener = try loop.listen(on: endpoint, limits: limits, handler: handler)
                return (LoopBound(handler, loop: loop), LoopBound(listener, loop: loop))
            }
            let (endpoint, address) = try loop.sync { (listener.value.endpoint, listener.value.address) }
            return TestServer(loop: loop, log: log, endpoint: endpoint, address: address, handler: handler,
                              listener: listener)
        } catch {
            loop.stop()
            loop.waitUntilStopped()
            throw error
        }
    }

    func client(timeout: Duration = .seconds(5)) throws -> LineClient {
        try LineClient(connectingTo: endpoint, timeout: timeout)
    }

    /// Runs `body` on the loop with the handler (for inspecting server state).
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (TestHandler) throws -> T) throws -> T {
        try loop.sync { try body(handler.value) }
    }

    func stop() {
        loop.stop()
        loop.waitUntilStopped()
    }
}

extension LineClient {
    /// Sends `text` and returns the next line as text.
    func roundTrip(_ text: String, timeout: Duration = .seconds(5)) throws -> String {
        try send(text, timeout: timeout)
        return try readText(timeout: timeout)
    }

    func readText(timeout: Duration = .seconds(5)) throws -> String {
        String(decoding: try readLine(timeout: timeout), as: UTF8.self)
    }

    /// Reads and drops lines until the server closes; true if it closed in time.
    func waitForClose(timeout: Duration = .seconds(5)) -> Bool {
        while true {
            do {
                _ = try readLine(timeout: timeout)
            } catch TransportError.connectionClosed {
                return true
            } catch {
                return false
            }
        }
    }
}

/// Runs `body(index)` on `count` real threads at once (blocking clients need
/// threads, not tasks) and rethrows the first error any of them threw.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let group = DispatchGroup()
    let firstError = Mutex<(any Error)?>(nil)
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            do {
                try body(index)
            } catch {
                firstError.withLock { if $0 == nil { $0 = error } }
            }
            group.leave()
        }
        thread.stackSize = 1 << 19
        thread.start()
    }
    group.wait()
    if let error = firstError.withLock({ $0 }) { throw error }
}

/// A failure inside a test helper, with what was expected.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
