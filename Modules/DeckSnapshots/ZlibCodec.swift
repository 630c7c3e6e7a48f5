#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CZlib

/// Why a gzip file could not be inflated. `damaged` is the file's fault (set
/// it aside); `resource` is the machine's (report it, keep the file).
enum GunzipProblem: Error {
    case damaged(String)
    case resource(String)
}

/// gzip (RFC 1952) through zlib: one member per file, windowBits 31.
enum ZlibCodec {
    /// zlib level 6: on layout JSON it makes files about a third smaller than
    /// level 1 for a few milliseconds more on a 12,000-button layout (docs/snapshots.md).
    static let level: Int32 = 6
    /// zlib level 1 for journal records: a record is compressed while its
    /// edit waits for its `ok`, and level 6 took twice the instructions of
    /// level 1 (750 K against 390 K for a 13.8 KB document) for records a
    /// quarter smaller (992 against 1,238 bytes): docs/performance.md, issue 28.
    static let recordLevel: Int32 = 1

    /// zlib's CRC-32, the one gzip and PROFILE.md's `source.crc32` use.
    static func crc32(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return seed }
        return UInt32(truncatingIfNeeded: crc32_z(UInt(seed), base.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    /// Compresses `input` into one gzip member with a deflate stream of its own.
    static func gzip(_ input: [UInt8], level: Int32 = level) throws(SnapshotError) -> [UInt8] {
        try GzipDeflater(level: level).gzip(input)
    }

    fileprivate static func deflateAll(_ stream: UnsafeMutablePointer<z_stream>, _ bytes: UnsafeRawBufferPointer,
                                   flush: Int32) -> SnapshotError? {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        let result = deflate(stream, flush)
        let done = flush == Z_FINISH ? result == Z_STREAM_END : (result == Z_OK || result == Z_BUF_ERROR)
        guard done, stream.pointee.avail_in == 0 else {
            return .compression("deflate stopped early (zlib \(result))")
        }
        return nil
    }

    /// Inflates one whole gzip member. Checks the header, the CRC-32 and the
    /// length in the trailer (zlib does), and that nothing follows the member.
    static func gunzip(_ input: [UInt8], limit: Int) throws(GunzipProblem) -> [UInt8] {
        try input.withUnsafeBytes { raw in Result { () throws(GunzipProblem) in try gunzip(raw, limit: limit) } }.get()
    }

    static func gunzip(_ input: UnsafeRawBufferPointer, limit: Int) throws(GunzipProblem) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, input.count * 8)))
        let ended = try inflate(input, limit: limit) { chunk in
            output.append(contentsOf: chunk)
            return false
        }
        guard ended.streamEnded else { throw .damaged("the file is truncated") }
        guard ended.unusedInput == 0 else { throw .damaged("\(ended.unusedInput) stray bytes follow the gzip data") }
        return output
    }

    /// Inflates only as far as needed to see `marker`, and returns what came
    /// before it; nil when the marker did not show up within `limit` bytes or
    /// before `input` ran out. A damaged start still throws.
    static func gunzipPrefix(_ input: [UInt8], before marker: [UInt8], limit: Int) throws(GunzipProblem) -> [UInt8]? {
        try input.withUnsafeBytes { raw in
            Result { () throws(GunzipProblem) in try gunzipPrefix(raw, before: marker, limit: limit) }
        }.get()
    }

    static func gunzipPrefix(_ input: UnsafeRawBufferPointer, before marker: [UInt8],
                             limit: Int) throws(GunzipProblem) -> [UInt8]? {
        var output: [UInt8] = []
        var found: Int?
        _ = try inflate(input, limit: limit) { chunk in
            let searchFrom = max(0, output.count - marker.count)
            output.append(contentsOf: chunk)
            found = output[searchFrom...].firstRange(of: marker)?.lowerBound
            return found != nil
        }
        return found.map { Array(output[..<$0]) }
    }

    private struct InflateEnd {
        var streamEnded: Bool
        var unusedInput: Int
    }

    /// Runs inflate over `input`, handing each produced chunk to `sink` until it
    /// returns true (stop early), the member ends, or the input runs out.
    private static func inflate(_ input: UnsafeRawBufferPointer, limit: Int,
                                sink: (UnsafeBufferPointer<UInt8>) -> Bool) throws(GunzipProblem) -> InflateEnd {
        guard !input.isEmpty else { throw .damaged("the file is empty") }
        guard input.starts(with: [0x1F, 0x8B]) else { throw .damaged("not a gzip file") }
        guard input.count >= 18 else { throw .damaged("the file is truncated") }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1); stream.deallocate() }
        let started = deck_inflateInit2(stream, 31)
        guard started == Z_OK else { throw .resource("inflateInit2 failed (zlib \(started))") }
        defer { inflateEnd(stream) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        let chunkSize = 64 * 1024
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var produced = 0
        while true {
            stream.pointee.next_out = chunk
            stream.pointee.avail_out = uInt(chunkSize)
            let result = CZlib.inflate(stream, Z_NO_FLUSH)
            let count = chunkSize - Int(stream.pointee.avail_out)
            produced += count
            if produced > limit { throw .damaged("it inflates to more than \(limit) bytes") }
            if count > 0, sink(UnsafeBufferPointer(start: chunk, count: count)) {
                return InflateEnd(streamEnded: false, unusedInput: Int(stream.pointee.avail_in))
            }
            switch result {
            case Z_STREAM_END:
                return InflateEnd(streamEnded: true, unusedInput: Int(stream.pointee.avail_in))
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                return InflateEnd(streamEnded: false, unusedInput: 0)
            case Z_MEM_ERROR:
                throw .resource("zlib ran out of memory")
            default:
                throw .damaged(describe(stream.pointee.msg.map { String(cString: $0) }))
            }
        }
    }

    /// zlib's messages, said the way the docs and notices say them.
    private static func describe(_ message: String?) -> String {
        switch message {
        case "incorrect data check": "gzip CRC mismatch"
        case "incorrect length check": "gzip length mismatch"
        case "incorrect header check", "unknown compression method", "unknown header flags set":
            "gzip header damaged (\(message ?? ""))"
        case let message?: "damaged deflate data (\(message))"
        case nil: "damaged deflate data"
        }
    }
}

