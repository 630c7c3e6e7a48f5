import DeckWeb

/// Property: sniffing face images (docs/faces.md §3) never traps on any
/// bytes, a sniffed kind is what `FaceImage(bytes:)` makes of them, its
/// hash is 64 lower-case hex digits and its URL names that kind; anything
/// unsniffed is refused.
enum FaceImageFuzz {
    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let kind = FaceImage.sniff(bytes)
        do {
            let image = try FaceImage(bytes: bytes)
            try require(image.kind == kind, "FaceImage made \(image.kind) of bytes sniffed as \(String(describing: kind))")
            try require(image.hash.utf8.count == 64 && image.hash.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) },
                        "a face image's hash is not 64 lower-case hex digits: \(image.hash)")
            try require(image.path == "/faces/\(image.hash).\(image.kind.fileExtension)", "a face image's URL is \(image.path)")
        } catch {
            try require(kind == nil || bytes.count > FaceImage.maximumBytes,
                        "bytes sniffed as \(String(describing: kind)) were refused: \(error)")
        }
    }
}
