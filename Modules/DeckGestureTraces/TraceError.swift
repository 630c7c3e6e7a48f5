/// A trace file that cannot be used, as a sentence that names the file and
/// the place in it.
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, when the trace came from one.
    public var file: String?
    /// What is wrong, and where inside the trace (`events[3].down`).
    public var message: String

    /// An error about `file`.
    public init(file: String? = nil, _ message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: message`.
    public var description: String {
        guard let file else { return message }
        return "\(file): \(message)"
    }

    /// The same error attributed to `file`.
    func `in`(_ file: String) -> TraceError {
        TraceError(file: file, message)
    }
}
