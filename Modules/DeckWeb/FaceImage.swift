internal import DeckModel
internal import DeckDigest
import Synchronization

/// An image a plugin sent for a button's face (docs/faces.md §3, §4): its
/// bytes, the type sniffed from them, and their SHA-256 as its name.
public struct FaceImage: Hashable, Sendable {
    /// The kinds of image a face may show.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// PNG (`\x89PNG\r\n\x1a\n`).
        case png
        /// JPEG (`FF D8 FF`).
        case jpeg
        /// SVG: an XML document whose root element is `svg`.
        case svg

        /// The media type.
        public var mediaType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .svg: "image/svg+xml"
            }
        }

        /// The file extension of its URL.
        public var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            case .svg: "svg"
            }
        }
    }

    /// Why bytes cannot be a face image: a sentence for the host's log.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// Over ``FaceImage/maximumBytes``.
        case tooLarge(bytes: Int)
        /// Not PNG, JPEG or SVG.
        case unknownType

        /// The sentence.
        public var description: String {
            switch self {
            case .tooLarge(let bytes):
                "the image is \(bytes) bytes, more than \(FaceImage.maximumBytes)"
            case .unknownType:
                "the image is not PNG, JPEG or SVG (its first bytes are none of theirs)"
            }
        }
    }

    /// The largest image (256 KiB), as the plugin protocol bounds it.
    public static let maximumBytes = 256 << 10

    /// The bytes.
    public let bytes: [UInt8]
    /// What they are.
    public let kind: Kind
    /// Lower-case hex SHA-256 of ``bytes``.
    public let hash: String

    /// Checks and names `bytes`: sniffs the type, bounds the size, hashes them.
    public init(bytes: [UInt8]) throws(Refusal) {
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(bytes: bytes.count) }
        guard let kind = Self.sniff(bytes) else { throw .unknownType }
        self.bytes = bytes
        self.kind = kind
        self.hash = Self.sha256Hex(bytes)
    }

    /// `/faces/HASH.EXT`, the URL on the web listener.
    public var path: String { "/faces/\(hash).\(kind.fileExtension)" }

    // MARK: Sniffing

    /// The kind the bytes' signature says, nil for anything else. Never
    /// trusts a name or a declared type: only the bytes (``ImageSignature``,
    /// the rule plugins check their images by too).
    public static func sniff(_ bytes: [UInt8]) -> Kind? {
        ImageSignature.sniff(bytes).flatMap { Kind(rawValue: $0.rawValue) }
    }

    static func sha256Hex(_ bytes: [UInt8]) -> String { Digest.hex(Digest.sha256(bytes)) }
}

/// The images faces show now, by hash: what `GET /faces/HASH.EXT` serves.
///
/// The host adds an image when a face starts to show it and removes it when
/// no face does (docs/faces.md §4: 404 after). Shared between the host's
/// loop and the web server, so behind a mutex; in memory only.
public final class FaceImageStore: Sendable {
    private let images = Mutex<[String: FaceImage]>([:])

    /// An empty store.
    public init() {}

    /// Makes `image` available.
    public func add(_ image: FaceImage) {
        images.withLock { $0[image.hash] = image }
    }

    /// Forgets the image with `hash`.
    public func remove(hash: String) {
        images.withLock { _ = $0.removeValue(forKey: hash) }
    }

    /// The image with `hash`, nil when no face shows it.
    public func image(hash: String) -> FaceImage? {
        images.withLock { $0[hash] }
    }

    /// How many images are kept.
    public var count: Int { images.withLock { $0.count } }
}
