import DeckModel
import DeckProtocol

/// Figures 1 and 2: one device's edit round trip against the edit floor,
/// and the fan-out of an edit to 1, 64 and 256 devices against the same
/// exchange done by a minimal server.
extension Bench {
    func measureEdits(deckd: String) throws {
        let host = try startDeskHost(deckd: deckd, name: "edits")
        defer { host.stop() }
        let device = try BenchDevice(port: host.port, name: "bench phone")
        let snapshot = try deskSnapshotBytes
        let from = (page: 0, index: 0), to = (page: 0, index: 1)
        let floorRequest = try device.moveLine(from: from, to: to).line

        // deckd appends each generation to its journal: the floor appends the same bytes to one file.
        let server = try FloorServer(connections: 1, reply: .echo,
                                     durable: .init(folder: try folder("edit-floor"), bytes: snapshot, append: true))
        let floorClient = try BenchSocket(port: server.port)
        defer {
            floorClient.shutdown()
            server.waitUntilFinished()
        }
        let samples = try Measure.interleaved(count: plan.edits.count, warmUp: plan.edits.warmUp, [
            { try Self.timedMove(device, from: from, to: to) },
            { try Self.roundTrip(floorClient, floorRequest) },
        ])
        let ratio = samples[0].median / max(samples[1].median, 1e-9)
        let tail = samples[0].p99 / max(samples[1].p99, 1e-9)
        record(Figure(id: "edit.roundTrip", title: "edit round trip (moveButton → ok, durable)", unit: "µs",
                      value: .init(samples[0]), baselineLabel: "echo + append + fdatasync (floor)", baseline: .init(samples[1]),
                      target: "≤ 1.2× floor at the median, ≤ 1.5× at p99", verdict: ratio <= 1.2 && tail <= 1.5 ? .met : .missed,
                      note: "one device, the 4-page desk profile; the floor echoes the same line after appending the same "
                        + "\(snapshot.count) snapshot bytes (and a record header) to one file and fdatasync"))
        try measureFanOut(host: host, first: device, snapshot: snapshot)
    }

    /// Fan-out to 1, 64 and 256 devices on the same host: devices are added,
    /// never closed, so the host always serves exactly N.
    private func measureFanOut(host: HostProcess, first: BenchDevice, snapshot: [UInt8]) throws {
        var devices = [first]
        let from = (page: 1, index: 2), to = (page: 1, index: 3)
        for count in plan.fanOutSizes {
            while devices.count < count {
                devices.append(try BenchDevice(port: host.port, name: "bench device \(devices.count)"))
            }
            let sender = devices[0]
            let hostWait = try LayoutWait(devices.map(\.socket))
            // The floor: the same answer (ok to the sender, the same layout line to all) from a minimal server.
            let layoutLine = HostMessage.layout(profile: "desk", revision: 7, layout: sender.layout).line()
            let okLine = HostMessage.ok(id: .int(1), revision: 7).line()
            let server = try FloorServer(connections: count, reply: .fanOut(reply: okLine, broadcast: layoutLine),
                                         durable: .init(folder: try folder("fanout-floor-\(count)"), bytes: snapshot))
            var floorSockets: [BenchSocket] = []
            for _ in 0..<count { floorSockets.append(try BenchSocket(port: server.port)) }
            let floorWait = try LayoutWait(floorSockets)
            defer {
                floorSockets[0].shutdown()
                server.waitUntilFinished()
            }
            let request = try sender.moveLine(from: from, to: to).line
            let samples = try Measure.interleaved(count: plan.fanOut.count, warmUp: plan.fanOut.warmUp, [
                {
                    let (line, _) = try sender.moveLine(from: from, to: to)
                    let revision = sender.revision + 1
                    let start = BenchClock.now()
                    try sender.socket.send(line)
                    try hostWait.waitForAll(revision: revision)
                    let elapsed = BenchClock.microseconds(since: start)
                    sender.applied(from: from, to: to, revision: revision)
                    return elapsed / 1_000
                },
                {
                    let start = BenchClock.now()
                    try floorSockets[0].send(request)
                    try floorWait.waitForAll(revision: 7)
                    return BenchClock.microseconds(since: start) / 1_000
                },
            ])
            let target = count == 256 ? "p99 ≤ 5 ms" : nil
            record(Figure(id: "fanout.\(count)", title: "fan-out to \(count) device\(count == 1 ? "" : "s")", unit: "ms",
                          value: .init(samples[0]), baselineLabel: "minimal server, same answer (floor)",
                          baseline: .init(samples[1]), target: target,
                          verdict: target == nil ? nil : (samples[0].p99 <= 5 ? .met : .missed),
                          note: count == plan.fanOutSizes.last
                            ? "from moveButton sent until every device has the new layout line (durable write included); "
                              + "\(layoutLine.count)-byte layout line; the floor writes the same snapshot bytes durably, then the "
                              + "same lines with blocking write()s" : nil))
        }
    }

    /// A deckd serving the desk profile from fresh folders.
    func startDeskHost(deckd: String, name: String, extra: [String] = []) throws -> HostProcess {
        let base = try folder("host-\(name)")
        let layouts = try folder("host-\(name)/layouts")
        try deskYAML.write(toFile: layouts + "/desk.yaml", atomically: true, encoding: .utf8)
        return try HostProcess(deckd: deckd, layouts: layouts, state: base + "/state", control: base + "/run/control.sock",
                               extra: extra)
    }
}
