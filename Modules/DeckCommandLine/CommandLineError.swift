/// A usage mistake: what is wrong, as one plain sentence that names what to
/// fix, and where to read more. Tools print it after their name and exit 2.
///
/// ```
/// deckctl: unknown option '--jsno'; did you mean '--json'?
/// deckctl: set needs PAGE and INDEX; run 'deckctl set --help' for usage
/// ```
public struct CommandLineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong: `unknown option '--jsno'`.
    public var problem: String
    /// The word the user probably meant (`--json`); then the sentence offers
    /// it instead of pointing at help.
    public var suggestion: String?
    /// The command the mistake was made in, from the tool's name on
    /// (`["deckctl", "set"]`), for the help pointer.
    public var command: [String]

    /// Makes an error.
    public init(_ problem: String, suggestion: String? = nil, command: [String]) {
        self.problem = problem
        self.suggestion = suggestion
        self.command = command
    }

    /// The sentence, without the tool's name in front.
    public var description: String {
        if let suggestion { return "\(problem); did you mean '\(suggestion)'?" }
        return "\(problem); run '\(command.joined(separator: " ")) --help' for usage"
    }
}

/// "Did you mean …?": the declared word closest to a mistyped one.
enum Suggestion {
    /// The candidate the user most likely meant: the only one that starts
    /// with `word` (an abbreviation such as `--jso`), else the nearest by
    /// edit distance when it is near enough to be a typo (one edit for words
    /// up to four letters, two up to eight, three beyond; a swap of
    /// neighbouring letters is one edit). Nil when nothing is close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty else { return nil }
        let abbreviated = candidates.filter { $0.hasPrefix(word) }
        if abbreviated.count == 1 { return abbreviated[0] }
        let typed = Array(word.lowercased().unicodeScalars)
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = Self.distance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let longest = max(typed.count, best.word.unicodeScalars.count)
        let allowed = longest <= 4 ? 1 : longest <= 8 ? 2 : 3
        return best.distance <= allowed ? best.word : nil
    }

    /// Damerau–Levenshtein distance (restricted: each substring edited once),
    /// over one full table: words on a command line are short.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        let width = b.count + 1
        var table = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in 0...a.count { table[i * width] = i }
        for j in 0...b.count { table[j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = table[(i - 1) * width + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var cost = min(table[(i - 1) * width + j] + 1, table[i * width + j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cost = min(cost, table[(i - 2) * width + j - 2] + 1)
                }
                table[i * width + j] = cost
            }
        }
        return table[a.count * width + b.count]
    }
}
