#if canImport(Glibc)
import Glibc
#endif

/// Album art for a button: `mpris:artUrl` turned into image bytes the host
/// takes (PNG, JPEG or SVG, at most ``AlbumArt/maximumBytes``).
///
/// Only `file:` URLs are read. `http:` and `https:` are refused with a
/// clear error: this plugin has no HTTP client (docs/plugins.md says so).
package enum AlbumArt {
    /// The largest image a button face takes (docs/faces.md §3).
    package static let maximumBytes = 256 << 10

    /// The image at `url`, or why there is none.
    package static func load(_ url: String) -> Result<[UInt8], MediaError> {
        let lower = url.lowercased()
        if lower.hasPrefix("http:") || lower.hasPrefix("https:") {
            return .failure(MediaError("art at \(url.prefix(120)) is not fetched: the media plugin reads file: art only (no HTTP client)"))
        }
        guard lower.hasPrefix("file://") else {
            return .failure(MediaError("art URL \(url.prefix(120)) is not a file: URL"))
        }
        var rest = Substring(url.dropFirst("file://".count))
        if !rest.hasPrefix("/") {
            // file://host/path: only this machine's files.
            guard let slash = rest.firstIndex(of: "/"), rest[..<slash] == "localhost" else {
                return .failure(MediaError("art URL \(url.prefix(120)) names another host"))
            }
            rest = rest[slash...]
        }
        guard let path = percentDecoded(rest) else {
            return .failure(MediaError("art URL \(url.prefix(120)) has a bad %-escape"))
        }
        return readFile(path: path)
    }

    /// Reads a regular file of at most ``maximumBytes``; a bigger one is refused before a byte of it is read.
    package static func readFile(path: String) -> Result<[UInt8], MediaError> {
        // Non-blocking so a FIFO cannot hang the bus thread; it is refused below anyway.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(MediaError("reading art file \(path)", code: -errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(MediaError("reading art file \(path)", code: -errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(MediaError("art file \(path) is not a regular file"))
        }
        guard info.st_size <= maximumBytes else {
            return .failure(MediaError("art file \(path) is \(info.st_size) bytes, over the \(maximumBytes / 1024) KiB a button image may be"))
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return .failure(MediaError("reading art file \(path)", code: -errno)) }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else {
            return .failure(MediaError("art file \(path) grew past \(maximumBytes / 1024) KiB while it was read"))
        }
        bytes.removeSubrange(count...)
        guard isImage(bytes) else {
            return .failure(MediaError("art file \(path) is not a PNG, JPEG or SVG image"))
        }
        return .success(bytes)
    }

    /// The signatures the host sniffs: PNG, JPEG, and an XML document with an `<svg` in its first KiB.
    package static func isImage(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) { return true }
        if bytes.starts(with: [0xff, 0xd8, 0xff]) { return true }
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        return head.contains("<svg")
    }

    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte != UInt8(ascii: "%") {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
