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
            let word = String(cString: line).trimmingSuffix()
            if !word.isEmpty { words.append(word) }
        }
        free(line)
        return words
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
