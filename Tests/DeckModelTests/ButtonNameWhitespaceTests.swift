import DeckModel
import Testing

@Suite("Button names made only of white space")
struct ButtonNameWhitespaceTests {
    @Test("are refused, whatever white space they use", arguments: [
        "", " ", "\t", "\n\r", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{200B}", " \u{2003} ",
    ])
    func refused(name: String) {
        #expect(throws: DeckModelError.invalidButton("a button needs a non-empty name")) {
            try DeckButton(name: name, action: .open("~")).validate()
        }
    }

    @Test("pass when anything visible is in them", arguments: [" a ", "\u{3000}다", "\u{200B}x", "\u{301}", "🎙️"])
    func accepted(name: String) throws {
        try DeckButton(name: name, action: .open("~")).validate()
    }
}
