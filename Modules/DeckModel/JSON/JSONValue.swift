/// One value of a parsed JSON text: a view into the parse, read on demand.
///
/// Only valid inside the closure of ``parse(_:maximumDepth:noun:_:)`` or
/// ``read(_:maximumDepth:noun:_:)`` that produced it: it points into the
/// input bytes and the parse's node array. Never store one; convert what you
/// need (`stringValue`, `deckValue`, a model type) before the closure returns.
package struct JSONValue {
    let tree: JSONTree
    let index: Int

    private var node: JSONNode { tree.nodes[index] }

    /// How an error message names this kind of value ("not a string").
    package var typeName: String {
        switch node.kind {
        case .null: "null"
        case .true, .false: "a boolean"
        case .int, .double: "a number"
        case .string, .escapedString: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    package var isNull: Bool { node.kind == .null }

    /// The value as an integer: an integer literal, or a number with no
    /// fractional part that fits in `Int` (`7.0` from a client whose JSON
    /// library writes every number as a float). Not a fraction that only
    /// underflowed to 0 (`1e-999999999`): that is refused as `1e-19` is.
    package var intValue: Int? {
        switch node.kind {
        case .int: Int(truncatingIfNeeded: Int64(bitPattern: node.b))
        case .double: node.a == JSONNode.underflowed ? nil : Int(exactly: Double(bitPattern: node.b))
        default: nil
        }
    }

    /// The value as a finite floating-point number.
    package var doubleValue: Double? {
        switch node.kind {
        case .int: Double(Int64(bitPattern: node.b))
        case .double: Double(bitPattern: node.b)
        default: nil
        }
    }

    package var boolValue: Bool? {
        switch node.kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    package var stringValue: String? {
        switch node.kind {
        case .string: String(decoding: rawString, as: UTF8.self)
        case .escapedString: JSONParser.unescape(rawString)
        default: nil
        }
    }

    package var objectValue: JSONObject? {
        node.kind == .object ? JSONObject(value: self) : nil
    }

    package var arrayValue: JSONArray? {
        node.kind == .array ? JSONArray(value: self) : nil
    }

    /// True when the value is a string equal to `key`, compared as bytes
    /// when the JSON has no escapes (object keys nearly always).
    package func isString(_ key: StaticString) -> Bool {
        switch node.kind {
        case .string:
            return tree.bytes(from: node, equal: key)
        case .escapedString:
            return stringValue == key.description
        default:
            return false
        }
    }

    /// The bytes between a string's quotes, as written.
    private var rawString: UnsafeBufferPointer<UInt8> {
        let node = node
        let start = Int(node.a)
        let end = Int(truncatingIfNeeded: node.b)
        guard start <= end, end <= tree.bytes.count else { return UnsafeBufferPointer(rebasing: tree.bytes[0..<0]) }
        return UnsafeBufferPointer(rebasing: tree.bytes[start..<end])
    }

    /// The index of the node after this value and everything inside it.
    var end: Int {
        switch node.kind {
        case .array, .object: Int(truncatingIfNeeded: node.b)
        default: index + 1
        }
    }

    /// The container's element or member count.
    var count: Int { Int(node.a) }
}

/// A JSON object's members in the order they were written.
///
/// When a key is written twice the last one wins, as in JavaScript's and
/// Python's JSON parsers (the clients most likely to meet this host).
package struct JSONObject: Sequence {
    let value: JSONValue

    package var count: Int { value.count }

    /// The value of `key`'s last occurrence, or nil when the key is absent.
    package subscript(key: StaticString) -> JSONValue? {
        // The hottest loop of reading a layout (several lookups per button):
        // it works on the nodes directly rather than through `JSONValue`.
        let tree = value.tree
        var position = value.index + 1
        var found: Int?
        for _ in 0..<value.count {
            let name = tree.nodes[position]
            if name.kind == .string ? tree.bytes(from: name, equal: key)
                                    : JSONValue(tree: tree, index: position).isString(key) {
                found = position + 1
            }
            let member = tree.nodes[position + 1]
            position = member.kind == .array || member.kind == .object ? Int(truncatingIfNeeded: member.b) : position + 2
        }
        return found.map { JSONValue(tree: tree, index: $0) }
    }

    package struct Iterator: IteratorProtocol {
        let tree: JSONTree
        var position: Int
        var remaining: Int

        package mutating func next() -> (key: JSONValue, value: JSONValue)? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let key = JSONValue(tree: tree, index: position)
            let value = JSONValue(tree: tree, index: position + 1)
            position = value.end
            return (key, value)
        }
    }

    package func makeIterator() -> Iterator {
        Iterator(tree: value.tree, position: value.index + 1, remaining: value.count)
    }
}

/// A JSON array's elements.
package struct JSONArray: Sequence {
    let value: JSONValue

    package var count: Int { value.count }

    package struct Iterator: IteratorProtocol {
        let tree: JSONTree
        var position: Int
        var remaining: Int

        package mutating func next() -> JSONValue? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let element = JSONValue(tree: tree, index: position)
            position = element.end
            return element
        }
    }

    package func makeIterator() -> Iterator {
        Iterator(tree: value.tree, position: value.index + 1, remaining: value.count)
    }
}

/// The input bytes and the nodes a parse made of them.
struct JSONTree {
    let nodes: UnsafeBufferPointer<JSONNode>
    let bytes: UnsafeBufferPointer<UInt8>

    /// True when the bytes of `string` (a `.string` node) are `key`'s.
    @inline(__always)
    func bytes(from string: JSONNode, equal key: StaticString) -> Bool {
        let start = Int(string.a)
        let count = key.utf8CodeUnitCount
        guard Int(truncatingIfNeeded: string.b) - start == count, start + count <= bytes.count else { return false }
        // A one-scalar StaticString has no pointer; keys this short are not worth a fast path.
        guard key.hasPointerRepresentation else {
            return key.withUTF8Buffer { $0.elementsEqual(bytes[start..<start + count]) }
        }
        let expected = key.utf8Start
        for offset in 0..<count where bytes[start + offset] != expected[offset] { return false }
        return true
    }
}

/// What ``JSONValue/parse(_:maximumDepth:noun:_:)`` hands its closure.
package enum JSONParseResult {
    case value(JSONValue)
    /// The input is not JSON. `partial` is the top-level object's members
    /// that were complete before the error (nil when the input does not
    /// start with `{`), so that a reply can still echo a request's `id`.
    case failure(JSONError, partial: JSONObject?)
}

extension JSONValue {
    /// Parses `bytes` and hands the result to `body`; the values it holds are
    /// valid only inside `body`.
    package static func parse<Result, Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, noun: String,
        _ body: (JSONParseResult) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var parser = JSONParser(bytes, maximumDepth: maximumDepth, noun: noun)
        let syntax: JSONError?
        do throws(JSONError) {
            try parser.parse()
            syntax = nil
        } catch {
            syntax = error
        }
        let outcome = parser.nodes.withUnsafeBufferPointer { nodes in
            Swift.Result { () throws(Failure) -> Result in
                let tree = JSONTree(nodes: nodes, bytes: bytes)
                guard let syntax else { return try body(.value(JSONValue(tree: tree, index: 0))) }
                let partial = nodes.first?.kind == .object ? JSONObject(value: JSONValue(tree: tree, index: 0)) : nil
                return try body(.failure(syntax, partial: partial))
            }
        }
        return try outcome.get()
    }

    /// Parses `bytes` and hands the top-level value to `body`; a syntax error
    /// is thrown as a ``JSONError`` of problem `.syntax`.
    package static func read<Bytes: Collection<UInt8>, Result>(
        _ bytes: Bytes, maximumDepth: Int, noun: String,
        _ body: (JSONValue) throws(JSONError) -> Result
    ) throws(JSONError) -> Result {
        func run(_ buffer: UnsafeBufferPointer<UInt8>) -> Swift.Result<Result, JSONError> {
            Swift.Result { () throws(JSONError) -> Result in
                try parse(buffer, maximumDepth: maximumDepth, noun: noun) { parsed throws(JSONError) in
                    switch parsed {
                    case .value(let root): return try body(root)
                    case .failure(let error, _): throw error
                    }
                }
            }
        }
        let outcome = bytes.withContiguousStorageIfAvailable(run) ?? Array(bytes).withUnsafeBufferPointer(run)
        return try outcome.get()
    }
}
