/// Reads what a `--lock-probe` command printed.
extension LockState.ProbeReading {
    /// The reading for a probe's output, or nil when the output means neither.
    ///
    /// Locked: `true`, `1`, `locked`, `yes` (what `loginctl show-session -p
    /// LockedHint --value` prints). Unlocked: `false`, `0`, `unlocked`, `no`.
    /// Case and surrounding white space do not matter; only the first non-empty line counts.
    public init?(probeOutput: String) {
        let first = probeOutput.split(whereSeparator: \.isNewline).first ?? ""
        // Trimmed with the standard library: Foundation's trimmingCharacters would link all of Foundation into deckd.
        let word = first.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        switch String(word).lowercased() {
        case "true", "1", "locked", "yes": self = .locked
        case "false", "0", "unlocked", "no": self = .unlocked
        default: return nil
        }
    }
}
