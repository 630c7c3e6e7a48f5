import DeckModel
import DeckProfiles
import DeckTestSupport
import Foundation

/// One run of the benchmark: measures every figure of issue 10 with its
/// floor or reference, on this machine, in this run.
///
/// It reports; it never judges by failing. A part that cannot be measured
/// (no python3, no deckd yet) becomes a row that says why, and the run goes on.
package final class Bench {
    package let options: BenchOptions
    package let plan: Plan
    package let work: TemporaryDirectory
    package let machine: Machine
    package private(set) var figures: [Figure] = []
    /// The everyday profile the host figures use: 4 pages of 12, every action kind.
    package let deskYAML: String
    package let desk: DeckProfile
    /// The large profile of the load and start figures: 1,000 pages × 12 buttons.
    package let largeYAML: [UInt8]
    package let large: DeckProfile

    /// The desk profile the edit figures serve: 4 pages of the large profile's buttons.
    package static var deskProfile: String {
        GeneratedProfiles.large(pages: 4).replacingOccurrences(of: "name: large", with: "name: desk")
    }

    package init(options: BenchOptions) throws {
        self.options = options
        plan = options.quick ? .quick : .full
        if let folder = options.workFolder { setenv("TMPDIR", folder, 1) }
        work = try TemporaryDirectory(prefix: "bench")
        machine = Machine.current(folder: work.path)
        deskYAML = Self.deskProfile
        desk = try DeckProfile.parse(deskYAML, file: "desk.yaml")
        largeYAML = Array(GeneratedProfiles.large(pages: plan.largePages).utf8)
        large = try DeckProfile.parse(largeYAML, file: "large.yaml")
    }

    /// Runs every part in turn and returns the figures.
    package func run() -> [Figure] {
        let deckd = product("deckd")
        section("floors", "network and disk floors") { try measureFloors() }
        if let deckd {
            section("edits", "edit round trip and fan-out") { try measureEdits(deckd: deckd) }
            section("tls", "TLS cost") { try measureTLS(deckd: deckd) }
            section("concurrent", "concurrent edits") { try measureConcurrentEdits(deckd: deckd) }
            section("flood", "a healthy client among flooders") { try measureFlood(deckd: deckd) }
            section("web", "the web deck") { try measureWeb(deckd: deckd) }
            section("obs", "the obs plugin against a real OBS") { try measureObs(deckd: deckd) }
            section("keys", "the keys plugin against a real X server") { try measureKeys(deckd: deckd) }
        } else {
            section("concurrent", "SQLite reference") { try measureSQLite() }
            if options.only == nil { recordHostMissing("not measurable yet: deckd is not built in \(productsFolder)") }
        }
        section("profile", "profile load") { try measureProfileLoad() }
        if let deckd {
            section("start", "start") { try measureStart(deckd: deckd) }
            section("status", "deckctl status") { try measureStatus(deckd: deckd, deckctl: product("deckctl")) }
            section("footprint", "footprint") { try measureFootprint(deckd: deckd) }
        }
        section("snapshots", "snapshots") { try measureSnapshots() }
        section("sound", "the sound plugin") { try measureSound() }
        return figures
    }

    /// The parts `--only` may name, in the order they run.
    package static let sections = ["floors", "edits", "tls", "concurrent", "flood", "web", "obs", "keys", "profile", "start",
                                   "status", "footprint", "snapshots", "sound"]

    /// Where deckd and deckctl are: `--products`, else beside deck-bench.
    package var productsFolder: String {
        if let products = options.products { return products }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().path
    }

    /// The path of an executable product, or nil when it is not built.
    func product(_ name: String) -> String? {
        let path = productsFolder + "/" + name
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Rows for every host figure, saying why none could be measured.
    private func recordHostMissing(_ why: String) {
        let rows: [(String, String, String, String?)] = [
            ("edit.roundTrip", "edit round trip (moveButton → ok, durable)", "µs", "≤ 1.5× floor at the median"),
            ("tls.editRoundTrip", "edit round trip over TLS", "µs", "≤ 1.15× plain at the median"),
            ("tls.pingRoundTrip", "ping round trip over TLS", "µs", nil),
            ("tls.handshakes", "TLS handshakes per second (connect → established)", "/s", nil),
            ("fanout.1", "fan-out to 1 device", "ms", nil),
            ("fanout.64", "fan-out to 64 devices", "ms", nil),
            ("fanout.256", "fan-out to 256 devices", "ms", "p99 ≤ 5 ms"),
            ("edits.concurrent", "concurrent edits, 8 devices", "edits/s", "≥ SQLite's commits/s"),
            ("start.fresh", "start, large profile (exec → ready)", "ms", "≤ 100 ms"),
            ("deckctl.status", "deckctl status (exec → exit)", "ms", nil),
            ("footprint.rssIdle", "resident memory, idle", "MB", "≤ 15 MB"),
            ("footprint.perDevice", "resident memory per connected device", "KB", "≤ 40 KB"),
            ("footprint.idleCPU", "CPU time, idle host", "ms", "0"),
        ]
        for (id, title, unit, target) in rows {
            record(.missing(id: id, title: title, unit: unit, target: target, why: why))
        }
    }

    /// Adds a figure to the report.
    package func record(_ figure: Figure) {
        figures.append(figure)
    }

    /// A fresh folder inside the work folder.
    package func folder(_ name: String) throws -> String {
        let path = work.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Runs one part; an error becomes a note rather than ending the run.
    func section(_ key: String, _ name: String, _ body: () throws -> Void) {
        if let only = options.only, !only.contains(key) { return }
        progress("measuring \(name)…")
        let start = BenchClock.now()
        do {
            try body()
        } catch {
            progress("  \(name) could not be measured: \(error)")
            record(Figure.missing(id: "error." + name.replacingOccurrences(of: " ", with: "-"), title: name, unit: "",
                                  target: nil, why: "could not be measured: \(error)"))
        }
        progress(String(format: "  (%.1f s)", BenchClock.microseconds(since: start) / 1e6))
    }

    /// One line of progress on standard error.
    package func progress(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
    }
}
