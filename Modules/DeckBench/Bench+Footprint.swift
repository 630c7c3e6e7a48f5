import Foundation
import Glibc

/// Figure 6: deckd's resident memory idle and with 256 devices connected,
/// and the CPU it uses while nothing happens.
extension Bench {
    func measureFootprint(deckd: String) throws {
        let host = try startDeskHost(deckd: deckd, name: "footprint")
        defer { host.stop() }
        usleep(200_000)  // let start-up work (a background retention pass, the folder watch) settle
        let idleKB = host.residentKB()
        let (idleCPU, idleNote) = idleWindow(host)
        var devices: [BenchDevice] = []
        for index in 0..<plan.footprintDevices { devices.append(try BenchDevice(port: host.port, name: "idle device \(index)")) }
        usleep(200_000)
        let connectedKB = host.residentKB()
        let (connectedCPU, connectedNote) = idleWindow(host)
        let perDevice = Double(connectedKB - idleKB) / Double(devices.count)

        record(Figure(id: "footprint.rssIdle", title: "resident memory, idle", unit: "MB", value: .init(single: Double(idleKB) / 1_024),
                      target: "≤ 15 MB", verdict: Double(idleKB) / 1_024 <= 15 ? .met : .missed,
                      note: "VmRSS after start with the desk profile, no device connected"))
        record(Figure(id: "footprint.rss256", title: "resident memory, \(devices.count) devices", unit: "MB",
                      value: .init(single: Double(connectedKB) / 1_024), note: "every device handshaken (welcome received)"))
        record(Figure(id: "footprint.perDevice", title: "resident memory per connected device", unit: "KB",
                      value: .init(single: perDevice), target: "≤ 40 KB", verdict: perDevice <= 40 ? .met : .missed))
        record(Figure(id: "footprint.idleCPU", title: String(format: "CPU time, idle host, %g s", plan.idleSeconds), unit: "ms",
                      value: .init(single: idleCPU), target: "0", verdict: idleCPU == 0 ? .met : .missed,
                      note: "the sum of every thread's schedstat (ns); " + idleNote))
        record(Figure(id: "footprint.idleCPU256", title: String(format: "CPU time, idle host with %d devices, %g s",
                                                                devices.count, plan.idleSeconds), unit: "ms",
                      value: .init(single: connectedCPU), target: "0", verdict: connectedCPU == 0 ? .met : .missed,
                      note: connectedNote))
    }

    /// CPU time (ms) of the host over the idle window, and a note with its
    /// wake-ups. When a thread ended or started meanwhile, its nanoseconds
    /// cannot be summed, and the process's clock ticks (10 ms) are used.
    private func idleWindow(_ host: HostProcess) -> (Double, String) {
        let before = host.cpu()
        usleep(UInt32(plan.idleSeconds * 1_000_000))
        let after = host.cpu()
        guard before.threads == after.threads else {
            let ended = before.threads.subtracting(after.threads).count, started = after.threads.subtracting(before.threads).count
            return (Double(max(0, after.ticks - before.ticks)) * 1_000 / Double(sysconf(Int32(_SC_CLK_TCK))),
                    "\(ended) thread(s) ended and \(started) started in the window, so measured in clock ticks (10 ms)")
        }
        return (Double(after.nanoseconds &- before.nanoseconds) / 1e6, "\(after.wakeups - before.wakeups) wake-ups in the window")
    }
}
