import DeckModel
import DeckProtocol

/// The floors the edit round trip is held to: the transport floor (a line
/// echoed over loopback TCP by a minimal blocking server), the durability
/// floor (the same snapshot bytes made durable with the fewest steps), and
/// both in one exchange — the least an edit could cost on this machine.
extension Bench {
    /// The bytes deckd writes for one generation of the desk layout.
    package var deskSnapshotBytes: [UInt8] {
        get throws { try snapshotFileBytes(profile: "desk", layout: desk.layout) }
    }

    /// A `moveButton` line of the desk layout: the request the edit figures send.
    package func moveLine(id: Int, from: (page: Int, index: Int), to: (page: Int, index: Int),
                          button: DeckButton) -> [UInt8] {
        ClientMessage(id: .int(id), .moveButton(fromPage: from.page, fromIndex: from.index, toPage: to.page,
                                                toIndex: to.index, button: button)).line()
    }

    func measureFloors() throws {
        let snapshot = try deskSnapshotBytes
        guard let button = desk.layout.button(page: 0, index: 0) else { throw BenchError.setup("the desk profile has no button at 0/0") }
        let request = moveLine(id: 1, from: (0, 0), to: (0, 1), button: button)

        // The three are measured in alternating rounds: the disk here is shared, and its speed drifts.
        let echoServer = try FloorServer(connections: 1, reply: .echo)
        let bothServer = try FloorServer(connections: 1, reply: .echo,
                                         durable: .init(folder: try folder("echo-floor"), bytes: snapshot))
        let echoClient = try BenchSocket(port: echoServer.port), bothClient = try BenchSocket(port: bothServer.port)
        defer {
            echoClient.shutdown()
            bothClient.shutdown()
            echoServer.waitUntilFinished()
            bothServer.waitUntilFinished()
        }
        let disk = try DurableFile(folder: try folder("durable-floor"), name: "floor.json.gz")
        let durableEvery = max(1, plan.echo.count / plan.durableWrite.count)
        var echoes: [Double] = []
        let samples = try Measure.interleaved(count: plan.durableWrite.count, warmUp: plan.durableWrite.warmUp, [
            {
                // Echoes are cheap and noisy: several per durable write, so they get as many samples as they need.
                for _ in 0..<durableEvery { echoes.append(try Self.roundTrip(echoClient, request)) }
                return try Self.roundTrip(echoClient, request)
            },
            {
                let elapsed = try BenchClock.time { try disk.write(snapshot) }
                disk.removeOld()
                return elapsed
            },
            { try Self.roundTrip(bothClient, request) },
        ])
        let echo = Samples(echoes.suffix(plan.echo.count) + samples[0].sorted)
        record(Figure(id: "floor.echo", title: "loopback TCP line echo (floor)", unit: "µs", value: .init(echo),
                      note: "minimal blocking server on 127.0.0.1, one \(request.count)-byte moveButton line"))
        record(Figure(id: "floor.durableWrite", title: "durable write of the snapshot bytes (floor)", unit: "µs",
                      value: .init(samples[1]),
                      note: "\(snapshot.count) bytes: temp file, write, fdatasync, close, rename, fsync folder"))
        record(Figure(id: "floor.edit", title: "echo + durable write, one exchange (edit floor)", unit: "µs",
                      value: .init(samples[2]),
                      note: String(format: "sum of the two medians above: %.0f µs", echo.median + samples[1].median)))
    }

    /// One request to a floor server and its answer, in µs.
    static func roundTrip(_ client: BenchSocket, _ request: [UInt8]) throws -> Double {
        let start = BenchClock.now()
        try client.send(request)
        guard try client.readLine() != nil else { throw BenchError.setup("the floor server closed the connection") }
        return BenchClock.microseconds(since: start)
    }
}
