import DeckProtocol
import Testing

@Suite("protocol levels")
struct LevelTests {
    @Test func negotiationIsTheLowerLevel() throws {
        #expect(ProtocolLevel.current == 8 && ProtocolLevel.minimum == 1)
        #expect(try ProtocolLevel.negotiate(client: 7) == 7)
        #expect(try ProtocolLevel.negotiate(client: 1) == 1)
        #expect(try ProtocolLevel.negotiate(client: 5) == 5)
        #expect(try ProtocolLevel.negotiate(client: 12) == 8)
        #expect(try ProtocolLevel.negotiate(client: .max) == 8)
        for tooOld in [0, -1, Int.min] {
            #expect(throws: ProtocolError.self) { try ProtocolLevel.negotiate(client: tooOld) }
            do {
                _ = try ProtocolLevel.negotiate(client: tooOld)
            } catch {
                #expect(error.code == .unsupported && error.message.contains("1 to 8"))
            }
        }
    }

    @Test func theTable() {
        for kind in RequestKind.allCases {
            #expect(kind.rule.minimumLevel == (kind == .moveButton ? 7 : kind == .setFace ? 8 : 1), "\(kind)")
        }
        let control: Set<RequestKind> = [.status, .lock, .unlock, .reload, .useProfile, .profiles, .snapshots,
                                         .restore, .export, .pair, .unpair, .subscribe, .restart, .devices, .setFace]
        #expect(Set(RequestKind.allCases.filter(\.isControlOnly)) == control)
        #expect(Set(RequestKind.allCases.filter(\.rule.editsLayout)) == [.setButton, .clearButton, .moveButton])
        #expect(RequestKind.allCases.filter { $0.rule.audience == .handshake } == [.hello])
        #expect(RequestKind.moveButton.isAvailable(atLevel: 6) == false)
        #expect(RequestKind.moveButton.isAvailable(atLevel: 7))
    }

    /// Every kind, at every level, from a control client and from a device:
    /// `admit` says exactly what the table says.
    @Test func admissionFollowsTheTable() {
        for kind in RequestKind.allCases {
            for level in 1...ProtocolLevel.current {
                for isControl in [false, true] {
                    let rule = kind.rule
                    let expected: ErrorCode? = switch rule.audience {
                    case .handshake: .handshake
                    case .control where !isControl: .unauthorized
                    default: level < rule.minimumLevel ? .unsupported : nil
                    }
                    var got: ErrorCode?
                    do {
                        try kind.admit(ClientAccess(level: level, isControl: isControl))
                    } catch {
                        got = error.code
                    }
                    #expect(got == expected, "\(kind) at level \(level), control: \(isControl)")
                }
            }
        }
    }
}
