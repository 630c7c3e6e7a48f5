import Foundation
import Glibc

/// The machine a run measured, as the report and results.json record it:
/// figures mean little without it.
package struct Machine: Sendable {
    package var cpu: String
    package var cores: Int
    package var kernel: String
    package var memory: String
    /// The filesystem the durable writes went to: type, device, mount point.
    package var filesystem: String

    /// Reads /proc and uname; `folder` is where the benchmark writes its files.
    package static func current(folder: String) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let totalKB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        return Machine(cpu: cpu, cores: sysconf(Int32(_SC_NPROCESSORS_ONLN)), kernel: "Linux " + kernel,
                       memory: "\(totalKB / 1_048_576) GiB", filesystem: filesystem(of: folder))
    }

    /// The mount holding `path`, from /proc/self/mountinfo (the longest mount
    /// point that is a prefix of the path), with whether its disk rotates.
    private static func filesystem(of path: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return "unknown" }
        var best: (mount: String, type: String, source: String)?
        for line in table.split(separator: "\n") {
            // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue"
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let left = halves[0].split(separator: " "), right = halves[1].split(separator: " ")
            guard left.count > 4, right.count > 1 else { continue }
            let mount = String(left[4])
            let inside = resolved == mount || resolved.hasPrefix(mount == "/" ? "/" : mount + "/")
            if inside, mount.count >= (best?.mount.count ?? -1) {
                best = (mount, String(right[0]), String(right[1]))
            }
        }
        guard let best else { return "unknown" }
        var disk = ""
        let device = best.source.split(separator: "/").last.map(String.init) ?? ""
        if let rotational = try? String(contentsOfFile: "/sys/block/\(device)/queue/rotational", encoding: .utf8) {
            disk = rotational.hasPrefix("1") ? ", kernel reports the disk as rotational" : ", kernel reports the disk as non-rotational"
        }
        return "\(best.type) on \(best.source) (mounted at \(best.mount)\(disk))"
    }
}
