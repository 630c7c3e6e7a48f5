#if canImport(Glibc)
import Glibc
#endif
import KeysPlugin
import Testing

/// The uinput back end against golden records: this machine has no
/// /dev/uinput, so the keyboard writes to a temporary file instead of the
/// device, and the 24-byte `input_event` records are read back as text.
@Suite struct UInputGoldenTests {
    /// Runs `work` on a keyboard over a temporary file; the records it wrote, one a line.
    static func records(layout: String, _ work: (UInputKeyboard) throws -> Void) throws -> String {
        var template = Array("/tmp/deck-uinput-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        #expect(descriptor >= 0)
        defer { close(descriptor); unlink(template) }
        try work(try UInputKeyboard(descriptor: descriptor, layout: layout))
        let size = Int(lseek(descriptor, 0, SEEK_END))
        #expect(size % 24 == 0, "records of 24 bytes: timeval, type, code, value")
        var bytes = [UInt8](repeating: 0, count: size)
        _ = pread(descriptor, &bytes, size, 0)
        var lines: [String] = []
        for offset in stride(from: 0, to: size, by: 24) {
            #expect(bytes[offset..<offset + 16].allSatisfy { $0 == 0 }, "the kernel stamps the time")
            let type = UInt16(bytes[offset + 16]) | UInt16(bytes[offset + 17]) << 8
            let code = UInt16(bytes[offset + 18]) | UInt16(bytes[offset + 19]) << 8
            let value = Int32(bitPattern: UInt32(bytes[offset + 20]) | UInt32(bytes[offset + 21]) << 8
                | UInt32(bytes[offset + 22]) << 16 | UInt32(bytes[offset + 23]) << 24)
            lines.append(type == 0 ? "SYN" : "KEY \(code) \(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func golden(_ name: String) -> String {
        let folder = String(#filePath.dropLast("UInputGoldenTests.swift".count)) + "Goldens/"
        guard let file = fopen(folder + name, "r") else { return "(no golden \(name))" }
        defer { fclose(file) }
        var text = ""
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0, let line {
            let read = String(cString: line)
            if !read.hasPrefix("#") { text += read }
        }
        free(line)
        return text
    }

    @Test(arguments: [
        ("us", "ctrl+shift+t", "uinput-us-ctrl-shift-t.txt"),
        ("de", "ctrl+shift+t", "uinput-de-ctrl-shift-t.txt"),
        ("us", "ctrl+k ctrl+c", "uinput-us-ctrl-k-ctrl-c.txt"),
    ])
    func chordsWriteTheirKeysInOrder(layout: String, keys: String, golden: String) throws {
        let chords = try names.chords(keys)
        let written = try Self.records(layout: layout) { keyboard in try keyboard.tap(chords) }
        #expect(written == Self.golden(golden))
    }

    @Test(arguments: [("us", "Hi @y", "uinput-us-type.txt"), ("de", "Hi yz", "uinput-de-type.txt")])
    func textIsTypedThroughTheLayout(layout: String, text: String, golden: String) throws {
        let written = try Self.records(layout: layout) { keyboard in try keyboard.type(text) }
        #expect(written == Self.golden(golden))
    }

    @Test func aHoldIsReleasedOnReleaseAndAtTheEnd() throws {
        let written = try Self.records(layout: "us") { keyboard in
            let shift = try names.chords("shift")
            try keyboard.hold(shift, for: ButtonKey(page: 0, index: 0))
            keyboard.release(ButtonKey(page: 0, index: 0))
            try keyboard.hold(try names.chords("ctrl+a"), for: ButtonKey(page: 0, index: 1))
            keyboard.releaseAll()
        }
        #expect(written == Self.golden("uinput-hold.txt"))
    }

    @Test func textOffTheLayoutIsRefusedBeforeAnyKey() throws {
        var refused: KeysError?
        let written = try Self.records(layout: "us") { keyboard in
            do throws(KeysError) { try keyboard.type("ab안") } catch { refused = error }
        }
        #expect(written == "\n")
        #expect("\(refused.map { "\($0)" } ?? "")".contains("not on the keyboard layout"))
    }

    /// What `deckctl plugins keys` shows for it (`setStatus`), refusals or not.
    @Test(arguments: ["us", "de"])
    func itsStatusNamesTheBackEndAndTheLayout(layout: String) throws {
        var statuses: [String] = []
        _ = try Self.records(layout: layout) { keyboard in
            statuses.append(keyboard.status)
            do throws(KeysError) { try keyboard.type("안") } catch {}
            statuses.append(keyboard.status)
        }
        #expect(statuses == Array(repeating: "keyboard back end: uinput virtual keyboard (\(layout))", count: 2))
    }
}
