import DeckModel
import DeckTLS
import DeckProtocol

/// One device connected to deckd over TCP: it says hello, keeps the layout
/// the host welcomed it with, and moves buttons between two slots it owns.
package final class BenchDevice {
    package let socket: BenchSocket
    package private(set) var layout: DeckLayout
    package private(set) var revision: Int
    private var nextID = 1

    /// Connects (over TLS with `tls`, checking the certificate for `localhost`), says hello, and reads the welcome.
    package init(port: UInt16, name: String, tls: TLSContext? = nil) throws {
        socket = try BenchSocket(port: port)
        if let tls { try socket.startTLS(tls, serverName: "localhost") }
        let hello = ClientMessage(id: .int(0), .hello(Hello(device: Device(name: name, kind: "phone"))))
        try socket.send(hello.line())
        guard let line = try socket.readLine() else { throw BenchError.setup("deckd closed the connection after hello") }
        guard case .welcome(_, let welcome) = try HostMessage.decode(line) else {
            throw BenchError.setup("deckd answered hello with: \(String(decoding: line, as: UTF8.self).prefix(300))")
        }
        layout = welcome.layout
        revision = welcome.revision
    }

    /// The `moveButton` line that moves whatever is in `from` to `to` (a swap
    /// when `to` is filled), and remembers the move as made once `ok` comes.
    package func moveLine(from: (page: Int, index: Int), to: (page: Int, index: Int)) throws -> (line: [UInt8], id: Int) {
        guard let button = layout.button(page: from.page, index: from.index) else {
            throw BenchError.setup("slot \(from.page)/\(from.index) is empty; nothing to move")
        }
        nextID += 1
        let message = ClientMessage(id: .int(nextID), .moveButton(fromPage: from.page, fromIndex: from.index,
                                                                  toPage: to.page, toIndex: to.index, button: button))
        return (message.line(), nextID)
    }

    /// Records an accepted move in the device's copy (both slots are on one page).
    package func applied(from: (page: Int, index: Int), to: (page: Int, index: Int), revision: Int) {
        let moving = layout.pages[from.page].buttons[from.index]
        layout.pages[from.page].buttons[from.index] = layout.pages[to.page].buttons[to.index]
        layout.pages[to.page].buttons[to.index] = moving
        self.revision = revision
    }

    /// Reads lines until the reply to `id`; returns its revision. Broadcasts
    /// before it are skipped; an error reply is thrown.
    package func awaitOK(id: Int) throws -> Int {
        let prefix = Array(#"{"type":"ok","id":\#(id),"#.utf8)
        while let line = try socket.readLine() {
            if line.starts(with: prefix) {
                guard case .ok(_, let revision?) = try HostMessage.decode(line) else { break }
                return revision
            }
            if line.starts(with: Array(#"{"type":"error""#.utf8)) {
                throw BenchError.setup("deckd refused the edit: \(String(decoding: line, as: UTF8.self).prefix(300))")
            }
        }
        throw BenchError.setup("deckd closed the connection before answering request \(id)")
    }

    /// Reads lines until a `layout` broadcast; skips anything else.
    package func awaitLayout() throws {
        let prefix = Array(#"{"type":"layout""#.utf8)
        while let line = try socket.readLine() {
            if line.starts(with: prefix) { return }
        }
        throw BenchError.setup("deckd closed the connection before the layout broadcast")
    }
}
