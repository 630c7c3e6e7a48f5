#if canImport(Glibc)
import Glibc
#endif

extension KeyNames {
    /// The words of a file, one a line (the keysym names); none when it cannot be read.
    public static func words(inFile path: String) -> [String] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var words: [String] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0, let line {
            let word = trimmedLine(UnsafeBufferPointer(start: UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self), count: strlen(line)))
            if !word.isEmpty { words.append(word) }
        }
        free(line)
        return words
    }

    /// A line without its trailing whitespace. ASCII spaces and line ends go
    /// as bytes; only a line that then ends in a non-ASCII byte is trimmed by
    /// `Character` (a no-break space, say): walking every line's `Character`s
    /// was ~17 M instructions of each start for the 31 KB keysym list.
    package static func trimmedLine(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var end = bytes.count
        while end > 0, (0x09...0x0D).contains(bytes[end - 1]) || bytes[end - 1] == 0x20 { end -= 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        return end > 0 && bytes[end - 1] >= 0x80 ? text.trimmingSuffix() : text
    }
}

extension String {
    /// Without trailing whitespace, as `Character.isWhitespace` says.
    package func trimmingSuffix() -> String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
