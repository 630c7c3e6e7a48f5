/// A 1-based position in a YAML file: line, and column in characters.
package struct YAMLMark: Hashable, Sendable, Comparable {
    /// 1-based line.
    package var line: Int
    /// 1-based column, counting Unicode characters as libyaml does.
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One node of a parsed YAML document: a plain value type (no reference
/// counting), so walking a large document costs no allocations.
///
/// An alias node reads as the node it names, except for ``mark``, which stays
/// where the alias was written: a type error about `name: *list` points at
/// the `*list` the person typed, while problems inside the anchored node point
/// at where its parts are written.
package struct YAMLNode: Hashable, Sendable {
    /// What the node holds.
    package enum Kind: UInt8, Sendable {
        case scalar, sequence, mapping
    }

    /// How the node was written.
    package enum Style: UInt8, Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded
        /// A block sequence or mapping (indentation).
        case block
        /// A flow sequence or mapping (`[…]`, `{…}`).
        case flow
    }

    /// Index of the node's content in the document (the target, for an alias).
    let index: Int32
    /// Where the node (or the alias standing for it) starts.
    package let mark: YAMLMark
    /// Scalar, sequence or mapping.
    package let kind: Kind
    /// Plain, quoted, block scalar, block or flow collection.
    package let style: Style
    /// True when this node was written as an alias (`*name`).
    package let isAlias: Bool

    /// A word for messages: "a string", "a list", "a mapping".
    package var kindDescription: String {
        switch kind {
        case .scalar: "a string"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// A parsed YAML document with every node's position, built by
/// ``YAMLDocument/parse(_:file:limits:)`` straight from libyaml's events into
/// flat arrays (one entry per node, children as index ranges, scalar text in
/// one byte buffer), which is what keeps loading a large profile close to the
/// cost of libyaml's own scan.
///
/// Aliases are resolved (an alias reads as its anchored node) and merge keys
/// (`<<: *x`, `<<: [*a, *b]`) are applied: a mapping's pairs are its explicit
/// pairs, then the merged pairs that no explicit key (or earlier merge source)
/// overrides.
package struct YAMLDocument: Sendable {
    /// The file name used in problems.
    package let file: String
    /// The top node; nil when the stream holds no document, or when a problem
    /// (a syntax error, an alias bomb) stopped parsing — then ``problems`` says why.
    package internal(set) var root: YAMLNode?
    /// Problems found while reading the YAML itself (syntax, encoding, aliases,
    /// merge keys, a second document), in the order found.
    package internal(set) var problems: [FileProblem] = []
    /// True when the parse gave up (``YAMLLimits/giveUp``): the document is
    /// incomplete and must not be read.
    package internal(set) var abandoned = false

    /// Null scalars standing in for broken aliases (already reported).
    var placeholders: Set<Int32> = []
    /// Mappings a merge key could not fill (its source was reported): what they lack is not reported again.
    var failedMerges: Set<Int32> = []
    var nodes: [RawNode] = []
    var children: [Int32] = []
    var text: [UInt8] = []
    var tags: [String] = []

    init(file: String) { self.file = file }

    /// A problem at a node's position.
    package func problem(_ message: String, at node: YAMLNode) -> FileProblem {
        problem(message, at: node.mark)
    }

    /// A problem at a position in this file.
    package func problem(_ message: String, at mark: YAMLMark) -> FileProblem {
        FileProblem(file: file, line: mark.line, column: mark.column, message: message)
    }

    /// The problem of a document that holds nothing (no root, or a null one:
    /// `---` alone, `~`), at 1:1: it is the whole file's, and the null's own
    /// mark may lie past the file's end (a fuzz finding). nil for the null
    /// that stands in for an alias already reported.
    package func emptyDocumentProblem(_ message: String) -> FileProblem? {
        if let root, isPlaceholder(root) { return nil }
        return problem(message, at: YAMLMark(line: 1, column: 1))
    }

    /// The node stored at `index`; for an alias, its target with the alias's position.
    func node(_ index: Int32) -> YAMLNode {
        let raw = nodes[Int(index)]
        let mark = YAMLMark(line: Int(raw.line), column: Int(raw.column))
        guard raw.kind == RawNode.alias else {
            return YAMLNode(index: index, mark: mark, kind: raw.nodeKind, style: raw.nodeStyle, isAlias: false)
        }
        let target = nodes[Int(raw.start)]
        return YAMLNode(index: Int32(raw.start), mark: mark, kind: target.nodeKind, style: target.nodeStyle, isAlias: true)
    }
}

/// One stored node: 24 bytes, no references.
struct RawNode: Sendable {
    static let scalar: UInt8 = 0
    static let sequence: UInt8 = 1
    static let mapping: UInt8 = 2
    static let alias: UInt8 = 3

    var kind: UInt8
    var style: UInt8
    /// 0 for no explicit tag, else 1 + index into the document's tags.
    var tag: UInt16
    var line: UInt32
    var column: UInt32
    /// Scalar: offset of its text. Collection: offset of its children. Alias: the target node.
    var start: UInt32
    /// Scalar: text length in bytes. Sequence: items. Mapping: 2 × pairs (key, value, key, value…).
    var count: UInt32

    var nodeKind: YAMLNode.Kind {
        switch kind {
        case RawNode.sequence: .sequence
        case RawNode.mapping: .mapping
        default: .scalar
        }
    }

    var nodeStyle: YAMLNode.Style { YAMLNode.Style(rawValue: style) ?? .plain }
}
