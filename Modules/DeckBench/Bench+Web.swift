import Foundation

/// The web figures (WEB.md, issue 14): an edit's round trip over a WebSocket
/// against the same over TCP, the WebSocket echo floor, and the CPU an idle
/// host uses with 64 WebSocket devices connected.
extension Bench {
    func measureWeb(deckd: String) throws {
        let host = try startDeskHost(deckd: deckd, name: "web", extra: ["--web", "127.0.0.1:0"])
        defer { host.stop() }
        guard let webPort = HostProcess.webPort(in: host.text) else {
            throw BenchError.setup("no web listener in deckd's ready line")
        }
        let result = try Python.run(Python.web, ["\(host.port)", "\(webPort)", "\(host.pid)", "\(plan.edits.count)",
                                                 "\(plan.edits.warmUp)", "\(plan.idleSeconds)", "64",
                                                 work.path + "/web.json"], in: work.path)
        let ws = Samples(result["ws_us"] as? [Double] ?? [])
        let tcp = Samples(result["tcp_us"] as? [Double] ?? [])
        let echo = Samples(result["echo_us"] as? [Double] ?? [])
        let ratio = ws.median / max(tcp.median, 1e-9)
        let client = "python3 and the websockets package drive both, interleaved"
        record(Figure(id: "web.editRoundTrip", title: "edit round trip over a WebSocket (moveButton → ok, durable)", unit: "µs",
                      value: .init(ws), baselineLabel: "the same over TCP", baseline: .init(tcp),
                      target: "≤ 1.1× TCP at the median", verdict: ratio <= 1.1 ? .met : .missed,
                      note: client + "; the 4-page desk profile"))
        record(Figure(id: "web.echo", title: "WebSocket echo of a \(result["bytes"] as? Int ?? 0)-byte text message", unit: "µs",
                      value: .init(echo), note: "a minimal WebSocket echo server in the client's process: the floor of a "
                        + "WebSocket round trip on this machine, beside which the edit round trip above stands"))
        // A thread that ended or started in the window cannot be summed by schedstat: clock ticks then (10 ms).
        let sameThreads = result["same_threads"] as? Bool ?? false
        let idleMS = sameThreads ? Double(result["idle_ns"] as? Int ?? -1) / 1e6
            : Double(result["idle_ticks"] as? Int ?? -1) * 1_000 / Double(result["tick_hz"] as? Int ?? 100)
        record(Figure(id: "web.idleCPU64", title: String(format: "CPU time, idle host with 64 WebSocket devices, %g s",
                                                         plan.idleSeconds), unit: "ms",
                      value: .init(single: idleMS), target: "0", verdict: idleMS == 0 ? .met : .missed,
                      note: sameThreads ? "the sum of every thread's schedstat (ns)"
                        : "a thread ended or started in the window, so measured in clock ticks (10 ms)"))
    }
}
