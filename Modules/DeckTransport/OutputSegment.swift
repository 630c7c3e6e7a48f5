/// Bytes a framing or stream layer made for one connection (a WebSocket
/// frame header, TLS records): immutable once made, freed with the last reference.
package final class OutboundBytes {
    let bytes: UnsafeRawBufferPointer

    /// Copies `content`.
    package init(_ content: some Collection<UInt8>) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(content.count, 1), alignment: 1)
        let copied: Void? = content.withContiguousStorageIfAvailable { storage.copyMemory(from: UnsafeRawBufferPointer($0)) }
        if copied == nil { _ = storage.initializeMemory(as: UInt8.self, from: content) }
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<content.count])
    }

    /// Copies raw bytes.
    package convenience init(copying raw: UnsafeRawBufferPointer) {
        self.init(raw.bindMemory(to: UInt8.self))
    }

    /// The size in bytes.
    package var count: Int { bytes.count }

    deinit {
        // `bytes` starts at the allocation's base address (rebasing keeps it).
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
    }
}

/// One run of bytes waiting in a connection's ``OutputQueue``: a slice of a
/// shared ``OutboundLine`` or of ``OutboundBytes``, kept alive by `owner`.
package struct OutputSegment {
    let owner: AnyObject
    let bytes: UnsafeRawBufferPointer

    /// The whole line, LF included.
    package init(_ line: OutboundLine) {
        owner = line
        bytes = line.bytes
    }

    /// The line without its LF (a WebSocket text message's payload).
    package init(payloadOf line: OutboundLine) {
        owner = line
        bytes = UnsafeRawBufferPointer(rebasing: line.bytes[0..<(line.count - 1)])
    }

    /// All of `chunk`.
    package init(_ chunk: OutboundBytes) {
        owner = chunk
        bytes = chunk.bytes
    }

    /// The size in bytes.
    package var count: Int { bytes.count }
}
