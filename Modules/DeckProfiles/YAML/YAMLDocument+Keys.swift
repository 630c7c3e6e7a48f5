extension YAMLDocument {
    /// True when two nodes are the same mapping key: scalars with the same
    /// YAML 1.1 value (`1` and `01` are the same key, `1` and `"1"` are not).
    /// Collection keys are never the same.
    func sameKey(_ first: YAMLNode, _ second: YAMLNode) -> Bool {
        guard first.kind == .scalar, second.kind == .scalar else { return false }
        let firstIsText = isText(first), secondIsText = isText(second)
        guard firstIsText == secondIsText else { return false }
        if firstIsText { return sameText(first, second) }
        return scalar(first) == scalar(second)
    }

    /// True when a scalar reads as a string (quoted, `!!str`, or plain text
    /// that YAML 1.1 does not type), decided without making the String.
    func isText(_ node: YAMLNode) -> Bool {
        switch tag(node) {
        case nil:
            guard node.style == .plain else { return true }
            return withText(node) { bytes in
                switch YAML11.classify(bytes) {
                case .null, .bool, .int, .float: false
                case .timestamp, .merge, .value, .string: true
                }
            }
        case "!", YAML11.tagPrefix + "str": return true
        default: return false
        }
    }

    /// True when two scalars have the same text, compared as bytes.
    func sameText(_ first: YAMLNode, _ second: YAMLNode) -> Bool {
        let a = nodes[Int(first.index)], b = nodes[Int(second.index)]
        guard a.count == b.count else { return false }
        return text.withUnsafeBufferPointer { all in
            all[Int(a.start)..<Int(a.start + a.count)].elementsEqual(all[Int(b.start)..<Int(b.start + b.count)])
        }
    }
}

/// The keys a mapping already has while merge sources are added: a scan for
/// the usual handful, a hash set once a mapping is large, so a hostile file
/// merging big mappings cannot make this quadratic.
struct MergedKeys {
    private var keys: [Int32]
    private var identities: Set<String>?

    init(document: YAMLDocument, explicit: [Int32]) {
        keys = explicit
        if explicit.count > 16 { identities = Set(explicit.compactMap { Self.identity($0, document) }) }
    }

    /// Adds `key` unless the mapping has it already; true when added.
    mutating func insert(_ key: Int32, document: YAMLDocument) -> Bool {
        let node = document.node(key)
        if identities == nil && keys.count > 16 {
            identities = Set(keys.compactMap { Self.identity($0, document) })
        }
        if identities != nil {
            guard let identity = Self.identity(key, document) else { return true }
            return identities?.insert(identity).inserted ?? true
        }
        if keys.contains(where: { document.sameKey(document.node($0), node) }) { return false }
        keys.append(key)
        return true
    }

    /// A string equal for exactly the keys ``YAMLDocument/sameKey(_:_:)`` calls the same.
    private static func identity(_ index: Int32, _ document: YAMLDocument) -> String? {
        let node = document.node(index)
        guard node.kind == .scalar else { return nil }
        if document.isText(node) { return "s" + document.text(node) }
        switch document.scalar(node) {
        case .success(let value): return "v\(value)"
        case .failure: return "t" + document.text(node)
        }
    }
}
