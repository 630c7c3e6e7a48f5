import DeckDBus
import Testing

/// Values written by DeckDBus, echoed by a real peer on a real bus, and read back by DeckDBus.
@Suite struct DBusValueTests {
    /// The bodies are made per test case, never kept in a static: a stored
    /// `DBusValue` is a tagged pointer to its indirect box, which
    /// LeakSanitizer does not follow, so a static holding some is reported
    /// as leaked at exit (make sanitize-address). The arguments are indices.
    static func body(_ index: Int) -> [DBusValue] { bodies()[index] }
    static let bodyCount = bodies().count

    static func bodies() -> [[DBusValue]] { [
        [.string("héllo ✓ 안녕")],
        [.string("")],
        [.objectPath("/org/deck/a_1")],
        [.signature("a{sv}")],
        [.bool(true), .bool(false)],
        [.byte(255), .int16(-32768), .uint16(65535)],
        [.int32(-5), .uint32(4_000_000_000)],
        [.int64(Int64.min), .uint64(UInt64.max)],
        [.double(-2.5)],
        [.variant(.uint32(9))],
        [.variant(.array(of: "s", [.string("in a variant")]))],
        [.array(of: "s", [.string("a"), .string("b")])],
        [.array(of: "o", [])],
        [.array(of: "(is)", [.structure([.int32(1), .string("one")]), .structure([.int32(2), .string("two")])])],
        // The portal's vardict: values of several types, each in its own variant.
        [.dictionary(["handle_token": .string("deck1"), "types": .uint32(1), "persist_mode": .uint32(2)])],
        [.dictionary([:])],
        [.array(of: "a{sv}", [.dictionary(["nested": .dictionary(["deeper": .array(of: "x", [.int64(-1)])])])])],
        // A portal Response's body: a code and results.
        [.uint32(0), .dictionary(["session_handle": .objectPath("/org/freedesktop/portal/desktop/session/1_1/s")])],
    ] }

    @Test(arguments: 0..<bodyCount)
    func valuesComeBackAsTheyWereSent(index: Int) throws {
        let body = Self.body(index)
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect()
        let answer = try connection.answer(to: connection.callPeer("Echo", body))
        #expect(answer.body == body)
        #expect(answer.body.map(\.signature) == body.map(\.signature))
    }

    @Test func readingIsCutToTheLimits() throws {
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect(limits: DBusLimits(stringBytes: 8, arrayElements: 3, depth: 2))
        let sent: [DBusValue] = [
            .string("0123456789"),
            .array(of: "u", (1...5).map { .uint32($0) }),
            .dictionary(["a": .bool(true), "b": .bool(true), "c": .bool(true), "d": .bool(true)]),
            .variant(.variant(.variant(.int32(1)))),
            .array(of: "y", [.byte(1), .byte(2)]),
        ]
        let body = try connection.answer(to: connection.callPeer("Echo", sent)).body
        #expect(body.count == 3, "a body is cut to arrayElements values too")
        #expect(body.first == .string("01234567", truncated: true))
        #expect(body.dropFirst().first == .array(of: "u", [.uint32(1), .uint32(2), .uint32(3)], truncated: true))
        #expect(body.dropFirst(2).first?.dictionary?.count == 3)
        #expect(body.dropFirst(2).first?.isTruncated == true)

        let deep = try connection.answer(to: connection.callPeer("Echo", Array(sent.suffix(2)))).body
        #expect(deep == [.variant(.variant(.other(signature: "v"))), .other(signature: "ay")],
                "containers past the depth and byte arrays are kept as their signature only")
    }

    @Test func accessorsSeeThroughVariantsAndWidenIntegers() {
        #expect(DBusValue.variant(.objectPath("/a")).string == "/a")
        #expect(DBusValue.uint64(UInt64.max).integer == Int64.max)
        #expect(DBusValue.variant(.byte(7)).integer == 7)
        #expect(DBusValue.array(of: "v", [.variant(.string("a")), .variant(.objectPath("/b"))]).strings == ["a", "/b"])
        #expect(DBusValue.array(of: "v", [.variant(.string("a")), .variant(.int32(1))]).strings == nil)
        #expect(DBusValue.dictionary(["k": .bool(true)]).signature == "a{sv}")
        #expect(DBusValue.structure([.int32(1), .array(of: "s", [])]).signature == "(ias)")
        #expect(DBusValue.variant(.uint16(1)).kindName == "an integer")
    }

    /// Values DeckDBus cannot write, with the start of the refusal's sentence (made per case: see ``body(_:)``).
    static func unwritable(_ index: Int) -> (DBusValue, String) { unwritables()[index] }
    static let unwritableCount = unwritables().count
    static func unwritables() -> [(DBusValue, String)] {
        [
            (DBusValue.array(of: "s", [.int32(1)]), "an array of 's' cannot hold an integer ('i')"),
            (DBusValue.other(signature: "h"), "a value of type 'h' was read but not kept"),
            (DBusValue.dictionary(["fd": .other(signature: "h")]), "a value of type 'h' was read but not kept"),
        ]
    }

    @Test(arguments: 0..<unwritableCount)
    func unwritableValuesAreRefusedAndTheConnectionStaysUsable(index: Int) throws {
        let (value, sentence) = Self.unwritable(index)
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect()
        #expect { try connection.callPeer("Echo", [value]) } throws: { error in
            guard let error = error as? DBusError, case .unwritable = error else { return false }
            return error.description.hasPrefix(sentence)
        }
        #expect(try connection.answer(to: connection.callPeer("Echo", [.string("still here")])).body == [.string("still here")])
    }
}
