import Foundation
import Glibc
import Synchronization
import Testing
@testable import DeckTransport

@Suite("event loop")
struct EventLoopTests {
    private func withLoop(_ body: (EventLoop) throws -> Void) throws {
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        try body(loop)
    }

    @Test func executeFromManyThreadsRunsEverythingOnTheLoopInOrder() throws {
        try withLoop { loop in
            let state = try loop.sync { LoopBound([Int](repeating: -1, count: 8), loop: loop) }
            let misplaced = Atomic<Int>(0)
            let outOfOrder = Atomic<Int>(0)
            try onThreads(8) { thread in
                for step in 0..<1000 {
                    loop.execute {
                        if !loop.inEventLoop { misplaced.add(1, ordering: .relaxed) }
                        if state.value[thread] != step - 1 { outOfOrder.add(1, ordering: .relaxed) }
                        state.value[thread] = step
                    }
                }
            }
            #expect(try loop.sync { state.value } == [Int](repeating: 999, count: 8))
            let (wrongThread, wrongOrder) = (misplaced.load(ordering: .relaxed), outOfOrder.load(ordering: .relaxed))
            #expect(wrongThread == 0)
            #expect(wrongOrder == 0)
            #expect(!loop.inEventLoop)
        }
    }

    @Test func syncAndSubmitReturnResultsAndErrors() async throws {
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        #expect(try loop.sync { loop.inEventLoop })
        #expect(throws: TestFailure.self) { try loop.sync { throw TestFailure("from the loop") } }
        #expect(try await loop.submit { 6 * 7 } == 42)
        await #expect(throws: TestFailure.self) { try await loop.submit { throw TestFailure("async") } }
    }

    @Test func aStoppedLoopTakesNoMoreWork() throws {
        let loop = try EventLoop.spawn()
        #expect(try loop.sync { 1 } == 1)
        loop.stop()
        loop.waitUntilStopped()
        loop.waitUntilStopped()  // a second wait returns at once
        #expect(!loop.execute {})
        #expect(throws: TransportError.loopStopped) { try loop.sync { 1 } }
        #expect(throws: TransportError.loopAlreadyRunning) { try loop.run() }
    }

    @Test func runTwiceIsRefused() throws {
        try withLoop { loop in
            #expect(throws: TransportError.loopAlreadyRunning) { try loop.run() }
        }
    }

    @Test func timersFireInDeadlineOrderAndCancelledOnesNever() throws {
        try withLoop { loop in
            let log = EventLog()
            let line: @Sendable (String) -> Void = { text in log.append(.line(ConnectionID(rawValue: 0), text)) }
            // Taken before scheduling: the 60 ms count from the schedule call, and a busy machine
            // may return from `sync` some milliseconds later (it measured 57 ms once).
            let clock = ContinuousClock()
            let start = clock.now
            try loop.sync {
                loop.schedule(after: .milliseconds(60)) { line("c") }
                loop.schedule(after: .milliseconds(20)) { line("a") }
                let cancelled = loop.schedule(after: .milliseconds(40)) { line("never") }
                loop.schedule(after: .milliseconds(40)) { line("b") }
                loop.schedule(after: .zero) { line("now") }
                cancelled.cancel()
                #expect(!cancelled.isPending)
            }
            #expect(log.wait { $0.count == 4 })
            #expect(clock.now - start >= .milliseconds(60), "no timer fires early")
            let order = log.all.compactMap { if case let .line(_, text) = $0 { text } else { nil } }
            #expect(order == ["now", "a", "b", "c"])
            #expect(try loop.sync { loop.state.timers.nextDeadline() } == nil)
        }
    }

    @Test func anIdleLoopSleepsWithoutTimeout() throws {
        let server = try TestServer.start(limits: ConnectionLimits(establishTimeout: .seconds(30))) { connection, line, _ in
            connection.markEstablished()
            if let reply = try? OutboundLine(line) { connection.send(reply) }
        }
        defer { server.stop() }
        let clients = try (0..<4).map { _ in try server.client() }
        for client in clients { _ = try client.roundTrip("hello") }
        // Every handshake timer is cancelled: nothing is left to wake up for.
        #expect(try server.loop.sync { server.loop.state.timers.nextDeadline() } == nil)
        let before = try server.loop.sync { server.loop.state.wakeUps }
        Thread.sleep(forTimeInterval: 0.3)
        let after = try server.loop.sync { server.loop.state.wakeUps }
        // Exactly one wake-up: the `sync` that asked.
        #expect(after - before == 1)
    }

