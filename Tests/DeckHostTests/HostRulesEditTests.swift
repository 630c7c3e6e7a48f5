import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// The edit rules (PROTOCOL.md §5) as ``HostState/handle(_:)`` decides them.
@Suite("HostState rules: edits")
struct HostRulesEditTests {
    typealias R = Rules

    @Test func anAcceptedSetIsOneCommitThatWritesThenHearsTheEditor() throws {
        var host = try R.host()
        let button = DeckButton(name: "New", action: .run(command: "date"))
        let actions = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 7, button: button))))
        let head = host.live.head
        #expect(head.revision == 6 && head.layout.button(page: 0, index: 7) == button)
        #expect(host.live.committed.revision == 5)  // committed only once durable
        #expect(actions == [
            .commit(Commit(Outcome(live: head, [
                .ok(R.phone, 1, withRevision: true), .layoutAfterEdit([R.phone]),
                .event(.set(page: 0, index: 7, button: "New", replaced: nil, revision: 6, by: R.kim)),
                .log(.info, "set 'New' at 0/7 by kim"),
            ], ifWriteFails: [.refuse(R.phone, 1, request: "setButton")]), writeReason: "setButton", editor: R.phone, sender: R.phone)),
            .heard(R.phone),
        ])
    }

    @Test func aSetOverAButtonNamesWhatItReplaced() throws {
        var host = try R.host()
        let button = DeckButton(name: "Shell", action: .run(command: "sh"))
        let commit = try #require(host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 1, button: button)))).first)
        guard case .commit(let entry) = commit else { Issue.record("not a commit"); return }
        #expect(entry.outcome.effects.contains(.event(.set(page: 0, index: 1, button: "Shell", replaced: "Term", revision: 6, by: R.kim))))
        #expect(entry.outcome.effects.contains(.log(.info, "set 'Shell' at 0/1 (replacing 'Term') by kim")))
    }

    @Test func settingTheSameButtonAgainChangesNothingButStillAnswersWithTheLayout() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 0, button: R.files))))
        #expect(host.live.head.revision == 5)
        #expect(actions == [
            .commit(Commit(Outcome([.ok(R.phone, 1, withRevision: true), .layoutAfterEdit([R.phone]),
                                    .log(.debug, "setButton by kim changed nothing")]), sender: R.phone)),
            .heard(R.phone),
        ])
    }

    @Test func clearingAnEmptySlotChangesNothing() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.tablet, R.message(.clearButton(page: 0, index: 9, expecting: nil), id: "c")))
        #expect(actions == [
            .commit(Commit(Outcome([.ok(R.tablet, "c", withRevision: true), .layoutAfterEdit([R.tablet]),
                                    .log(.debug, "clearButton by lee changed nothing")]), sender: R.tablet)),
            .heard(R.tablet),
        ])
    }

    @Test func aClearNamesTheButtonAndEmptiesTheSlotInHead() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 1, expecting: R.term))))
        let head = host.live.head
        #expect(head.layout.button(page: 0, index: 1) == nil && head.revision == 6)
        #expect(actions == [
            .commit(Commit(Outcome(live: head, [
                .ok(R.phone, 1, withRevision: true), .layoutAfterEdit([R.phone]),
                .event(.clear(page: 0, index: 1, button: "Term", revision: 6, by: R.kim)),
                .log(.info, "cleared 'Term' at 0/1 by kim"),
            ], ifWriteFails: [.refuse(R.phone, 1, request: "clearButton")]), writeReason: "clearButton", editor: R.phone,
                           sender: R.phone)),
            .heard(R.phone),
        ])
    }

    @Test func aMoveOntoAButtonSwapsAndSaysSo() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 0,
                                                                          button: R.files))))
        let head = host.live.head
        #expect(head.layout.button(page: 1, index: 0) == R.files && head.layout.button(page: 0, index: 0) == R.later)
        let entry = try #require(actions.first.flatMap { action -> Commit? in
            if case .commit(let commit) = action { commit } else { nil }
        })
        #expect(entry.outcome.effects[2] == .event(.move(fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 0, button: "Files",
                                                         swapped: "Later", revision: 6, by: R.kim)))
        #expect(entry.outcome.effects[3] == .log(.info, "moved 'Files' 0/0 -> 1/0 (swapped with 'Later') by kim"))
        #expect(entry.writeReason == "moveButton" && actions.last == .heard(R.phone))
    }

    /// A no-op is `ok` with the revision it already had, and the layout still follows it (§5).
    @Test func aMoveOntoItsOwnSlotChangesNothing() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 2, toPage: 0, toIndex: 2,
                                                                          button: R.next))))
        #expect(host.live.head.revision == 5)
        #expect(actions == [
            .commit(Commit(Outcome([.ok(R.phone, 1, withRevision: true), .layoutAfterEdit([R.phone]),
                                    .log(.debug, "moveButton by kim changed nothing")]), sender: R.phone)),
            .heard(R.phone),
        ])
    }

    /// A stale move names the slot whose button the device got wrong, and the layout follows the refusal.
    @Test func aStaleMoveNamesTheSlotAndTheLayoutFollows() throws {
        var host = try R.host()
        let wrong = DeckButton(name: "Not there", action: .run(command: "true"))
        let actions = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2,
                                                                          button: wrong))))
        let message = DeckModelError.stale(page: 0, index: 1, expected: "Not there").description
        #expect(message.contains("0/1"))
        #expect(actions == [R.refused(.stale, message, request: "moveButton", by: R.phone, who: R.kim, then: .afterEdit),
                            .heard(R.phone)])
        #expect(host.live.head.revision == 5)
    }

    /// A layout keeps one empty page at its end: a button set there adds a
    /// page, and clearing it takes the page away again (DeckModel's normal form).
    @Test func aButtonOnTheTrailingPageAddsAPageAndClearingItRemovesIt() throws {
        var host = try R.host()
        let pages = host.live.head.layout.pages.count
        #expect(host.live.head.layout.isNormal)
        let mail = DeckButton(name: "메일 📬", action: .open("mailto:x@y.z"))
        _ = host.handle(.request(R.phone, R.message(.setButton(page: pages - 1, index: 0, button: mail))))
        let grown = host.live.head.layout
        #expect(grown.pages.count == pages + 1 && grown.button(page: pages - 1, index: 0) == mail && grown.isNormal)
        _ = host.handle(.request(R.phone, R.message(.clearButton(page: pages - 1, index: 0, expecting: mail), id: 2)))
        #expect(host.live.head.layout.pages.count == pages && host.live.head.revision == 7)
        let stale = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 0, expecting: mail), id: 3)))
        #expect(stale.first == R.refused(.stale, DeckModelError.stale(page: 0, index: 0, expected: mail.name).description, id: 3,
                                         request: "clearButton", by: R.phone, who: R.kim, then: .afterEdit))
    }

    /// One client must not grow the layout until every broadcast overflows
    /// the other clients' output queues: edits stop at the 2 MiB of JSON the
    /// host sends to every device.
    @Test func editsStopAtTheBroadcastBound() throws {
        var host = try R.host()
        let name = String(repeating: "n", count: 700_000)
        var replies: [Effect] = []
        for index in 6..<9 {
            let button = DeckButton(name: name, action: .run(command: "true"))
            let actions = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: index, button: button), id: .int(index))))
            replies += R.commit(Array(actions.prefix(1)))?.outcome.effects.prefix(1) ?? []
        }
        #expect(host.live.head.revision == 7, "2 × 0.7 MB fit in 2 MiB, a third does not")
        #expect(replies.prefix(2) == [.ok(R.phone, 6, withRevision: true), .ok(R.phone, 7, withRevision: true)])
        guard case .send(R.phone, .error(.some(8), .invalid, let message, _)) = replies.last else {
            Issue.record("the third edit was not refused: \(replies)")
            return
        }
        #expect(message.contains("more than the 2 MiB the host sends to every device"), "\(message)")
    }

    /// The bound refuses growth only: a layout already past it (a big file)
    /// still takes edits that do not make it larger.
    @Test func aLayoutPastTheBoundTakesEditsThatDoNotGrowIt() throws {
        var host = try R.host(maxLayoutBytes: 100)
        #expect(host.live.head.encoded.json.count > 100)
        _ = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 7, button: R.term))))
        _ = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 7, expecting: R.term), id: 2)))
        #expect(host.live.head.revision == 7)
        let grow = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 8, button: R.term), id: 3)))
        guard case .send(R.phone, .error(.some(3), .invalid, _, _)) = R.commit(Array(grow.prefix(1)))?.outcome.effects.first else {
            Issue.record("a growing edit past the bound was not refused: \(grow)")
            return
        }
        #expect(host.live.head.revision == 7)
    }

    /// Each edit is checked against `head`: the second builds on the first before either is on disk.
    @Test func editsBuildOnHeadOneRevisionEach() throws {
        var host = try R.host()
        _ = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 0, expecting: R.files))))
        let second = host.handle(.request(R.tablet, R.message(.clearButton(page: 0, index: 0, expecting: R.files), id: 2)))
        // The tablet's picture is a revision behind: Files is gone from head.
        #expect(second == [
            R.refused(.stale, DeckModelError.stale(page: 0, index: 0, expected: "Files").description, id: 2,
                      request: "clearButton", by: R.tablet, who: R.lee, then: .afterEdit),
            .heard(R.tablet),
        ])
        #expect(host.live.head.revision == 6)
    }

    static let refusals: [(ClientRequest, ErrorCode)] = [
        (.setButton(page: 3, index: 0, button: Rules.files), .outOfRange),
        (.setButton(page: 0, index: 400, button: Rules.files), .outOfRange),
        (.clearButton(page: 0, index: 0, expecting: Rules.term), .stale),
        (.clearButton(page: -1, index: 0, expecting: nil), .outOfRange),
        (.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2, button: Rules.files), .stale),
        (.moveButton(fromPage: 0, fromIndex: 0, toPage: 9, toIndex: 0, button: Rules.files), .outOfRange),
    ]

    @Test(arguments: refusals)
    func aBrokenEditIsRefusedWithTheLayoutAfterItAndChangesNothing(_ request: ClientRequest, _ code: ErrorCode) throws {
        var host = try R.host()
        let before = host.live.head
        let actions = host.handle(.request(R.phone, R.message(request)))
        #expect(host.live.head == before)
        let entry = try #require(R.commit(Array(actions.prefix(1))))
        guard case .send(R.phone, .error(.some(1), code, _, _)) = entry.outcome.effects.first else {
            Issue.record("expected error \(code), got \(entry.outcome.effects)")
            return
        }
        #expect(entry.outcome.effects[1] == .layoutAfterEdit([R.phone]))
        #expect(entry.writeReason == nil && entry.outcome.live == nil && actions.last == .heard(R.phone))
    }

    @Test func anEditThatWouldMakeTheLayoutTooLargeIsInvalid() throws {
        var host = try R.host(maxLayoutBytes: 600)
        let long = DeckButton(name: String(repeating: "x", count: 200), action: .run(command: String(repeating: "y", count: 400)))
        let actions = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 8, button: long))))
        let entry = try #require(R.commit(Array(actions.prefix(1))))
        guard case .send(_, .error(.some(1), .invalid, let message, _)) = entry.outcome.effects.first else {
            Issue.record("expected invalid, got \(entry.outcome.effects)")
            return
        }
        #expect(message.contains("bytes of JSON") && host.live.head.revision == 5)
    }

    @Test func anEditMadeWhileAnotherWaitsForTheDiskRecordsBoth() throws {
        var host = try R.host()
        _ = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 0, expecting: R.files))))
        _ = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 1, expecting: R.term), id: 2)))
        #expect(host.live.head.revision == 7 && host.live.head.edits.count == 2)
    }
}
