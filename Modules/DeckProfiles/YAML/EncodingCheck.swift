/// Finds bytes that are not UTF-8 and characters YAML forbids, before libyaml
/// sees the text.
///
/// libyaml decodes up to 16 KiB ahead of its parser, so its own encoding
/// error can come before (and hide) syntax errors earlier in the file, and it
/// gives a byte offset, not a line. Checking first gives every bad byte with
/// its line and column, and reading each one as U+FFFD lets the rest of the
/// file be checked too.
struct EncodingCheck {
    /// One bad spot: a byte offset and what is wrong there.
    struct Flaw {
        var offset: Int
        var message: String
    }

    private(set) var flaws: [Flaw] = []
    /// The input with every flaw replaced by U+FFFD; nil when there was none.
    private(set) var repaired: [UInt8]?
    private var input: [UInt8]
    private let maxProblems: Int

    init(_ bytes: [UInt8], maxProblems: Int) {
        input = bytes
        self.maxProblems = maxProblems
        var spans: [(offset: Int, length: Int)] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var index = 0
            let count = buffer.count
            while index < count {
                // Eight bytes at a time while they are all printable ASCII (0x20…0x7E):
                // the common case, at a fraction of a byte-by-byte loop's cost.
                if index + 8 <= count, Self.printableASCII(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                // Byte by byte up to the next eight-byte boundary, then try whole words again.
                let stop = min(count, index + 8)
                while index < stop, buffer[index] >= 0x20 && buffer[index] < 0x7F || buffer[index] == 0x0A
                        || buffer[index] == 0x0D || buffer[index] == 0x09 {
                    index += 1
                }
                if index == stop { continue }
                let byte = buffer[index]
                if byte >= 0x20 && byte < 0x7F || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    index += 1
                    continue
                }
                if byte < 0x80 {
                    flaws.append(Flaw(offset: index, message: Self.controlMessage(UInt32(byte))))
                    spans.append((index, 1))
                    index += 1
                    continue
                }
                guard let (scalar, length) = UTF8Decoding.decode(buffer, at: index) else {
                    flaws.append(Flaw(offset: index, message: "byte 0x\(YAMLText.hex(UInt32(byte), digits: 2)) is not valid UTF-8; save the file as UTF-8"))
                    spans.append((index, 1))
                    index += 1
                    continue
                }
                if !UTF8Decoding.isPrintable(scalar) {
                    flaws.append(Flaw(offset: index, message: Self.controlMessage(scalar)))
                    spans.append((index, length))
                }
                index += length
            }
        }
        guard !spans.isEmpty else { return }
        var fixed: [UInt8] = []
        fixed.reserveCapacity(bytes.count + 2 * spans.count)
        var copied = 0
        for span in spans {
            fixed.append(contentsOf: bytes[copied..<span.offset])
            fixed.append(contentsOf: [0xEF, 0xBF, 0xBD])
            copied = span.offset + span.length
        }
        fixed.append(contentsOf: bytes[copied...])
        repaired = fixed
    }

    /// True when all eight bytes of `word` are in 0x20…0x7E (SWAR: a byte
    /// below 0x20 borrows into its top bit when 0x20 is subtracted; a byte
    /// above 0x7E sets its top bit when 1 is added or already has it set).
    private static func printableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs
        let above = ((word & ~highs) &+ ones) | word
        return below == 0 && above & highs == 0
    }

    /// The flaws as problems with positions; past `maxProblems`, one summary line.
    func problems(file: String) -> [FileProblem] {
        guard !flaws.isEmpty else { return [] }
        let shown = Array(flaws.prefix(maxProblems + 1))
        let marks = input.withUnsafeBufferPointer { TextPosition.positions(ofOffsets: shown.map(\.offset), in: $0) }
        return zip(shown, marks).enumerated().map { number, item in
            let (flaw, mark) = item
            let message = number < maxProblems ? flaw.message
                : "\(flaws.count - maxProblems) more bytes from here on are not valid UTF-8 or are control characters"
            return FileProblem(file: file, line: mark.line, column: mark.column, message: message)
        }
    }

    private static func controlMessage(_ scalar: UInt32) -> String {
        "control character U+\(YAMLText.hex(scalar, digits: 4)) is not allowed in YAML"
    }
}

/// Strict UTF-8 decoding and YAML 1.1's printable set, shared by the encoding
/// check, position counting and export.
enum UTF8Decoding {
    /// The scalar starting at `index` and its length in bytes, or nil when the
    /// bytes there are not well-formed UTF-8 (overlong forms and surrogates included).
    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let lead = buffer[index]
        let length: Int
        var scalar: UInt32
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return (UInt32(lead), 1)
        case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
        case 0xE0: length = 3; scalar = 0; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
        case 0xED: length = 3; scalar = 0x0D; high = 0x9F
        case 0xF0: length = 4; scalar = 0; low = 0x90
        case 0xF1...0xF3: length = 4; scalar = UInt32(lead & 0x07)
        case 0xF4: length = 4; scalar = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= buffer.count else { return nil }
        for offset in 1..<length {
            let byte = buffer[index + offset]
            let range = offset == 1 ? low...high : 0x80...0xBF
            guard range.contains(byte) else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        return (scalar, length)
    }

    /// YAML 1.1's printable characters: what libyaml and PyYAML accept in a stream.
    static func isPrintable(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

/// Line and column of byte offsets, counted the way libyaml counts its marks:
/// one column per character, and `\r\n`, `\r`, `\n`, U+0085, U+2028 and
/// U+2029 each end a line. A byte that is not UTF-8 counts as one character.
enum TextPosition {
    /// Positions of `offsets` (any order) in one pass over `text`.
    static func positions(ofOffsets offsets: [Int], in text: UnsafeBufferPointer<UInt8>) -> [YAMLMark] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var result = Array(repeating: YAMLMark(line: 1, column: 1), count: offsets.count)
        var next = 0
        var index = 0, line = 1, column = 1
        while next < order.count {
            while next < order.count, offsets[order[next]] <= index {
                result[order[next]] = YAMLMark(line: line, column: column)
                next += 1
            }
            guard index < text.count else { break }
            let (scalar, length) = UTF8Decoding.decode(text, at: index) ?? (0xFFFD, 1)
            switch scalar {
            case 0x0D where index + 1 < text.count && text[index + 1] == 0x0A:
                index += 2; line += 1; column = 1
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029:
                index += length; line += 1; column = 1
            default:
                index += length; column += 1
            }
        }
        for remaining in order[next...] { result[remaining] = YAMLMark(line: line, column: column) }
        return result
    }
}
