/// The keys one kind of mapping in a profile may have, matched against a
/// key's bytes without making a String (this runs for every key of every button).
protocol ProfileKeys: CaseIterable, RawRepresentable<String>, Hashable, Sendable {
    /// The keys packed for matching; declare as `static let table = KeyTable<Self>()`.
    static var table: KeyTable<Self> { get }
}

/// Each key of `K` packed into two 64-bit words, so matching a key is a few
/// integer compares: no String, no generic collection code, no retains.
struct KeyTable<K: ProfileKeys>: Sendable {
    private struct Packed: Sendable {
        var low: UInt64
        var high: UInt64
        var count: Int
    }

    private let packed: [Packed]
    private let keys: [K]

    init() {
        keys = Array(K.allCases)
        // Keys are short words; one longer than 16 bytes would never match (and none is).
        packed = keys.map { key in
            let bytes = Array(key.rawValue.utf8)
            let count = bytes.count <= 16 ? bytes.count : -1
            return bytes.withUnsafeBufferPointer { Self.pack($0, count: count) }
        }
    }

    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> Packed {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes).prefix(16))) }
        return Packed(low: words.0, high: words.1, count: count)
    }

    /// The key spelled exactly `bytes`, with its position among `K`'s cases.
    func match(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: K, index: Int)? {
        guard bytes.count <= 16 else { return nil }
        let wanted = Self.pack(bytes, count: bytes.count)
        for index in packed.indices {
            let entry = packed[index]
            if entry.count == wanted.count && entry.low == wanted.low && entry.high == wanted.high {
                return (keys[index], index)
            }
        }
        return nil
    }
}

extension Character {
    /// `0` to `9` only (not other scripts' digits).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
