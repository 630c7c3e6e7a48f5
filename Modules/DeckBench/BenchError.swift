import Glibc

/// Why a measurement could not be made. Never about a figure being slow:
/// the benchmark reports figures, it does not judge them by failing.
package enum BenchError: Error, Sendable, CustomStringConvertible {
    /// A system call failed: what was being done, and errno.
    case system(String, Int32)
    /// Something the benchmark needs is missing or misbehaved (python3, deckd…).
    case setup(String)

    package var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .setup(let message): message
        }
    }
}
