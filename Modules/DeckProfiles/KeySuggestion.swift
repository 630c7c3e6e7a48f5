/// "Did you mean …?" for a mistyped key.
package enum KeySuggestion {
    /// The candidate closest to `key`, when it is close enough to be a typo:
    /// the same word in other letter case, or within an edit distance of 1
    /// (keys up to 4 letters) or 2 (longer), a swap of neighbours counting as one.
    package static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = Array(key.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(lowered.count, best.candidate.count) <= 4 ? 1 : 2
        return best.distance <= allowed ? best.candidate : nil
    }

    /// Optimal string alignment distance: insertions, deletions,
    /// substitutions and transpositions of adjacent characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
