import DeckModel
import DeckProtocol
import Foundation

/// Named values shared by the protocol tests.
enum Sample {
    static let files = DeckButton(name: "Files", icon: "folder", action: .open("~"))
    static let build = DeckButton(name: "Build", action: .run(command: "make -C ~/src/app", cwd: "~/src", timeout: 600))
    static let next = DeckButton(name: "다음 페이지", action: .page(.next))
    static let mute = DeckButton(name: "🎙️ Mute", icon: "🎙️", action: .plugin(
        id: "audio", command: "toggle-mute",
        settings: ["step": .int(2), "label": .string("line\nbreak \"q\""), "on": .bool(true), "ratio": .double(0.5),
                   "list": .array([.int(1), .null, .string("x")]), "nested": .object(["k": .string("v")])]))

    static let kim = ClientInfo(name: "Kim's iPhone", kind: "phone", address: "192.168.1.20:53422", protocolLevel: 7)
    static let ctl = ClientInfo(name: "deckctl", kind: "control", address: "control", protocolLevel: 7)
    static let host = HostInfo(version: "0.1.0")
    static let problem = Problem(file: "default.yaml", line: 9, column: 7,
                                 message: "unknown key 'nmae' in button (expected name, icon, action)")

    /// Files at 0/0, Build at 0/1, 다음 at 0/5, Mute at 1/3; normalized.
    static func layout(slots: Int = 12) -> DeckLayout {
        var first = DeckPage.empty(slots: slots)
        first.buttons[0] = files
        first.buttons[1] = build
        first.buttons[5] = next
        var second = DeckPage.empty(slots: slots)
        second.title = "Second"
        second.buttons[3] = mute
        do {
            return try DeckLayout(slotsPerPage: slots, pages: [first, second])
        } catch {
            preconditionFailure("sample layout is invalid: \(error)")
        }
    }
}

/// The bytes of a line written as text.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A line's text without its final `\n`.
func text(_ line: [UInt8]) -> String {
    String(decoding: line.last == 0x0A ? line.dropLast() : line[...], as: UTF8.self)
}

/// Decodes a client line, returning the error instead of throwing it.
func clientResult(_ line: [UInt8], access: ClientAccess? = nil) -> Result<ClientMessage, ProtocolError> {
    Result { () throws(ProtocolError) -> ClientMessage in
        if let access { try ClientMessage.decode(line, access: access) } else { try ClientMessage.decode(line) }
    }
}

/// Decodes a client line given as text.
func clientResult(_ line: String, access: ClientAccess? = nil) -> Result<ClientMessage, ProtocolError> {
    clientResult(bytes(line), access: access)
}
