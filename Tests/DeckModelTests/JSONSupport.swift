import DeckModel
import Foundation
import Testing

/// Parses `text` and converts its top-level value with `body`.
func readJSON<T>(_ text: String, depth: Int = 64, _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> T {
    try readJSON(Array(text.utf8), depth: depth, body)
}

func readJSON<T>(_ bytes: [UInt8], depth: Int = 64, _ body: (JSONValue) throws(JSONError) -> T) throws(JSONError) -> T {
    try JSONValue.read(bytes, maximumDepth: depth, noun: "the text", body)
}

/// The error reading `bytes` with `body` throws, or nil when it succeeds.
func jsonError<T>(_ bytes: [UInt8], depth: Int = 64, _ body: (JSONValue) throws(JSONError) -> T) -> JSONError? {
    do {
        _ = try readJSON(bytes, depth: depth, body)
        return nil
    } catch {
        return error
    }
}

func jsonError<T>(_ text: String, depth: Int = 64, _ body: (JSONValue) throws(JSONError) -> T) -> JSONError? {
    jsonError(Array(text.utf8), depth: depth, body)
}

/// Any JSON text as plain data.
func deckValue(_ text: String, depth: Int = 64) throws(JSONError) -> DeckValue {
    try readJSON(text, depth: depth) { $0.deckValue }
}

/// A value as `JSONWriter` writes it.
func written(_ body: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    body(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
}

/// JSON text as a comparable value (NSNumber compares 600 and 600.0 equal, as JSON does).
func foundationTree(_ bytes: some DataProtocol) throws -> NSObject {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? NSObject)
}
