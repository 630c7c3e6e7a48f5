import DeckModel
import DeckSnapshots
import DeckTestSupport
import Foundation
import Testing

@Suite("Profile names as folder names")
struct ProfileNameTests {
    static let hostile = [
        "default", "../../escape", "a/b", "/abs", ".", "..", ".hidden", "a\0b", "%41", "%", "line\nbreak",
        "tab\there", "spaces in name", "다음 페이지", "🎙️ Stream", "ünïcødé", "\u{202E}evil", "zero\u{200B}width",
        "\u{301}leading mark", "a..b", "trailing.", "back\\slash", "*?<>|:\"'", "CON", "-dash",
        String(repeating: "x", count: 255),
    ]

    @Test("every name stays one folder inside snapshots/, and decodes back", arguments: hostile)
    func staysInside(name: String) throws {
        let folder = try ProfileFolderName.encode(name)
        #expect(!folder.isEmpty && folder.utf8.count <= 255)
        #expect(!folder.contains("/") && !folder.contains("\0") && !folder.hasPrefix("."))
        #expect(!folder.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        #expect(ProfileFolderName.decode(folder) == name)

        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try store.write(sampleEntry(1, profile: name))
        let entries = try FileManager.default.contentsOfDirectory(atPath: sandbox.state + "/snapshots")
        #expect(Set(entries) == [".lock", folder])
        #expect(try store.read(profile: name, generation: 1).info.profile == name)
        #expect(try store.profiles() == [name])
    }

    @Test("plain names stay readable; others are percent-encoded per UTF-8 byte")
    func examples() throws {
        #expect(try ProfileFolderName.encode("default") == "default")
        #expect(try ProfileFolderName.encode("다음") == "다음")
        #expect(try ProfileFolderName.encode("../x") == "%2E.%2Fx")
        #expect(try ProfileFolderName.encode("a b%") == "a%20b%25")
        #expect(try ProfileFolderName.encode("🎙") == "%F0%9F%8E%99")
    }

    @Test("all distinct names get distinct folders")
    func distinct() throws {
        let folders = try Self.hostile.map(ProfileFolderName.encode)
        #expect(Set(folders).count == Self.hostile.count)
    }

    @Test("canonically equal spellings share one folder")
    func canonical() throws {
        #expect(try ProfileFolderName.encode("caf\u{E9}") == ProfileFolderName.encode("cafe\u{301}"))
    }

    @Test("empty and too-long names are refused with a reason")
    func refused() throws {
        #expect(throws: SnapshotError.invalidProfileName(name: "", reason: "the name is empty")) {
            try ProfileFolderName.encode("")
        }
        let long = String(repeating: "/", count: 100)
        let error = try #require(throws: SnapshotError.self) { try ProfileFolderName.encode(long) }
        #expect(error.description.contains("300 bytes, more than the 255"))
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        #expect(store.write([sampleEntry(1, profile: long)]).failure == error)
    }

    @Test("folders this encoding never makes are not taken for profiles")
    func strayFolders() {
        #expect(ProfileFolderName.decode("a%2") == nil)
        #expect(ProfileFolderName.decode("a%zz") == nil)
        #expect(ProfileFolderName.decode("a b") == nil)
        #expect(ProfileFolderName.decode("%61") == nil)
        #expect(ProfileFolderName.decode("%FF") == nil)
    }
}

/// The ASCII names a folder keeps byte for byte take a shortcut in
/// `ProfileFolderName.encode`; these hold it to the rule written out by hand.
@Suite("Profile names: the ASCII shortcut")
struct ProfileNameASCIITests {
    /// The rule for one ASCII byte, as docs/snapshots.md states it.
    static func expected(_ name: String) -> String {
        var folder = ""
        for (offset, byte) in name.utf8.enumerated() {
            let kept = switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            case UInt8(ascii: "."): offset > 0
            default: false
            }
            folder += kept ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        return folder
    }

    @Test("every ASCII name of up to two bytes, and random longer ones, encode as the rule says")
    func asciiNames() throws {
        var names: [String] = []
        for first in UInt8(1)..<0x80 {
            names.append(String(UnicodeScalar(first)))
            for second in [UInt8(ascii: "a"), UInt8(ascii: "."), UInt8(ascii: "%"), UInt8(ascii: " "), UInt8(ascii: "/"), 0x7F] {
                names.append(String(decoding: [first, second], as: UTF8.self))
            }
        }
        var random = SeededGenerator(seed: 28)
        for _ in 0..<500 {
            let length = Int(random.next() % 40) + 1
            names.append(String(decoding: (0..<length).map { _ in UInt8(random.next() % 0x7F) + 1 }, as: UTF8.self))
        }
        for name in names {
            let folder = try ProfileFolderName.encode(name)
            #expect(folder == Self.expected(name), "\(name.debugDescription)")
            #expect(ProfileFolderName.decode(folder) == name)
        }
    }

    @Test("a kept name of 255 bytes is its own folder; one of 256 is refused")
    func lengthBoundary() throws {
        #expect(try ProfileFolderName.encode(String(repeating: "a", count: 255)) == String(repeating: "a", count: 255))
        #expect(throws: SnapshotError.self) { try ProfileFolderName.encode(String(repeating: "a", count: 256)) }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
