internal import CZlib

/// What a profile file held when it was read: its name, the CRC-32 of its
/// bytes (zlib's, the one gzip uses) and its size. Two fingerprints are equal
/// exactly when the host should consider the file unchanged.
///
/// Encoded as snapshots record their source (PROFILE.md §6):
/// `{"file":"default.yaml","crc32":"1c291ca3","bytes":812}`.
public struct FileFingerprint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file's name inside its folder (`default.yaml`), not a path.
    public var file: String
    /// CRC-32 (ISO-HDLC, as zlib and gzip compute it) of the whole content.
    public var crc32: UInt32
    /// Size of the content in bytes.
    public var bytes: Int

    /// A fingerprint from known values.
    public init(file: String, crc32: UInt32, bytes: Int) {
        self.file = file
        self.crc32 = crc32
        self.bytes = bytes
    }

    /// The fingerprint of `contents`, a file named `file`.
    public init(file: String, contents: [UInt8]) {
        self.init(file: file, crc32: Self.checksum(contents), bytes: contents.count)
    }

    /// The CRC-32 as eight lowercase hex digits, as snapshots store it.
    public var crc32Hex: String {
        let digits = String(crc32, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// `default.yaml (crc32 1c291ca3, 812 bytes)`.
    public var description: String { "\(file) (crc32 \(crc32Hex), \(bytes) bytes)" }

    /// zlib's CRC-32 of `contents`, fed in pieces that fit its 32-bit length.
    public static func checksum(_ contents: [UInt8]) -> UInt32 {
        contents.withUnsafeBufferPointer { buffer in
            var crc = CZlib.crc32(0, nil, 0)
            var offset = 0
            while offset < buffer.count {
                let length = min(buffer.count - offset, Int(UInt32.max))
                crc = CZlib.crc32(crc, buffer.baseAddress.map { $0 + offset }, UInt32(length))
                offset += length
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    private enum CodingKeys: String, CodingKey { case file, crc32, bytes }

    /// Decodes `{"file","crc32":"%08x","bytes"}`; a CRC that is not 1 to 8 hex digits is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let hex = try container.decode(String.self, forKey: .crc32)
        guard (1...8).contains(hex.count), let crc = UInt32(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .crc32, in: container,
                                                   debugDescription: "crc32 must be 8 hex digits, not '\(hex)'")
        }
        self.init(file: try container.decode(String.self, forKey: .file), crc32: crc,
                  bytes: try container.decode(Int.self, forKey: .bytes))
    }

    /// Encodes `{"file","crc32":"%08x","bytes"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(crc32Hex, forKey: .crc32)
        try container.encode(bytes, forKey: .bytes)
    }
}
