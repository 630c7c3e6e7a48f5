/// The command line of `deck-bench`.
package struct BenchOptions: Sendable, Equatable {
    /// Few repetitions, short windows: proves every part runs, in seconds.
    /// Its figures are not stable enough to compare with anything.
    package var quick = false
    /// Where results.json goes.
    package var output = "bench/results.json"
    /// Where deckd and deckctl are; by default the folder of deck-bench itself.
    package var products: String?
    /// Where the benchmark makes its temporary folders (the disk measured).
    package var workFolder: String?
    /// Only these parts (``Bench/sections``); all when nil.
    package var only: Set<String>?
    /// Write the large profile here and stop (to profile deckd by hand).
    package var largeProfile: String?
    /// Write the desk profile (the edit figures' own) here and stop.
    package var deskProfile: String?

    package static let usage = """
        usage: deck-bench [--quick] [--only PART,…] [--output FILE] [--products DIR] [--work DIR]
                          [--large-profile FILE | --desk-profile FILE]

        Measures deckd against the floors of this machine and prints a table.
          --quick          a few repetitions of everything, to check that it runs (figures unstable)
          --only PART,…    only these parts: \(Bench.sections.joined(separator: ", "))
          --output FILE    where to write the results as JSON (default bench/results.json)
          --products DIR   where deckd and deckctl are (default: beside deck-bench)
          --work DIR       where to make temporary folders, on the disk to measure (default $TMPDIR or /tmp)
          --large-profile FILE  only write the generated 1,000-page profile to FILE (to profile deckd by hand)
          --desk-profile FILE   only write the 4-page desk profile the edit figures use to FILE
                                (for Support/profiling/edits.py and callgrind-edits.sh)
        """

    /// What the arguments ask for: options to run with, or the help text.
    package enum Parsed: Equatable {
        case run(BenchOptions)
        case help
        /// One flooder process of the flood figure (`--flooder PORT NAME`,
        /// not in the usage: the benchmark starts it, people do not).
        case flooder(port: UInt16, name: String)
    }

    /// Parses `arguments` (without the program name).
    package static func parse(_ arguments: [String]) throws(BenchError) -> Parsed {
        var options = BenchOptions()
        var rest = arguments[...]
        func value(_ name: String) throws(BenchError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw .setup("\(name) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": return .help
            case "--flooder":
                guard let port = UInt16(try value(argument)) else { throw .setup("--flooder needs a port and a name") }
                return .flooder(port: port, name: try value(argument))
            case "--quick": options.quick = true
            case "--output": options.output = try value(argument)
            case "--products": options.products = try value(argument)
            case "--work": options.workFolder = try value(argument)
            case "--large-profile": options.largeProfile = try value(argument)
            case "--desk-profile": options.deskProfile = try value(argument)
            case "--only":
                let parts = Set(try value(argument).split(separator: ",").map(String.init))
                if let unknown = parts.first(where: { !Bench.sections.contains($0) }) {
                    throw .setup("--only: no part '\(unknown)'; the parts are \(Bench.sections.joined(separator: ", "))")
                }
                options.only = parts
            default: throw .setup("unknown argument '\(argument)'; see deck-bench --help")
            }
        }
        if options.largeProfile != nil && options.deskProfile != nil {
            throw .setup("--large-profile and --desk-profile each write one profile and stop: give one of them")
        }
        return .run(options)
    }
}
