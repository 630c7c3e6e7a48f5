import Foundation
import Glibc

/// Figure 5: deckd's start with the large profile (from `exec` to `deckd
/// ready`), fresh and resuming its snapshot, against starting the same
/// binary just to print its help; and `deckctl status` against `deckctl --help`.
extension Bench {
    func measureStart(deckd: String) throws {
        let base = try folder("start")
        let layouts = try folder("start/layouts")
        try Data(largeYAML).write(to: URL(fileURLWithPath: layouts + "/large.yaml"))
        var fresh: [Double] = [], resume: [Double] = [], floor: [Double] = []
        var freshCPU: [Double] = [], resumeCPU: [Double] = []
        var residentKB = 0
        // Alternating: a fresh state folder (the file becomes a new generation), the same folder again
        // (the snapshot is resumed), and the bare process start.
        for round in 0..<(plan.starts + 1) {
            let state = base + "/state-\(round)"
            let control = base + "/run-\(round)/control.sock"
            let first = try HostProcess(deckd: deckd, layouts: layouts, state: state, control: control)
            first.stop()
            let second = try HostProcess(deckd: deckd, layouts: layouts, state: state, control: control)
            residentKB = second.residentKB()
            second.stop()
            let help = try BenchClock.time {
                guard try Child.run(deckd, ["--help"]).status == 0 else { throw BenchError.setup("deckd --help failed") }
            }
            guard round > 0 else { continue }  // the first round warms the page cache
            fresh.append(first.readyAfter / 1_000)
            resume.append(second.readyAfter / 1_000)
            freshCPU.append(first.cpuAtReady / 1_000)
            resumeCPU.append(second.cpuAtReady / 1_000)
            floor.append(help / 1_000)
        }
        let floorValue = Figure.Value(Samples(floor))
        let note = "\(largeYAML.count / 1_000) KB profile, \(large.layout.buttonCount) buttons; the floor is the same binary's "
            + "exec → exit for --help (process start, dynamic linking, runtime)"
        record(Figure(id: "start.fresh", title: "start, large profile, new state (exec → ready)", unit: "ms",
                      value: .init(Samples(fresh)), baselineLabel: "deckd --help, exec → exit (floor)", baseline: floorValue,
                      target: "≤ 100 ms", verdict: Samples(fresh).median <= 100 ? .met : .missed,
                      note: note + "; a fresh start loads the file and writes its first generation durably; "
                        + String(format: "deckd's own CPU time until ready: median %.1f ms", Samples(freshCPU).median)))
        record(Figure(id: "start.resume", title: "start, large profile, resuming its snapshot", unit: "ms",
                      value: .init(Samples(resume)), baselineLabel: "deckd --help, exec → exit (floor)", baseline: floorValue,
                      target: "≤ 100 ms", verdict: Samples(resume).median <= 100 ? .met : .missed,
                      note: "resuming parses the file (to compare it with the snapshot's source) and reads the snapshot, "
                        + String(format: "the two on separate threads; deckd's own CPU time until ready: median %.1f ms",
                                 Samples(resumeCPU).median)))
        record(Figure(id: "footprint.rssLarge", title: "resident memory, large profile live", unit: "MB",
                      value: .init(single: Double(residentKB) / 1_024),
                      note: "just after ready with the \(plan.largePages)-page profile (informative; the target is for the desk profile)"))
    }

    func measureStatus(deckd: String, deckctl: String?) throws {
        guard let deckctl else {
            record(.missing(id: "deckctl.status", title: "deckctl status (exec → exit)", unit: "ms", target: nil,
                            why: "deckctl is not built"))
            return
        }
        let host = try startDeskHost(deckd: deckd, name: "status")
        defer { host.stop() }
        let probe = try Child.run(deckctl, ["--control", host.control, "status"])
        guard probe.status == 0 else {
            record(.missing(id: "deckctl.status", title: "deckctl status (exec → exit)", unit: "ms", target: nil,
                            why: "not yet measurable: deckctl status exits \(probe.status): "
                                + probe.output.split(separator: "\n").prefix(2).joined(separator: " ")))
            return
        }
        let samples = try Measure.interleaved(count: plan.statusCalls, warmUp: 2, [
            { try BenchClock.time { _ = try Child.run(deckctl, ["--control", host.control, "status"]) } / 1_000 },
            { try BenchClock.time { _ = try Child.run(deckctl, ["--help"]) } / 1_000 },
        ])
        record(Figure(id: "deckctl.status", title: "deckctl status (exec → exit)", unit: "ms", value: .init(samples[0]),
                      baselineLabel: "deckctl --help, exec → exit (floor)", baseline: .init(samples[1]),
                      note: "against a host serving the desk profile"))
    }
}
