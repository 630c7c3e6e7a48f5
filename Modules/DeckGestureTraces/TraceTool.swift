import Foundation

/// The `deck-gestures` command line, as a function from arguments to output,
/// so it is tested without starting a process (and the app is a thin main).
public enum TraceTool {
    /// What a run printed and how it exits.
    public struct Result: Equatable, Sendable {
        /// Text for standard output.
        public var output: String = ""
        /// Text for standard error.
        public var errors: String = ""
        /// The exit status: 0 all good, 1 a trace failed or could not be
        /// used, 2 a usage mistake.
        public var status: Int32 = 0

        /// A result.
        public init(output: String = "", errors: String = "", status: Int32 = 0) {
            self.output = output
            self.errors = errors
            self.status = status
        }
    }

    /// The help text.
    public static let usage = """
        usage: deck-gestures replay TRACE.json…
               deck-gestures check DIR|TRACE.json…

        replay  runs each trace and prints its callbacks as JSON lines, one
                trace after the other (nothing but callbacks is printed)
        check   compares each trace's callbacks with its "expect": prints one
                line per failing trace, then "N passed, N failed"; exits 1 when
                any trace failed or could not be read. A folder means every
                .json file in it and in its subfolders.

        Trace files are described in GESTURES.md §3 and docs/gestures.md.

        """

    /// Runs the tool with `arguments` (without the program name).
    public static func run(_ arguments: [String]) -> Result {
        guard let command = arguments.first else {
            return Result(errors: "deck-gestures: say what to do: replay or check (see deck-gestures --help)\n", status: 2)
        }
        let operands = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            return Result(output: usage)
        case "replay", "check":
            if operands.contains(where: { $0 == "-h" || $0 == "--help" }) { return Result(output: usage) }
            if let option = operands.first(where: { $0.hasPrefix("-") && $0.count > 1 }) {
                return Result(errors: "deck-gestures: \(command) takes no option '\(option)' (see deck-gestures --help)\n", status: 2)
            }
            guard !operands.isEmpty else {
                let what = command == "replay" ? "trace files" : "trace files or folders"
                return Result(errors: "deck-gestures: \(command) needs \(what) (see deck-gestures --help)\n", status: 2)
            }
            return command == "replay" ? replay(operands) : check(operands)
        default:
            return Result(errors: "deck-gestures: unknown command '\(command)'; use replay or check (see deck-gestures --help)\n",
                          status: 2)
        }
    }

    private static func replay(_ files: [String]) -> Result {
        var result = Result()
        for file in files {
            do {
                // Callbacks only, even for several traces (GESTURES.md §3): a
                // line between traces would not be a callback.
                let trace = try Trace.load(path: file)
                for line in try trace.replay() { result.output += line.json + "\n" }
            } catch {
                result.errors += "deck-gestures: \(error)\n"
                result.status = 1
            }
        }
        return result
    }

    private static func check(_ operands: [String]) -> Result {
        var result = Result()
        var passed = 0
        var failed = 0
        for item in collect(operands) {
            switch item {
            case .failure(let error):
                result.output += "FAIL \(error)\n"
                failed += 1
            case .success(let file):
                if let reason = checkFile(file) {
                    result.output += "FAIL \(reason)\n"
                    failed += 1
                } else {
                    passed += 1
                }
            }
        }
        result.output += "\(passed) passed, \(failed) failed\n"
        result.status = failed == 0 ? 0 : 1
        return result
    }

    /// Nil when the trace passes, else the line that says why not.
    static func checkFile(_ file: String) -> String? {
        do {
            let trace = try Trace.load(path: file)
            guard let expect = trace.expect else {
                return "\(file): \(trace.name): the trace has no \"expect\" to check against"
            }
            guard let reason = TraceMatcher.mismatch(expected: expect, actual: try trace.replay()) else { return nil }
            return "\(file): \(trace.name): \(reason)"
        } catch {
            return error.description
        }
    }

    /// The trace files named, folders expanded (sorted, recursively); a
    /// missing path or a folder without traces is a failure, never a pass.
    private static func collect(_ operands: [String]) -> [Swift.Result<String, TraceError>] {
        operands.flatMap { operand -> [Swift.Result<String, TraceError>] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: operand, isDirectory: &isFolder) else {
                return [.failure(TraceError(file: operand, "no such file or folder"))]
            }
            guard isFolder.boolValue else { return [.success(operand)] }
            let base = URL(fileURLWithPath: operand)
            guard let walker = FileManager.default.enumerator(atPath: operand) else {
                return [.failure(TraceError(file: operand, "the folder cannot be read"))]
            }
            let files = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
            guard !files.isEmpty else { return [.failure(TraceError(file: operand, "no trace files (*.json) in this folder"))] }
            return files.map { .success(base.appendingPathComponent($0).path) }
        }
    }
}
