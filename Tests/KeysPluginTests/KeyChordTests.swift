import KeysPlugin
import Testing

/// The keysym names of plugins/keys/keysyms.txt, as the plugin reads them.
let vocabulary: [String] = {
    let here = #filePath
    let root = here.split(separator: "/").dropLast(3).joined(separator: "/")
    return KeyNames.words(inFile: "/" + root + "/plugins/keys/keysyms.txt")
}()
let names = KeyNames(vocabulary: vocabulary)

@Suite struct KeyChordTests {
    @Test func theWordListIsXkbcommonsNames() {
        #expect(vocabulary.count > 2000)
        #expect(vocabulary.contains("XF86AudioPlay"))
        #expect(vocabulary.contains("Control_L"))
    }

    @Test(arguments: [
        ("ctrl+shift+t", [[0xFFE3, 0xFFE1, 0x74]]),
        ("Ctrl+K ctrl+c", [[0xFFE3, 0x6B], [0xFFE3, 0x63]]),
        ("super", [[0xFFEB]]),
        ("media_play", [[0x1008FF14]]),
        ("RETURN", [[0xFF0D]]),
        ("f5", [[0xFFC2]]),
        ("ctrl++", [[0xFFE3, 0x2B]]),
        ("+", [[0x2B]]),
        ("alt+é", [[0xFFE9, 0xE9]]),
        ("ctrl+/", [[0xFFE3, 0x2F]]),
        ("  ctrl+a   b  ", [[0xFFE3, 0x61], [0x62]]),
        ("XF86AudioRaiseVolume", [[0x1008FF13]]),
    ] as [(String, [[UInt32]])])
    func chordsParse(keys: String, expected: [[UInt32]]) throws {
        #expect(try names.chords(keys) == expected.map(KeyChord.init))
    }

    @Test(arguments: [
        ("ctrll+t", "ctrll", 1, "ctrl"),
        ("ctrl+shfit+t", "shfit", 6, "shift"),
        ("ctrl+k ctrl+Retrun", "Retrun", 13, "Return"),
        ("media_paly", "media_paly", 1, "media_play"),
        ("XF86AudioPaly", "XF86AudioPaly", 1, "XF86AudioPlay"),
    ] as [(String, String, Int, String)])
    func typosGetSuggestions(keys: String, name: String, column: Int, suggestion: String) {
        #expect(throws: KeysError.unknownKey(name: name, column: column, suggestion: suggestion)) {
            try names.chords(keys)
        }
    }

    @Test func farOffNamesGetNoSuggestion() {
        #expect(throws: KeysError.unknownKey(name: "qqqqqqqqqqqq", column: 1, suggestion: nil)) {
            try names.chords("qqqqqqqqqqqq")
        }
        let message = "\(KeysError.unknownKey(name: "x", column: 3, suggestion: nil))"
        #expect(message.contains("column 3") && message.contains("keysym names"))
    }

    @Test(arguments: [("", 1), ("ctrl+", 1), ("a ctrl+ +b", 3), ("   ", 1)] as [(String, Int)])
    func emptyChordsAreRefused(keys: String, column: Int) {
        #expect(throws: KeysError.emptyChord(column: column)) { try names.chords(keys) }
    }

    @Test func tooManyChordsAreRefused() throws {
        let keys = Array(repeating: "a", count: KeysLimits.maximumChords + 1).joined(separator: " ")
        #expect(throws: KeysError.self) { try names.chords(keys) }
        #expect(try names.chords(Array(repeating: "a", count: KeysLimits.maximumChords).joined(separator: " ")).count
            == KeysLimits.maximumChords)
    }

    @Test func typingKeysymsCoverTextAndControls() {
        #expect(KeyNames.keysym(typing: "a") == 0x61)
        #expect(KeyNames.keysym(typing: "안") == 0x100C548)
        #expect(KeyNames.keysym(typing: "\n") == 0xFF0D)
        #expect(KeyNames.keysym(typing: "\u{07}") == nil)
        #expect(KeyNames.scalar(of: 0x100C548) == "안")
        #expect(KeyNames.name(of: 0xFFE3) == "Control_L")
    }
}
