extension YAMLBuilder {
    /// Replaces the open mapping's pairs (on the scratch stack from `start`)
    /// with its explicit pairs followed by the merged pairs no explicit key,
    /// and no earlier merge source, already gives. libyaml leaves merge keys
    /// to the loader, so this is YAML 1.1's merge key type done by hand.
    /// False when a merge source could not be used (already reported): the
    /// mapping then lacks what it would have brought, which is no mistake of its own.
    mutating func applyMerges(from start: Int) -> Bool {
        var pairs: [(key: Int32, value: Int32)] = []
        var sources: [Int32] = []
        var sawMerge = false
        var complete = true
        for offset in stride(from: start, to: scratch.count - 1, by: 2) {
            let key = scratch[offset], value = scratch[offset + 1]
            guard isMergeKey(key) else {
                pairs.append((key, value))
                continue
            }
            if sawMerge {
                report("the merge key << is given twice in one mapping; merge several with <<: [*a, *b]", document.node(key))
                continue
            }
            sawMerge = true
            let (found, usable) = mergeSources(document.node(value))
            sources += found
            complete = complete && usable
        }
        var keys = MergedKeys(document: document, explicit: pairs.map(\.key))
        for source in sources {
            let raw = document.nodes[Int(source)]
            for pair in 0..<Int(raw.count / 2) {
                let key = document.children[Int(raw.start) + 2 * pair]
                if keys.insert(key, document: document) {
                    pairs.append((key, document.children[Int(raw.start) + 2 * pair + 1]))
                }
            }
        }
        scratch.removeSubrange(start...)
        for pair in pairs {
            scratch.append(pair.key)
            scratch.append(pair.value)
        }
        return complete
    }

    /// The mappings a merge key's value names: one mapping, or a list of them
    /// (earlier ones win). Anything else is reported; `usable` is false then,
    /// and for an alias that named nothing (reported where it is written).
    mutating func mergeSources(_ target: YAMLNode) -> (sources: [Int32], usable: Bool) {
        if document.isPlaceholder(target) { return ([], false) }
        switch target.kind {
        case .mapping:
            return ([target.index], true)
        case .sequence:
            var sources: [Int32] = []
            var usable = true
            for item in 0..<document.count(target) {
                let source = document.item(target, item)
                if source.kind == .mapping {
                    sources.append(source.index)
                } else {
                    usable = false
                    if !document.isPlaceholder(source) {
                        report("the merge key << takes mappings to merge, not \(source.kindDescription)", source)
                    }
                }
            }
            return (sources, usable)
        case .scalar:
            report("the merge key << takes a mapping or a list of mappings to merge, not \(target.kindDescription)", target)
            return ([], false)
        }
    }

    mutating func report(_ message: String, _ node: YAMLNode) {
        document.problems.append(document.problem(message, at: node))
    }
}
