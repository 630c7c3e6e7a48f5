import Glibc

/// The bytes waiting to be written to one connection: segments of shared
/// ``OutboundLine`` buffers (or of a layer's ``OutboundBytes``) plus how far
/// into the first one the kernel has taken. Nothing is copied; a broadcast
/// line sits in many queues at once.
struct OutputQueue {
    private var lines: [OutputSegment] = []
    private var head = 0
    private var firstOffset = 0
    /// Bytes not yet taken by the kernel.
    private(set) var pendingBytes = 0

    var isEmpty: Bool { head == lines.count }

    mutating func append(_ segment: OutputSegment) {
        guard segment.count > 0 else { return }
        lines.append(segment)
        pendingBytes += segment.count
    }

    /// Describes up to `capacity` pending buffers as iovecs; returns how many.
    func fill(_ iovecs: UnsafeMutablePointer<iovec>, capacity: Int) -> Int {
        var filled = 0
        var index = head
        while index < lines.count && filled < capacity {
            let bytes = lines[index].bytes
            let skip = index == head ? firstOffset : 0
            // iovec wants a mutable pointer; sendmsg only reads through it.
            iovecs[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
                                   iov_len: bytes.count - skip)
            filled += 1
            index += 1
        }
        return filled
    }

    /// Forgets the first `written` pending bytes (a partial write stops mid-line).
    mutating func consume(_ written: Int) {
        var left = written
        pendingBytes -= written
        while left > 0 && head < lines.count {
            let remaining = lines[head].count - firstOffset
            if left < remaining {
                firstOffset += left
                return
            }
            left -= remaining
            head += 1
            firstOffset = 0
        }
        if head == lines.count {
            // Keep a small array for the next line; free a big one.
            lines.removeAll(keepingCapacity: lines.capacity <= 8)
            head = 0
            firstOffset = 0
        } else if head >= 32 && head * 2 >= lines.count {
            lines.removeFirst(head)
            head = 0
        }
    }

    /// Drops everything (the connection closed); frees the array too.
    mutating func removeAll() {
        lines = []
        head = 0
        firstOffset = 0
        pendingBytes = 0
    }
}
