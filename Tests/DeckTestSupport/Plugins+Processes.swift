import Foundation

/// Whether process `pid` is still running: a zombie (exited, not yet reaped
/// by its parent) counts as gone, since it is only an entry in the table.
public func processIsAlive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")"),
          let state = stat[close...].dropFirst(2).first else { return false }
    return state != "Z"
}

/// Waits until none of `pids` is alive, up to `timeout`. A SIGKILL sent to a
/// process that is waiting for a CPU takes effect only when it next runs, and
/// a grandchild is reaped by whoever adopts it: after a kill, wait, never sample.
public func allGone(_ pids: [Int32], within timeout: Duration = .seconds(5)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while pids.contains(where: processIsAlive) {
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}

/// The pids a log names as `started (pid N)` after `prefix` (such as
/// `plugin 'counter'`), in order.
public func startedPIDs(in log: String, after prefix: String) -> [Int32] {
    var pids: [Int32] = []
    var rest = Substring(log)
    while let range = rest.range(of: prefix + " started (pid ") {
        rest = rest[range.upperBound...]
        if let pid = Int32(rest.prefix { $0.isNumber }) { pids.append(pid) }
    }
    return pids
}
