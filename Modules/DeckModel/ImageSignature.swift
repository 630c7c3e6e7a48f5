/// The image kinds a button face shows, told by their bytes alone (docs/faces.md §3):
/// the host's check of a plugin's image (DeckWeb's `FaceImage`) and a plugin's
/// own check before it sends one (the media plugin's fetched art) are this one rule.
public enum ImageSignature: String, Hashable, Sendable, CaseIterable {
    /// PNG (`\x89PNG\r\n\x1a\n`).
    case png
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// SVG: an XML document whose root element is `svg`.
    case svg

    /// The kind the bytes' signature says, nil for anything else. Never
    /// trusts a name or a declared type: only the bytes.
    public static func sniff(_ bytes: [UInt8]) -> ImageSignature? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return isSVG(bytes) ? .svg : nil
    }

    /// An XML document whose root element is `svg`: after an optional BOM,
    /// white space, an XML declaration, comments, processing instructions
    /// and a doctype, the first element is `<svg` followed by a space, `>`
    /// or `/`. The rest is the browser's to parse (in an `<img>`, where an
    /// SVG runs no script).
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func starts(_ text: String) -> Bool {
            let utf8 = Array(text.utf8)
            return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
        }
        func skip(past end: String) -> Bool {
            let utf8 = Array(end.utf8)
            while index + utf8.count <= bytes.count {
                if bytes[index..<index + utf8.count].elementsEqual(utf8) {
                    index += utf8.count
                    return true
                }
                index += 1
            }
            return false
        }
        // A bounded number of prologue items: a crafted file cannot make this loop long.
        for _ in 0..<64 {
            skipSpace()
            if starts("<?") {
                guard skip(past: "?>") else { return false }
            } else if starts("<!--") {
                guard skip(past: "-->") else { return false }
            } else if starts("<!DOCTYPE") || starts("<!doctype") {
                guard skip(past: ">") else { return false }
            } else if starts("<svg") {
                index += 4
                guard index < bytes.count else { return false }
                return [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[index])
            } else {
                return false
            }
        }
        return false
    }
}
