import DeckModel

extension ProfileReader {
    /// Visits each pair of `mapping` whose key is a case of `K`, and reports
    /// every other key: unknown ones (with the expected keys and the closest
    /// one for a typo), keys that are not plain names, and keys given twice.
    /// Keys for which `skip` is true are ignored silently.
    ///
    /// Returns the keys that typos stand for, so the caller can leave out a
    /// "needs a name" that the unknown 'nmae' already explains.
    mutating func fields<K: ProfileKeys>(
        of mapping: YAMLNode, in context: String, as type: K.Type, expected: String? = nil,
        skip: (String) -> Bool = { _ in false }, visit: (K, Pair) -> Void
    ) -> [K] {
        let unknown = collect(mapping, in: context, as: type, visit: visit)
        return reportUnknown(unknown, in: context, candidates: Array(K.allCases), expected: expected, skip: skip)
    }

    /// The walk of ``fields(of:in:as:expected:skip:visit:)`` without the
    /// unknown keys' report: their pairs are returned for the caller, which
    /// may only know after the walk what a key should have been (an action's
    /// kind decides which fields belong).
    mutating func collect<K: ProfileKeys>(
        _ mapping: YAMLNode, in context: String, as _: K.Type, visit: (K, Pair) -> Void
    ) -> [Pair] {
        var unknown: [Pair] = []
        var seen: UInt64 = 0
        // Where each repeated key was first given, found once per key: a key
        // given 100,000 times must not search the mapping 100,000 times.
        var firstLines: [Int: Int] = [:]
        for offset in 0..<document.count(mapping) {
            let pair = document.pair(mapping, offset)
            guard pair.key.kind == .scalar else {
                report("keys in a \(context) must be plain names, not \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            guard let (key, index) = document.withText(pair.key, { K.table.match($0) }) else {
                unknown.append(pair)
                continue
            }
            let bit: UInt64 = 1 << UInt64(index & 63)
            if seen & bit != 0 {
                let line = firstLines[index] ?? earlierKey(named: pair.key, in: mapping, before: offset)?.mark.line ?? pair.key.mark.line
                firstLines[index] = line
                report("key '\(key.rawValue)' is given twice (first at line \(line))", at: pair.key)
                continue
            }
            seen |= bit
            visit(key, pair)
        }
        return unknown
    }

    /// Reports keys that do not belong: `unknown key 'nmae' in button
    /// (expected name, icon, action)`, worded exactly as PROFILE.md §4 shows
    /// it (no "did you mean": the expected keys are listed right there).
    /// Returns the keys that typos stand for.
    mutating func reportUnknown<K: ProfileKeys>(
        _ pairs: [Pair], in context: String, candidates: [K], expected: String? = nil,
        skip: (String) -> Bool = { _ in false }
    ) -> [K] {
        var suggested: [K] = []
        var skipped: [String: Int] = [:]
        for pair in pairs {
            let name = document.text(pair.key)
            if skip(name) {
                // Ignored, but still a key: YAML wants it once per mapping, as any other.
                if let line = skipped[name] {
                    report("key '\(name)' is given twice (first at line \(line))", at: pair.key)
                } else {
                    skipped[name] = pair.key.mark.line
                }
                continue
            }
            let names = candidates.map(\.rawValue)
            if let closest = KeySuggestion.closest(to: name, among: names), let key = K(rawValue: closest) {
                suggested.append(key)
            }
            report("unknown key '\(name)' in \(context) (expected \(expected ?? names.joined(separator: ", ")))", at: pair.key)
        }
        return suggested
    }

    /// An earlier key of `mapping` with the same text as `key`. Mappings here
    /// hold a handful of keys, so a scan is cheaper than any set.
    private func earlierKey(named key: YAMLNode, in mapping: YAMLNode, before end: Int) -> YAMLNode? {
        document.withText(key) { wanted in
            for offset in 0..<end {
                let other = document.pair(mapping, offset).key
                guard other.kind == .scalar else { continue }
                if document.withText(other, { $0.elementsEqual(wanted) }) { return other }
            }
            return nil
        }
    }

    /// What a string field holds.
    enum FieldText {
        /// No such key.
        case absent
        /// The key is there with a null value (`~`, `null`, nothing).
        case null(key: YAMLNode)
        /// Not a scalar; already reported.
        case invalid
        /// The scalar's text, exactly as written (`yes` is "yes", `2024` is "2024").
        case value(String, node: YAMLNode)
    }

    /// Reads a string field. Any non-null scalar counts, whatever YAML 1.1
    /// would type it as: a name is text, and `name: yes` means the word yes.
    mutating func text(_ pair: Pair?, _ field: String) -> FieldText {
        guard let pair else { return .absent }
        let value = pair.value
        guard value.kind == .scalar else {
            report("\(field) must be a string, not \(value.kindDescription)", at: value)
            return .invalid
        }
        if document.isPlaceholder(value) { return .invalid }
        if document.isNull(value) { return .null(key: pair.key) }
        return .value(document.text(value), node: value)
    }

    /// Reads a required, non-empty string field, reporting `missing` when the
    /// key is absent (at `owner`, unless a typo already suggested the key) or
    /// null (at the key).
    mutating func requiredText(_ pair: Pair?, _ field: String, missing: String, owner: YAMLNode, typo: Bool) -> String? {
        switch text(pair, field) {
        case .absent:
            if !typo, !document.hasFailedMerge(owner) { report(missing, at: owner) }
            return nil
        case .null(let key):
            report(missing, at: key)
            return nil
        case .invalid:
            return nil
        case .value(let text, let node):
            guard !text.isBlankLabel else {
                report("\(field) must not be empty", at: node)
                return nil
            }
            return text
        }
    }

    /// Reads an optional string field; nil when absent, null or invalid.
    mutating func optionalText(_ pair: Pair?, _ field: String) -> String? {
        if case .value(let text, _) = text(pair, field) { return text }
        return nil
    }
}
