/// A turn's log lines on the loop, written once its output is
/// (`EventLoop.afterFlush`): what the after-flush work holds instead of the
/// core. Loop-confined.
final class PendingLog {
    private let logger: Logger
    private var lines: [(level: LogLevel, message: String)] = []

    init(logger: Logger) {
        self.logger = logger
    }

    /// Keeps a line; true when it is the turn's first (the caller asks for the write).
    func add(_ level: LogLevel, _ message: String) -> Bool {
        lines.append((level, message))
        return lines.count == 1
    }

    /// Writes the kept lines in order (together, in as few `write`s as their size allows).
    func write() {
        let taken = lines
        lines = []
        logger.log(taken)
    }
}
