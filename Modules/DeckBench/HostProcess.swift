import Foundation
import Glibc

/// A deckd the benchmark started: its own layouts, state and control socket
/// in the work folder, TCP on 127.0.0.1 with a port the kernel picks.
package final class HostProcess {
    package let child: Child
    package let port: UInt16
    package let control: String
    /// Microseconds from `exec` to the `deckd ready` line.
    package let readyAfter: Double
    /// CPU time (µs, all threads) it had used when the ready line was read.
    package private(set) var cpuAtReady: Double = 0

    /// Starts `deckd` and waits for `deckd ready`.
    package init(deckd: String, layouts: String, state: String, control: String, extra: [String] = []) throws {
        let child = try Child(deckd, ["--layouts", layouts, "--state", state, "--control", control,
                                      "--listen", "127.0.0.1:0"]
                                      + (extra.contains { $0.hasPrefix("--web") } ? [] : ["--no-web"]) + extra,
                                  watchFor: "deckd ready")
        guard let ready = child.waitForLine(timeout: 30) else {
            child.signal(SIGKILL)
            child.wait()
            throw BenchError.setup("deckd did not say it was ready: \(child.text.suffix(800))")
        }
        guard let port = HostProcess.port(in: child.text) else {
            child.signal(SIGKILL)
            child.wait()
            throw BenchError.setup("no 127.0.0.1:PORT in deckd's ready line: \(child.text.suffix(800))")
        }
        self.child = child
        self.port = port
        self.control = control
        readyAfter = ready
        cpuAtReady = Double(cpu().nanoseconds) / 1_000
    }

    /// The TCP port in the ready line (`deckd ready on 127.0.0.1:40123 (devices) and …`).
    static func port(in text: String) -> UInt16? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("deckd ready") }),
              let range = line.range(of: "127.0.0.1:") else { return nil }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// The web listener's port in the ready line (`… and http://127.0.0.1:40124/ (web) …`).
    static func webPort(in text: String) -> UInt16? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("deckd ready") }),
              let range = line.range(of: "http://127.0.0.1:") else { return nil }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// What deckd wrote so far.
    package var text: String { child.text }

    /// Its process id.
    package var pid: Int32 { child.pid }

    /// Stops it with SIGTERM; its exit status.
    @discardableResult
    package func stop() -> Int32 {
        child.signal(SIGTERM)
        return child.wait()
    }

    /// Resident memory in KB (VmRSS).
    package func residentKB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
    }

    /// What the host's threads have used so far.
    package struct CPUUse {
        /// Every live thread's CPU time, in ns (each thread's schedstat counts
        /// in nanoseconds, where /proc/PID/stat counts in 10 ms ticks).
        package var nanoseconds: UInt64
        /// Times its live threads went to sleep and were woken again.
        package var wakeups: Int
        /// The live threads.
        package var threads: Set<String>
        /// The whole process's CPU time in clock ticks, exited threads included.
        package var ticks: Int
    }

    /// The host's CPU use so far.
    package func cpu() -> CPUUse {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task")) ?? []
        var use = CPUUse(nanoseconds: 0, wakeups: 0, threads: Set(tasks), ticks: 0)
        for task in tasks {
            let base = "/proc/\(child.pid)/task/\(task)"
            if let line = try? String(contentsOfFile: base + "/schedstat", encoding: .utf8),
               let first = line.split(separator: " ").first, let ns = UInt64(first) {
                use.nanoseconds += ns
            }
            let status = (try? String(contentsOfFile: base + "/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
                use.wakeups += line.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            }
        }
        // Fields 14 and 15 (utime, stime) after the parenthesised command name.
        if let stat = try? String(contentsOfFile: "/proc/\(child.pid)/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) { use.ticks = user + system }
        }
        return use
    }
}