    @Test func watchedDescriptorsCallBackOnTheLoopUntilCancelled() throws {
        try withLoop { loop in
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
            defer { Sys.close(ends[0]); Sys.close(ends[1]) }
            let reader = ends[0], writer = ends[1]
            let log = EventLog()
            let onLoop = Atomic<Bool>(true)
            let watch = try loop.sync {
                let watch = try loop.watchReadable(reader) {
                    if !loop.inEventLoop { onLoop.store(false, ordering: .relaxed) }
                    var buffer = [UInt8](repeating: 0, count: 64)
                    let count = read(reader, &buffer, buffer.count)
                    if count > 0 { log.append(.line(ConnectionID(rawValue: 0), String(decoding: buffer[..<count], as: UTF8.self))) }
                }
                return LoopBound(watch, loop: loop)
            }
            let received = { log.all.compactMap { if case let .line(_, text) = $0 { text } else { nil } }.joined() }
            for (index, byte) in Array("abc".utf8).enumerated() {
                var value = byte
                #expect(write(writer, &value, 1) == 1)
                #expect(log.wait { _ in received().count == index + 1 })
            }
            #expect(received() == "abc")
            let allOnLoop = onLoop.load(ordering: .relaxed)
            #expect(allOnLoop)
            try loop.sync {
                #expect(watch.value.isActive)
                watch.value.cancel()
                #expect(!watch.value.isActive)
            }
            var value = UInt8(ascii: "d")
            #expect(write(writer, &value, 1) == 1)
            // Two loop turns later, a live watch would have read it.
            _ = try loop.sync { 0 }
            _ = try loop.sync { 0 }
            #expect(received() == "abc")
        }
    }

    @Test func stopClosesEveryConnectionAndTellsTheHandler() throws {
        let server = try TestServer.start()
        let clients = try (0..<3).map { _ in try server.client() }
        for client in clients { _ = try client.roundTrip("x") }
        server.stop()
        for client in clients { #expect(client.waitForClose()) }
        #expect(server.log.all.filter { $0 == .closed(ConnectionID(rawValue: 0), .loopStopped) }.isEmpty)
        let reasons = server.log.all.compactMap { if case let .closed(_, reason) = $0 { reason } else { nil } }
        #expect(reasons == [.loopStopped, .loopStopped, .loopStopped])
        #expect(throws: TransportError.self) { _ = try server.client(timeout: .seconds(1)) }
    }

    @Test func setupFailureClosesWhatSetupOpened() throws {
        let loop = try EventLoop()
        let port = Mutex(0)
        #expect(throws: TestFailure.self) {
            try loop.run {
                let listener = try loop.listen(on: .tcp(host: "127.0.0.1", port: 0),
                                               handler: TestHandler(log: EventLog(), behavior: Behaviors.echo))
                port.withLock { $0 = listener.address.port }
                throw TestFailure("setup failed")
            }
        }
        // The port is free again: the listener was closed with the loop.
        let again = try EventLoop.spawn()
        defer { again.stop(); again.waitUntilStopped() }
        let reused = try again.sync {
            try again.listen(on: .tcp(host: "127.0.0.1", port: port.withLock { $0 }),
                            handler: TestHandler(log: EventLog(), behavior: Behaviors.echo)).address.port
        }
        #expect(reused == port.withLock { $0 })
    }

    @Test func pausedReadingHoldsLinesUntilResumed() throws {
        let server = try TestServer.start { connection, line, _ in
            if String(decoding: line, as: UTF8.self) == "pause" { connection.pauseReading() }
            if let reply = try? OutboundLine(line) { connection.send(reply) }
        }
        defer { server.stop() }
        let client = try server.client()
        try client.write(Array("pause\nA\nB\n".utf8))
        #expect(try client.readText() == "pause")
        try client.send("C")
        #expect(throws: TransportError.self) { _ = try client.readLine(timeout: .milliseconds(150)) }
        let id = try #require(server.log.openedIDs.first)
        #expect(!server.log.all.contains(.line(id, "A")))
        try server.onLoop { handler in handler.connections[id]?.resumeReading() }
        #expect(try client.readText() == "A")
        #expect(try client.readText() == "B")
        #expect(try client.readText() == "C")
    }
}
