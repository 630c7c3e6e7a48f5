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

    /// Copies one complete line, given with or without its final LF (the
    /// LF is added when missing), so an encoder's output such as
    /// DeckProtocol's `HostMessage.line()` can be passed as it is. Throws
    /// ``TransportError/lineContainsNewline`` when an LF appears anywhere
    /// before the end: it would arrive as several lines.
    public init(_ content: some Collection<UInt8>) throws(TransportError) {
        let given = content.count
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: given + 1, alignment: 1)
        let copied: Void? = content.withContiguousStorageIfAvailable { source in
            storage.copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil {
            _ = storage.initializeMemory(as: UInt8.self, from: content)
        }
        let size = given > 0 && storage[given - 1] == 0x0A ? given : given + 1
        storage[size - 1] = 0x0A
        if size > 1, let base = storage.baseAddress, memchr(base, 0x0A, size - 1) != nil {
            storage.deallocate()
            throw .lineContainsNewline
        }
        // Same base address as the allocation, so `deinit` frees all of it.
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<size])
    }

    /// The line `text` (UTF-8, with or without its final LF).
    public convenience init(_ text: String) throws(TransportError) {
        try self.init(text.utf8)
    }

    /// The line's bytes, LF included (a copy).
    public var data: Data { Data(bytes) }

    deinit {
        bytes.deallocate()
    }
}
