/// Reads the fields of one JSON object, turning absence and wrong types into
/// ``FieldError``s that name the field. Extra fields are never looked at,
/// which is how unknown fields are ignored.
struct FieldReader {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    /// Reads `value` as an object, or fails with "must be `expected`".
    init(_ value: JSONValue, expected: String) throws(FieldError) {
        guard case .object(let object) = value else {
            throw .wrongType(expected: expected, got: value.typeName)
        }
        self.object = object
    }

    /// The field's value; nil when it is absent or `null` (an explicit
    /// `null` for an optional field means "not given").
    func optional(_ key: String) -> JSONValue? {
        switch object[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    /// A required field converted by `body`; errors get `key` in their path.
    func decode<T>(_ key: String, expected: String,
                   _ body: (JSONValue) throws(FieldError) -> T) throws(FieldError) -> T {
        guard let value = optional(key) else { throw .missing(key, expected: expected) }
        do { return try body(value) } catch { throw error.inside(key) }
    }

    /// An optional field converted by `body`; nil when absent or `null`.
    func decodeIfPresent<T>(_ key: String, _ body: (JSONValue) throws(FieldError) -> T) throws(FieldError) -> T? {
        guard let value = optional(key) else { return nil }
        do { return try body(value) } catch { throw error.inside(key) }
    }

    // MARK: Scalars

    func int(_ key: String) throws(FieldError) -> Int {
        try decode(key, expected: Self.integer) { value throws(FieldError) in try Self.int(value) }
    }

    func intIfPresent(_ key: String) throws(FieldError) -> Int? {
        try decodeIfPresent(key) { value throws(FieldError) in try Self.int(value) }
    }

    func string(_ key: String) throws(FieldError) -> String {
        try decode(key, expected: Self.text) { value throws(FieldError) in try Self.string(value) }
    }

    func stringIfPresent(_ key: String) throws(FieldError) -> String? {
        try decodeIfPresent(key) { value throws(FieldError) in try Self.string(value) }
    }

    /// A string that may not be empty (names of profiles and devices).
    func name(_ key: String) throws(FieldError) -> String {
        let text = try string(key)
        if text.isEmpty { throw FieldError.invalid("'\(key)' must not be empty") }
        return text
    }

    func bool(_ key: String) throws(FieldError) -> Bool {
        try decode(key, expected: "true or false") { value throws(FieldError) in
            guard let flag = value.boolValue else { throw .wrongType(expected: "true or false", got: value.typeName) }
            return flag
        }
    }

    /// A required array whose elements are converted by `body`; element
    /// errors get `key[index]` in their path.
    func array<T>(_ key: String, of expected: String,
                  _ body: (JSONValue) throws(FieldError) -> T) throws(FieldError) -> [T] {
        try decode(key, expected: "an array of \(expected)") { value throws(FieldError) in try Self.array(value, body) }
    }

    /// An optional array; absent or `null` reads as empty.
    func arrayIfPresent<T>(_ key: String, _ body: (JSONValue) throws(FieldError) -> T) throws(FieldError) -> [T] {
        try decodeIfPresent(key) { value throws(FieldError) in try Self.array(value, body) } ?? []
    }

    // MARK: Conversions of one value

    static let integer = "an integer"
    static let text = "a string"

    static func int(_ value: JSONValue) throws(FieldError) -> Int {
        guard let number = value.intValue else { throw .wrongType(expected: integer, got: value.typeName) }
        return number
    }

    static func string(_ value: JSONValue) throws(FieldError) -> String {
        guard let text = value.stringValue else { throw .wrongType(expected: text, got: value.typeName) }
        return text
    }

    static func array<T>(_ value: JSONValue, _ body: (JSONValue) throws(FieldError) -> T) throws(FieldError) -> [T] {
        guard case .array(let elements) = value else { throw .wrongType(expected: "an array", got: value.typeName) }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do { result.append(try body(element)) } catch { throw error.inside("[\(index)]") }
        }
        return result
    }

    /// A string from a fixed set (an enum's raw values).
    static func oneOf<T: RawRepresentable & CaseIterable>(_ value: JSONValue, _: T.Type) throws(FieldError) -> T
    where T.RawValue == String {
        let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = value.stringValue else { throw .wrongType(expected: "one of \(choices)", got: value.typeName) }
        guard let choice = T(rawValue: text) else { throw .wrongType(expected: "one of \(choices)", got: "'\(text)'") }
        return choice
    }
}
