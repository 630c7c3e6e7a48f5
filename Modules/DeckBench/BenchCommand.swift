import DeckTestSupport
import Foundation

/// What `deck-bench` does: parse the options, run, print the table, write results.json.
public enum BenchCommand {
    /// Runs the command line `arguments` (without the program name) and
    /// returns the exit status: 0 after a run (whatever the figures), 2 for
    /// bad arguments, 1 when the run could not start or results could not be written.
    public static func main(_ arguments: [String]) -> Int32 {
        let options: BenchOptions
        do {
            switch try BenchOptions.parse(arguments) {
            case .help:
                print(BenchOptions.usage)
                return 0
            case .run(let parsed): options = parsed
            case let .flooder(port, name): return Bench.flood(port: port, name: name)
            }
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("deck-bench: \(error)\n".utf8))
            return 2
        }
        if let path = options.largeProfile { return write(GeneratedProfiles.large(), to: path) }
        if let path = options.deskProfile { return write(Bench.deskProfile, to: path) }
        do {
            let start = BenchClock.now()
            let date = Date()
            let bench = try Bench(options: options)
            let figures = bench.run()
            let seconds = BenchClock.microseconds(since: start) / 1e6
            print(Report.table(figures, machine: bench.machine, quick: options.quick, seconds: seconds))
            let output = URL(fileURLWithPath: options.output)
            try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(Report.json(figures, machine: bench.machine, quick: options.quick, seconds: seconds, date: date)).write(to: output)
            print("results written to \(options.output)")
            return 0
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("deck-bench: \(error)\n".utf8))
            return 1
        }
    }

    /// Writes a generated profile for profiling deckd by hand: 0, or 1 with why.
    private static func write(_ profile: String, to path: String) -> Int32 {
        do {
            try profile.write(toFile: path, atomically: true, encoding: .utf8)
            return 0
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("deck-bench: cannot write \(path): \(reason(error))\n".utf8))
            return 1
        }
    }

    /// The system's words for why a write failed ("No such file or directory"),
    /// not Foundation's whole error dictionary.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
