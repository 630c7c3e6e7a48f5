import DeckModel

/// Writes a layout as the JSON of PROTOCOL.md §3, straight into bytes.
///
/// `JSONEncoder` took ~118 ms for a 12,000-button layout on the development
/// machine, about ten times the rest of a snapshot write (deflate and flush);
/// this writer takes a few milliseconds. It mirrors DeckModel's `Codable`
/// forms key for key: if a field is added there, add it here — the test
/// `LayoutJSONTests` decodes this output with `JSONDecoder` and compares it
/// with `JSONEncoder`'s on random layouts, so a forgotten field fails it.
struct LayoutJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A layout's JSON; throws only for a number JSON cannot hold (infinity, NaN),
    /// as `JSONEncoder` would.
    static func encode(_ layout: DeckLayout) throws(SnapshotError) -> [UInt8] {
        var writer = LayoutJSONWriter(capacity: estimatedSize(of: layout))
        try writer.write(layout)
        return writer.bytes
    }

    /// Enough for most layouts in one allocation (a button is ~100 bytes of JSON).
    static func estimatedSize(of layout: DeckLayout) -> Int {
        256 + layout.pages.count * (16 + layout.slotsPerPage * 96)
    }

    /// Appends the layout's JSON.
    mutating func write(_ layout: DeckLayout) throws(SnapshotError) {
        raw(#"{"slotsPerPage":"#)
        raw(String(layout.slotsPerPage))
        raw(#","pages":["#)
        for (number, page) in layout.pages.enumerated() {
            if number > 0 { byte(",") }
            byte("{")
            if let title = page.title {
                raw(#""title":"#)
                string(title)
                byte(",")
            }
            raw(#""buttons":["#)
            for (slot, button) in page.buttons.enumerated() {
                if slot > 0 { byte(",") }
                if let button { try write(button) } else { raw("null") }
            }
            raw("]}")
        }
        raw("]}")
    }

    private mutating func write(_ button: DeckButton) throws(SnapshotError) {
        raw(#"{"name":"#)
        string(button.name)
        if let icon = button.icon {
            raw(#","icon":"#)
            string(icon)
        }
        raw(#","action":{"#)
        switch button.action {
        case let .run(command, cwd, timeout):
            raw(#""run":"#)
            string(command)
            if let cwd {
                raw(#","cwd":"#)
                string(cwd)
            }
            if let timeout {
                raw(#","timeout":"#)
                try number(timeout)
            }
        case let .open(target):
            raw(#""open":"#)
            string(target)
        case let .page(target):
            raw(#""page":"#)
            switch target {
            case .next: raw(#""next""#)
            case .previous: raw(#""previous""#)
            case .number(let page): raw(String(page))
            }
        case let .profile(name):
            raw(#""profile":"#)
            string(name)
        case let .plugin(id, command, settings):
            raw(#""plugin":"#)
            string(id)
            raw(#","command":"#)
            string(command)
            if let settings {
                raw(#","settings":"#)
                try value(.object(settings))
            }
        }
        raw("}}")
    }

    private mutating func value(_ value: DeckValue) throws(SnapshotError) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .int(let number): raw(String(number))
        case .double(let number): try self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            byte("[")
            for (index, item) in items.enumerated() {
                if index > 0 { byte(",") }
                try self.value(item)
            }
            byte("]")
        case .object(let members):
            byte("{")
            // Sorted, so the same layout always makes the same bytes.
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { byte(",") }
                string(key)
                byte(":")
                if let member = members[key] { try self.value(member) }
            }
            byte("}")
        }
    }

    /// Integral values without a fraction (`600`, as JSONEncoder writes them),
    /// others in Swift's shortest round-trip form (`2.5`, `1e-05`), both valid JSON.
    private mutating func number(_ number: Double) throws(SnapshotError) {
        guard number.isFinite else { throw .encoding("\(number) cannot be written as JSON") }
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            raw(String(Int64(number)))
        } else {
            raw(String(number))
        }
    }

    /// Appends `text` as a JSON string literal.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most names need no escaping: copy them in one go.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true {
            for unit in text.utf8 { escaped(unit) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ unit: UInt8) -> Bool {
        unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\")
    }

    private mutating func escaped(_ unit: UInt8) {
        switch unit {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        case 0..<0x20:
            raw("\\u00")
            bytes.append(Self.hex[Int(unit >> 4)])
            bytes.append(Self.hex[Int(unit & 0xF)])
        default: bytes.append(unit)
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Appends text that is already JSON.
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    private mutating func byte(_ character: Unicode.Scalar) { bytes.append(UInt8(character.value)) }
}
