internal import CZlib

/// zlib called directly, apart from the snapshot reader's own code, to check
/// what the reader accepted.
enum GzipCheck {
    /// The data of `file` if it is exactly one gzip member that zlib inflates
    /// to its end (zlib checks the trailer too); nil otherwise.
    static func inflate(_ file: [UInt8]) -> [UInt8]? {
        // z_stream must stay at one address (zlib keeps a pointer back to it): not an inout local.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1); stream.deallocate() }
        guard deck_inflateInit2(stream, 31) == Z_OK else { return nil }
        defer { inflateEnd(stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return file.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = uInt(buffer.count)
                    let result = CZlib.inflate(stream, Z_NO_FLUSH)
                    return (result, buffer.count - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                switch result {
                case Z_STREAM_END: return stream.pointee.avail_in == 0 ? output : nil
                case Z_OK: continue
                default: return nil
                }
            }
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32_z(0, buffer.baseAddress, buffer.count))
        }
    }
}
