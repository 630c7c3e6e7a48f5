extension ProfileReader {
    /// A `run` action's `follow` (docs/faces.md §6): nil when absent or null;
    /// an empty one is a problem, since it would start a shell that exits at
    /// once and is restarted for ever.
    mutating func readFollow(_ pair: Pair?) -> String? {
        guard case .value(let command, let node) = text(pair, "follow") else { return nil }
        guard !command.isBlankLabel else {
            report("follow must be a long-running shell command whose lines drive the button's face, not empty", at: node)
            return nil
        }
        return command
    }
}
