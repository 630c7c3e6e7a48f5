import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// A 500 KB button name went into the log verbatim, on every line that names
/// the button: log fields are cut, the rest of the line kept.
@Suite("Log fields are cut")
struct LogFieldTests {
    @Test func aHugeButtonNameIsCutInTheLogButTheLineKeepsItsOtherFields() throws {
        let host = try startedHost()
        let device = try host.device("Kim's phone")
        let name = String(repeating: "x", count: 500_000)
        let button = DeckButton(name: name, action: .page(.next))
        try device.expectOK(.setButton(page: 0, index: 7, button: button))
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 7, toPage: 0, toIndex: 8, button: button))
        try device.expectOK(.press(page: 0, index: 8, button: button, phase: .tap))
        let lines = host.log.split(separator: "\n")
        let named = lines.filter { $0.contains("xxxxxxxxxx") }
        #expect(named.count >= 3, "the set, the move and the press each name the button")
        for line in named {
            #expect(line.utf8.count < 2_000, "a log line of \(line.utf8.count) bytes")
            #expect(line.contains("… (499800 more characters)"))
        }
        #expect(named.contains { $0.contains("set '") && $0.contains("' at 0/7 by Kim's phone") })
        #expect(named.contains { $0.contains("moved '") && $0.contains("' 0/7 -> 0/8 by Kim's phone") })
        #expect(named.contains { $0.contains("pressed '") && $0.contains("' at 0/8") })
    }
}
