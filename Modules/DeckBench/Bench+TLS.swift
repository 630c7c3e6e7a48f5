import DeckProtocol
import DeckTLS

/// The cost of TLS (issue 16): one device's edit round trip over TLS
/// against the same edit over plain TCP, each on its own deckd, timed in
/// turns; and full handshakes per second against deckd, with the same
/// handshake done by two OpenSSL sessions in this process as the floor.
extension Bench {
    func measureTLS(deckd: String) throws {
        let plain = try startDeskHost(deckd: deckd, name: "tls-plain")
        defer { plain.stop() }
        let secure = try startDeskHost(deckd: deckd, name: "tls-on", extra: ["--tls", "auto"])
        defer { secure.stop() }
        let folder = try folder("host-tls-on") + "/state/tls"
        let trust = try TLSContext(clientTrusting: folder + "/certificate.pem")
        let plainDevice = try BenchDevice(port: plain.port, name: "bench phone (plain)")
        let tlsDevice = try BenchDevice(port: secure.port, name: "bench phone (TLS)", tls: trust)
        let from = (page: 0, index: 0), to = (page: 0, index: 1)
        // One sample each in turn (a round per pair): the disk's slow spells, which dominate an edit,
        // then fall on both sides alike instead of on one side's block of samples.
        let samples = try Measure.interleaved(count: plan.edits.count, warmUp: plan.edits.warmUp,
                                              rounds: plan.edits.count, [
            { try Self.timedMove(tlsDevice, from: from, to: to) },
            { try Self.timedMove(plainDevice, from: from, to: to) },
        ])
        let ratio = samples[0].median / max(samples[1].median, 1e-9)
        record(Figure(id: "tls.editRoundTrip", title: "edit round trip over TLS", unit: "µs",
                      value: .init(samples[0]), baselineLabel: "the same over plain TCP", baseline: .init(samples[1]),
                      target: "≤ 1.15× plain at the median", verdict: ratio <= 1.15 ? .met : .missed,
                      note: "TLS 1.3, --tls auto's ECDSA P-256 certificate; two hosts on the 4-page desk profile, "
                        + "timed in turns"))
        // TLS's own cost without the disk: a ping's round trip on the same two connections.
        let pings = try Measure.interleaved(count: plan.echo.count, warmUp: plan.echo.warmUp, rounds: plan.echo.count, [
            { try Self.timedPing(tlsDevice.socket) },
            { try Self.timedPing(plainDevice.socket) },
        ])
        record(Figure(id: "tls.pingRoundTrip", title: "ping round trip over TLS", unit: "µs",
                      value: .init(pings[0]), baselineLabel: "the same over plain TCP", baseline: .init(pings[1]),
                      note: "ping → pong on the same two devices: the records' sealing and opening on both ends"))

        let server = try TLSContext(certificateFile: folder + "/certificate.pem", keyFile: folder + "/key.pem")
        let count = plan.handshakes
        let warmUp = max(1, count / 10)
        let handshakes = try Measure.interleaved(count: count, warmUp: warmUp, [
            {
                let start = BenchClock.now()
                let socket = try BenchSocket(port: secure.port)
                try socket.startTLS(trust, serverName: "localhost")
                let elapsed = BenchClock.microseconds(since: start)
                socket.shutdown()
                return elapsed
            },
            { try Self.inProcessHandshake(server: server, client: trust) },
        ])
        // Rates from the median handshake time: one client, one at a time.
        let rate = 1e6 / max(handshakes[0].median, 1e-9)
        let floor = 1e6 / max(handshakes[1].median, 1e-9)
        record(Figure(id: "tls.handshakes", title: "TLS handshakes per second (connect → established)", unit: "/s",
                      value: .init(single: rate), baselineLabel: "the same handshake in memory (floor)",
                      baseline: .init(single: floor), higherIsBetter: true,
                      note: "one client in turn, each a new TCP connection and a full TLS 1.3 handshake "
                        + "(X25519, ECDSA P-256 signature) verified by the client; the floor runs both ends in this process"))
    }

    /// One `moveButton` → `ok`, in µs, then the layout broadcast that follows it.
    static func timedMove(_ device: BenchDevice, from: (page: Int, index: Int), to: (page: Int, index: Int)) throws -> Double {
        let (line, id) = try device.moveLine(from: from, to: to)
        let start = BenchClock.now()
        try device.socket.send(line)
        let revision = try device.awaitOK(id: id)
        let elapsed = BenchClock.microseconds(since: start)
        try device.awaitLayout()
        device.applied(from: from, to: to, revision: revision)
        return elapsed
    }

    /// One `ping` → `pong`, in µs.
    private static func timedPing(_ socket: BenchSocket) throws -> Double {
        let line = ClientMessage(id: .int(7), .ping).line()
        let start = BenchClock.now()
        try socket.send(line)
        guard let reply = try socket.readLine(), reply.starts(with: Array(#"{"type":"pong""#.utf8)) else {
            throw BenchError.setup("deckd did not answer ping with pong")
        }
        return BenchClock.microseconds(since: start)
    }

    /// A full handshake between two sessions in memory, in µs: the crypto and OpenSSL's own work, no sockets.
    private static func inProcessHandshake(server: TLSContext, client: TLSContext) throws -> Double {
        let start = BenchClock.now()
        var serverSide = TLSSession(server: server)
        var clientSide = TLSSession(client: client, serverName: "localhost")
        var toServer = records(clientSide.start())
        while !clientSide.isEstablished {
            let toClient = records(toServer.withUnsafeBytes { serverSide.receive($0) })
            guard !toClient.isEmpty else { throw BenchError.setup("the in-memory TLS handshake stalled") }
            toServer = records(toClient.withUnsafeBytes { clientSide.receive($0) })
        }
        _ = toServer.withUnsafeBytes { serverSide.receive($0) }  // the client's Finished
        return BenchClock.microseconds(since: start)
    }

    private static func records(_ actions: [TLSSession.Action]) -> [UInt8] {
        var bytes: [UInt8] = []
        for case let .write(records) in actions { bytes += records }
        return bytes
    }
}
