#if canImport(FoundationEssentials)
import FoundationEssentials  // Data without the rest of Foundation (about 7 MB less resident memory)
#else
import Foundation
#endif
import Glibc

/// One complete line to send, LF included, in an immutable buffer that any
/// number of connections can queue at once.
///
/// A broadcast makes one `OutboundLine` and hands the same object to every
/// connection: each queue holds a reference, the bytes are never copied per
/// connection, and the buffer is freed when the last connection has written it.
public final class OutboundLine: @unchecked Sendable {
    // @unchecked Sendable: the buffer is allocated and filled in `init`, never
    // written again, and freed only in `deinit` (when no reference remains),
    // so concurrent readers on any thread see constant bytes.
    let bytes: UnsafeRawBufferPointer

    /// The line's size in bytes, its LF included.
    public var count: Int { bytes.count }

    /// Copies `content` (the line without its LF) and appends the LF.
    /// Throws ``TransportError/lineContainsNewline`` when `content` holds a
    /// line feed, which would split it into several lines on the wire.
    public init(_ content: some Collection<UInt8>) throws(TransportError) {
        let size = content.count + 1
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        let copied: Void? = content.withContiguousStorageIfAvailable { source in
            storage.copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil {
            _ = storage.initializeMemory(as: UInt8.self, from: content)
        }
        storage[size - 1] = UInt8(ascii: "\n")
        if size > 1, let base = storage.baseAddress, memchr(base, 0x0A, size - 1) != nil {
            storage.deallocate()
            throw .lineContainsNewline
        }
        bytes = UnsafeRawBufferPointer(storage)
    }

    /// The line `text` (UTF-8, without its LF).
    public convenience init(_ text: String) throws(TransportError) {
        try self.init(text.utf8)
    }

    /// The line's bytes, LF included (a copy).
    public var data: Data { Data(bytes) }

    deinit {
        bytes.deallocate()
    }
}
