#if canImport(Glibc)
import Glibc
#endif
import DeckModel

/// Album art for a button: `mpris:artUrl` turned into image bytes the host
/// takes (PNG, JPEG or SVG, at most ``AlbumArt/maximumBytes``).
///
/// `file:` art is read here, on the bus thread (a regular file of at most
/// 256 KiB, opened without blocking); `http:` and `https:` art is fetched by
/// ``ArtFetcher`` on a thread of its own. ``ArtSource`` says which.
package enum AlbumArt {
    /// The largest image a button face takes (docs/faces.md §3).
    package static let maximumBytes = 256 << 10

    /// The image at a `file:` URL, or why there is none (an http(s) URL is
    /// refused here: ``ArtFetcher`` fetches those).
    package static func load(_ url: String) -> Result<[UInt8], MediaError> {
        switch Result(catching: { () throws(MediaError) in try ArtSource(url) }) {
        case .success(.file(let path)): readFile(path: path)
        case .success(.remote): .failure(MediaError("art at \(ArtSource.shown(url)) is fetched over the network, not read as a file"))
        case .failure(let error): .failure(error)
        }
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

    /// The host's own rule (``ImageSignature``): PNG, JPEG, or an XML document whose root element is `svg`.
    package static func isImage(_ bytes: [UInt8]) -> Bool {
        ImageSignature.sniff(bytes) != nil
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
