import DeckPluginKit

/// Property: decode → encode → decode is stable, for a line a plugin writes to
/// the host and for an event line the host writes to a plugin.
enum PluginMessageFuzz {
    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        if let message = try? PluginMessage(line: bytes) {
            let line = message.line()
            guard let again = try? PluginMessage(line: line) else {
                throw FuzzFinding("the encoding of a plugin message does not decode: \(message)")
            }
            try require(again == message, "a plugin message changed through encode → decode: \(message) became \(again)")
            try require(again.line() == line, "a plugin message's encoding is not stable")
        }
        if let event = try? PluginEvent(line: bytes) {
            let line = event.line()
            guard let again = try? PluginEvent(line: line) else {
                throw FuzzFinding("the encoding of a plugin event does not decode: \(event)")
            }
            try require(again == event, "a plugin event changed through encode → decode: \(event) became \(again)")
            try require(again.line() == line, "a plugin event's encoding is not stable")
        }
    }
}
