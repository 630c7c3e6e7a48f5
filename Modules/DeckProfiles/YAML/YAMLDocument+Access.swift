extension YAMLDocument {
    /// A scalar's text as written (after YAML's quoting and folding rules);
    /// empty for a sequence or mapping.
    package func text(_ node: YAMLNode) -> String {
        guard node.kind == .scalar else { return "" }
        return withText(node) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with a scalar's UTF-8 text without making a String, for
    /// comparisons in hot paths.
    package func withText<R>(_ node: YAMLNode, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let raw = nodes[Int(node.index)]
        guard raw.kind == RawNode.scalar else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try text.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(raw.start)..<Int(raw.start + raw.count)]))
        }
    }

    /// True when a scalar's text is exactly `word` (compared as bytes).
    package func textIs(_ node: YAMLNode, _ word: StaticString) -> Bool {
        withText(node) { bytes in
            bytes.count == word.utf8CodeUnitCount
                && (bytes.isEmpty || memcmpEqual(bytes, word.utf8Start, word.utf8CodeUnitCount))
        }
    }

    /// The explicit tag, resolved to its full form (`!!int` is
    /// `tag:yaml.org,2002:int`); nil when the node has none.
    package func tag(_ node: YAMLNode) -> String? {
        let tag = nodes[Int(node.index)].tag
        return tag == 0 ? nil : tags[Int(tag) - 1]
    }

    /// How many items a sequence has, or pairs a mapping has; 0 for a scalar.
    package func count(_ node: YAMLNode) -> Int {
        let raw = nodes[Int(node.index)]
        switch raw.kind {
        case RawNode.sequence: return Int(raw.count)
        case RawNode.mapping: return Int(raw.count) / 2
        default: return 0
        }
    }

    /// The `offset`-th item of a sequence (0 ≤ offset < ``count(_:)``).
    package func item(_ node: YAMLNode, _ offset: Int) -> YAMLNode {
        self.node(children[Int(nodes[Int(node.index)].start) + offset])
    }

    /// The `offset`-th pair of a mapping (0 ≤ offset < ``count(_:)``), merged pairs included.
    package func pair(_ node: YAMLNode, _ offset: Int) -> (key: YAMLNode, value: YAMLNode) {
        let base = Int(nodes[Int(node.index)].start) + 2 * offset
        return (self.node(children[base]), self.node(children[base + 1]))
    }

    /// A sequence's items, in order.
    package func items(_ node: YAMLNode) -> [YAMLNode] {
        guard node.kind == .sequence else { return [] }
        return (0..<count(node)).map { item(node, $0) }
    }

    /// A mapping's pairs: the explicit ones in order, then the merged ones.
    package func pairs(_ node: YAMLNode) -> [(key: YAMLNode, value: YAMLNode)] {
        guard node.kind == .mapping else { return [] }
        return (0..<count(node)).map { pair(node, $0) }
    }

    /// The value of the first pair whose key is the plain text `key`.
    package func value(_ mapping: YAMLNode, forKey key: StaticString) -> YAMLNode? {
        guard mapping.kind == .mapping else { return nil }
        for offset in 0..<count(mapping) {
            let (k, v) = pair(mapping, offset)
            if k.kind == .scalar, textIs(k, key) { return v }
        }
        return nil
    }

    /// The scalar's value under YAML 1.1 typing, as PyYAML's safe loader reads
    /// it: plain scalars resolve to null, bool, int or float when they look like
    /// one; quoted and block scalars are strings; explicit `!!str`, `!!int`,
    /// `!!float`, `!!bool` and `!!null` tags are honoured. Dates stay strings.
    package func scalar(_ node: YAMLNode) -> Result<YAMLScalar, YAMLScalarError> {
        guard node.kind == .scalar else { return .failure(.notScalar) }
        let tag = tag(node)
        return withText(node) { bytes in
            YAMLScalar.resolve(bytes, plain: node.style == .plain, tag: tag)
        }
    }

    /// True for the null that stands in for an alias that could not be
    /// resolved. Its problem is already in ``problems``; a consumer should not
    /// add "missing value" problems of its own for it.
    package func isPlaceholder(_ node: YAMLNode) -> Bool {
        !placeholders.isEmpty && placeholders.contains(node.index)
    }

    /// True for a null scalar: `~`, `null`, `Null`, `NULL`, an empty plain
    /// scalar, or `!!null`. Makes no String: it runs for every slot and field.
    /// True for a mapping whose merge key named something it could not merge
    /// (already reported): a field it lacks may be one the merge would have brought.
    package func hasFailedMerge(_ node: YAMLNode) -> Bool {
        !failedMerges.isEmpty && failedMerges.contains(node.index)
    }

    package func isNull(_ node: YAMLNode) -> Bool {
        guard node.kind == .scalar else { return false }
        switch tag(node) {
        case nil: return node.style == .plain && withText(node) { YAML11.classify($0) == .null }
        case let tag?: return tag == YAML11.tagPrefix + "null"
        }
    }
}

/// Byte equality without Foundation's `memcmp` import in every caller.
private func memcmpEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    guard let base = bytes.baseAddress else { return count == 0 }
    for offset in 0..<count where base[offset] != other[offset] { return false }
    return true
}
