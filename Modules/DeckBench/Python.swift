import Foundation

/// The references measured by python3 in the same run: SQLite and PyYAML.
/// Each script writes its raw samples as JSON to a file the benchmark reads.
enum Python {
    /// SQLite in WAL mode with synchronous=FULL, one small row per
    /// transaction, as fast as one connection can for `seconds`.
    /// argv: database, seconds, warm-up commits, output file.
    static let sqlite = #"""
    import json, sqlite3, sys, time
    path, seconds, warm, out = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    db = sqlite3.connect(path, isolation_level=None)
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    db.execute("PRAGMA synchronous=FULL")
    sync = db.execute("PRAGMA synchronous").fetchone()[0]
    db.execute("CREATE TABLE edits (id INTEGER PRIMARY KEY, page INTEGER, slot INTEGER, name TEXT)")
    def commit(i):
        db.execute("BEGIN")
        db.execute("INSERT INTO edits (page, slot, name) VALUES (?, ?, ?)", (i % 4, i % 12, "Files %d" % i))
        db.execute("COMMIT")
    for i in range(warm):
        commit(i)
    latencies = []
    start = time.perf_counter()
    end = start + seconds
    now = start
    i = 0
    while now < end:
        t = time.perf_counter()
        commit(i)
        now = time.perf_counter()
        latencies.append((now - t) * 1e6)
        i += 1
    json.dump({"journal_mode": mode, "synchronous": sync, "seconds": now - start, "latencies_us": latencies}, open(out, "w"))
    """#

    /// PyYAML's CSafeLoader (libyaml underneath) on a file's bytes, `count`
    /// timed loads after one untimed. argv: file, count, output file.
    static let cSafeLoader = #"""
    import json, sys, time, yaml
    path, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if not getattr(yaml, "__with_libyaml__", False):
        sys.exit("PyYAML was built without libyaml, so it has no CSafeLoader")
    data = open(path, "rb").read()
    yaml.load(data, Loader=yaml.CSafeLoader)
    times = []
    for _ in range(count):
        t = time.perf_counter()
        yaml.load(data, Loader=yaml.CSafeLoader)
        times.append((time.perf_counter() - t) * 1e6)
    json.dump({"version": yaml.__version__, "times_us": times}, open(out, "w"))
    """#

    /// Runs `script` with `arguments`; returns the JSON object it wrote to its
    /// output file (the last argument).
    static func run(_ script: String, _ arguments: [String], in folder: String) throws -> [String: Any] {
        guard let python = Child.find("python3") else { throw BenchError.setup("python3 is not installed") }
        let scriptPath = folder + "/script-\(UInt32.random(in: 0...UInt32.max)).py"
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        let result = try Child.run(python, [scriptPath] + arguments)
        guard result.status == 0, let output = arguments.last,
              let data = FileManager.default.contents(atPath: output),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError.setup("python3 failed (exit \(result.status)): \(result.output.suffix(600))")
        }
        return object
    }
}