/// One deflate stream, reset between files instead of made anew.
///
/// `deflateInit2` allocates ~270 KB (window, hash chains, pending buffer) and
/// zlib clears them; for a small layout's snapshot that allocation, its page
/// faults and the clearing were most of the CPU of a write (about two thirds
/// of ~200 µs). `deflateReset` keeps the memory and gives byte-identical output.
///
/// Not thread-safe by itself. `@unchecked Sendable` so that it can live in
/// `StoreState`, which exists only inside the store's `Mutex`: every use is
/// under that lock, one thread at a time.
final class GzipDeflater: @unchecked Sendable {
    /// z_stream must stay at one address: zlib keeps a pointer back to it.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let level: Int32
    /// Whether `stream` holds zlib state that `deflateEnd` must free.
    private var initialized = false

    init(level: Int32 = ZlibCodec.level) {
        self.level = level
        stream.initialize(to: z_stream())
    }

    deinit {
        if initialized { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input` into one gzip member, deflating straight into the
    /// returned array (sized by `deflateBound`, so one call finishes).
    func gzip(_ input: [UInt8]) throws(SnapshotError) -> [UInt8] {
        if initialized {
            guard deflateReset(stream) == Z_OK else {
                release()
                throw .compression("deflateReset failed")
            }
        } else {
            let started = deck_deflateInit2(stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY)
            guard started == Z_OK else { throw .compression("deflateInit2 failed (zlib \(started))") }
            initialized = true
        }
        let bound = Int(deflateBound(stream, uLong(input.count)))
        var failure: SnapshotError?
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = uInt(buffer.count)
            failure = input.withUnsafeBytes { bytes in ZlibCodec.deflateAll(stream, bytes, flush: Z_FINISH) }
            count = buffer.count - Int(stream.pointee.avail_out)
        }
        if let failure {
            // A stream that failed midway is not reused: the next file starts from deflateInit2.
            release()
            throw failure
        }
        return output
    }

    private func release() {
        deflateEnd(stream)
        stream.pointee = z_stream()
        initialized = false
    }
}
