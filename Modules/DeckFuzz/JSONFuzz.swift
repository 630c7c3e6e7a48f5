import DeckModel

/// Property: a document the parser accepts, read as a value and written back
/// by the host's writer, parses to the same value, and writing that gives the
/// same bytes (decode → encode → decode is stable). A refusal points at a
/// byte inside the input (or just past its end).
enum JSONFuzz {
    /// The settings bound every reader of the project uses plus the layout's own levels.
    static let maximumDepth = 7 + DeckConstants.maximumSettingsDepth

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let value: DeckValue
        do throws(JSONError) {
            value = try JSONValue.read(bytes, maximumDepth: maximumDepth, noun: "the input") { $0.deckValue }
        } catch {
            if case let .syntax(_, offset) = error.problem {
                try require((0...bytes.count).contains(offset),
                            "a syntax error at byte \(offset) of a \(bytes.count)-byte input")
            }
            return
        }
        let written = encode(value)
        let again: DeckValue
        do throws(JSONError) {
            again = try JSONValue.read(written, maximumDepth: maximumDepth, noun: "the input") { $0.deckValue }
        } catch {
            throw FuzzFinding("the writer's JSON does not parse (\(error)): \(String(decoding: written, as: UTF8.self))")
        }
        try require(again == value, "a value changed through write → parse: \(value) became \(again)")
        try require(encode(again) == written, "the writer's output is not stable")
    }

    private static func encode(_ value: DeckValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.line()
    }
}
