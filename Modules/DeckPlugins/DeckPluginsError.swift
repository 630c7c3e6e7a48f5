import DeckProfiles

/// Everything that can go wrong in `DeckPlugins`, each as a sentence a
/// person can act on.
public enum DeckPluginsError: Error, Sendable, CustomStringConvertible {
    /// A `plugin.yaml` with problems, each `FILE:LINE:COLUMN: message`.
    case invalidManifest([FileProblem])
    /// A plugin's program could not be started.
    case spawnFailed(program: String, reason: String)

    /// The problems one per line, or the failure as a sentence.
    public var description: String {
        switch self {
        case .invalidManifest(let problems):
            problems.map(\.description).joined(separator: "\n")
        case let .spawnFailed(program, reason):
            "could not start \(program): \(reason)"
        }
    }
}
