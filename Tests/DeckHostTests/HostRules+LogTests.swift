import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// A 500 KB button name went into the log verbatim, on every line that
/// names the button: log fields are cut (LogField), the rest of the line kept.
@Suite("HostState rules: log lines")
struct HostRulesLogTests {
    typealias R = Rules

    @Test func aHugeButtonNameIsCutInEveryLineButTheLineKeepsItsOtherFields() throws {
        var host = try R.host()
        let kims = ConnectionID(rawValue: 4)
        R.join(&host, kims, ClientInfo(name: "Kim's phone", kind: "phone", address: "10.0.0.5:5000", protocolLevel: 7))
        let button = DeckButton(name: String(repeating: "x", count: 500_000), action: .page(.next))
        var actions = host.handle(.request(kims, R.message(.setButton(page: 0, index: 7, button: button))))
        actions += host.handle(.request(kims, R.message(.moveButton(fromPage: 0, fromIndex: 7, toPage: 0, toIndex: 8, button: button),
                                                        id: 2)))
        actions += host.handle(.request(kims, R.message(.press(page: 0, index: 8, button: button, phase: .tap), id: 3)))
        actions += HostState.actionEnded(ActionRequest(page: 0, index: 8, button: button, phase: .tap, by: nil), .delivered)
        let named = R.logLines(actions).filter { $0.contains("xxxxxxxxxx") }
        #expect(named.count == 4, "the set, the move, the press and its end each name the button: \(named.map { $0.prefix(40) })")
        for line in named {
            #expect(line.utf8.count < 2_000, "a log line of \(line.utf8.count) bytes")
            #expect(line.contains("… (499800 more characters)"))
        }
        #expect(named.contains { $0.hasPrefix("set '") && $0.hasSuffix("' at 0/7 by Kim's phone") })
        #expect(named.contains { $0.hasPrefix("moved '") && $0.hasSuffix("' 0/7 -> 0/8 by Kim's phone") })
        #expect(named.contains { $0.hasPrefix("pressed '") && $0.hasSuffix("' at 0/8 by Kim's phone") })
    }
}
