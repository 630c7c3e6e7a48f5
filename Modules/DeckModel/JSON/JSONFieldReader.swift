/// Reads the fields of one JSON object, turning absence and wrong types into
/// ``JSONError``s that name the field. Extra fields are never looked at,
/// which is how unknown fields are ignored. Keys are static strings: they
/// are compared with the JSON's bytes, never made into Strings.
package struct JSONFieldReader {
    package let object: JSONObject

    package init(_ object: JSONObject) { self.object = object }

    /// Reads `value` as an object, or fails with "must be `expected`".
    package init(_ value: JSONValue, expected: String) throws(JSONError) {
        guard let object = value.objectValue else {
            throw .wrongType(expected: expected, got: value.typeName)
        }
        self.object = object
    }

    /// The field's value; nil when it is absent or `null` (an explicit
    /// `null` for an optional field means "not given").
    package func optional(_ key: StaticString) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// A required field converted by `body`; errors get `key` in their path.
    package func decode<T>(_ key: StaticString, expected: String,
                           _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> T {
        guard let value = optional(key) else { throw .missing(key.description, expected: expected) }
        do { return try body(value) } catch { throw error.inside(key.description) }
    }

    /// An optional field converted by `body`; nil when absent or `null`.
    package func decodeIfPresent<T>(_ key: StaticString, _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> T? {
        guard let value = optional(key) else { return nil }
        do { return try body(value) } catch { throw error.inside(key.description) }
    }

    // MARK: Scalars

    package func int(_ key: StaticString) throws(JSONError) -> Int {
        try decode(key, expected: Self.integer) { value throws(JSONError) in try Self.int(value) }
    }

    package func intIfPresent(_ key: StaticString) throws(JSONError) -> Int? {
        try decodeIfPresent(key) { value throws(JSONError) in try Self.int(value) }
    }

    package func string(_ key: StaticString) throws(JSONError) -> String {
        try decode(key, expected: Self.text) { value throws(JSONError) in try Self.string(value) }
    }

    package func stringIfPresent(_ key: StaticString) throws(JSONError) -> String? {
        try decodeIfPresent(key) { value throws(JSONError) in try Self.string(value) }
    }

    /// A string that may not be empty (names of profiles and devices).
    package func name(_ key: StaticString, maximumLength: Int = .max) throws(JSONError) -> String {
        let text = try string(key, maximumLength: maximumLength)
        if text.isEmpty { throw JSONError.invalid("'\(key)' must not be empty") }
        return text
    }

    /// A string of at most `maximumLength` Unicode scalars.
    package func string(_ key: StaticString, maximumLength: Int) throws(JSONError) -> String {
        let text = try string(key)
        let length = text.unicodeScalars.count
        if length > maximumLength {
            throw JSONError.invalid("'\(key)' is \(length) characters long; at most \(maximumLength) are allowed")
        }
        return text
    }

    package func bool(_ key: StaticString) throws(JSONError) -> Bool {
        try decode(key, expected: "true or false") { value throws(JSONError) in
            guard let flag = value.boolValue else { throw .wrongType(expected: "true or false", got: value.typeName) }
            return flag
        }
    }

    /// An optional `true`/`false`; nil when absent or `null`.
    package func boolIfPresent(_ key: StaticString) throws(JSONError) -> Bool? {
        try decodeIfPresent(key) { value throws(JSONError) in
            guard let flag = value.boolValue else { throw .wrongType(expected: "true or false", got: value.typeName) }
            return flag
        }
    }

    /// A required number of seconds (any JSON number).
    package func seconds(_ key: StaticString) throws(JSONError) -> Double {
        try decode(key, expected: Self.seconds) { value throws(JSONError) in try Self.seconds(value) }
    }

    package func secondsIfPresent(_ key: StaticString) throws(JSONError) -> Double? {
        try decodeIfPresent(key) { value throws(JSONError) in try Self.seconds(value) }
    }

    /// A required array whose elements are converted by `body`; element
    /// errors get `key[index]` in their path.
    package func array<T>(_ key: StaticString, of expected: String,
                          _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> [T] {
        try decode(key, expected: "an array of \(expected)") { value throws(JSONError) in try Self.array(value, body) }
    }

    /// An optional array; absent or `null` reads as empty.
    package func arrayIfPresent<T>(_ key: StaticString, _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> [T] {
        try decodeIfPresent(key) { value throws(JSONError) in try Self.array(value, body) } ?? []
    }

    // MARK: Conversions of one value

    package static let integer = "an integer"
    package static let text = "a string"
    package static let seconds = "a number of seconds"

    package static func int(_ value: JSONValue) throws(JSONError) -> Int {
        guard let number = value.intValue else { throw .wrongType(expected: integer, got: value.typeName) }
        return number
    }

    package static func string(_ value: JSONValue) throws(JSONError) -> String {
        guard let text = value.stringValue else { throw .wrongType(expected: text, got: value.typeName) }
        return text
    }

    package static func seconds(_ value: JSONValue) throws(JSONError) -> Double {
        guard let number = value.doubleValue else { throw .wrongType(expected: seconds, got: value.typeName) }
        return number
    }

    package static func array<T>(_ value: JSONValue, _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> [T] {
        guard let elements = value.arrayValue else { throw .wrongType(expected: "an array", got: value.typeName) }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do { result.append(try body(element)) } catch { throw error.inside("[\(index)]") }
        }
        return result
    }

    /// A string from a fixed set (an enum's raw values).
    package static func oneOf<T: RawRepresentable & CaseIterable>(_ value: JSONValue, _: T.Type) throws(JSONError) -> T
    where T.RawValue == String {
        // The list is made only for the error: a key path and a join cost more than the lookup.
        func choices() -> String { T.allCases.map { $0.rawValue }.joined(separator: ", ") }
        guard let text = value.stringValue else { throw .wrongType(expected: "one of \(choices())", got: value.typeName) }
        guard let choice = T(rawValue: text) else { throw .wrongType(expected: "one of \(choices())", got: "'\(text)'") }
        return choice
    }
}
