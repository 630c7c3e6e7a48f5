import DeckProtocol
import Foundation
import Testing

/// `docs/protocol.md` shows lines a person can type and lines the host sends;
/// each must be what the code reads and writes.
@Suite("docs/protocol.md")
struct DocumentTests {
    static let document: String = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/protocol.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// JSON lines of the document, without the `> ` / `< ` of the session;
    /// lines shortened with `…` are left out (they are not complete).
    static func lines(where keep: (String) -> Bool) -> [String] {
        document.split(separator: "\n").map(String.init).filter(keep).map { line in
            line.hasPrefix("> ") || line.hasPrefix("< ") ? String(line.dropFirst(2)) : line
        }.filter { $0.hasPrefix("{") && !$0.contains("…") }
    }

    @Test func theDocumentIsThere() {
        #expect(Self.document.contains("# The deck wire protocol"))
    }

    @Test func everyTypedLineDecodes() throws {
        let typed = Self.lines { $0.hasPrefix("> ") }
        #expect(typed.count >= 8)
        for line in typed where line != "{nope" {
            let message = try ClientMessage.decode(Array(line.utf8))
            #expect(message.line() == Array((line + "\n").utf8), "the codec writes typed lines exactly as shown")
        }
        #expect(throws: ProtocolError.self) { try ClientMessage.decode(Array("{nope".utf8)) }
    }

    @Test func everyRequestExampleDecodes() throws {
        let examples = Self.lines { $0.hasPrefix("{\"type\":\"") }.filter { line in
            RequestKind.allCases.contains { line.hasPrefix("{\"type\":\"\($0.rawValue)\",\"id\"") }
                && !line.hasPrefix("{\"type\":\"lock\",\"locked\"")
        }
        let kinds = try Set(examples.map { try ClientMessage.decode(Array($0.utf8)).kind })
        #expect(kinds == Set(RequestKind.allCases))
    }

    @Test func everyHostLineDecodesAndIsWrittenTheSameWay() throws {
        let sent = Self.lines { $0.hasPrefix("< ") || $0.hasPrefix("{\"type\":\"") }.filter { line in
            (try? ClientMessage.decode(Array(line.utf8))) == nil
        }
        #expect(sent.count >= 15)
        for line in sent {
            let message = try HostMessage.decode(Array(line.utf8))
            #expect(message.line() == Array((line + "\n").utf8), "\(line)")
        }
    }

    @Test func malformedExampleIsVerbatim() throws {
        let error = try #require(clientResult("{nope").failure)
        #expect(Self.document.contains(String(decoding: error.reply.line().dropLast(), as: UTF8.self)))
        let unauthorized = try #require(clientResult(#"{"type":"status","id":6}"#, access: ClientAccess(level: 7, isControl: false)).failure)
        #expect(Self.document.contains(String(decoding: unauthorized.reply.line().dropLast(), as: UTF8.self)))
    }
}
