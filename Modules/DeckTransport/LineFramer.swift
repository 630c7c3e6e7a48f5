#if canImport(FoundationEssentials)
import FoundationEssentials  // Data without the rest of Foundation (about 7 MB less resident memory)
#else
import Foundation
#endif
import Glibc

/// Splits a byte stream into LF-terminated lines and enforces the line limit
/// (a lower one for the first line, a handshake, when one is given).
///
/// Reads land in a buffer shared by the whole loop; complete lines are cut
/// straight out of it (one `memchr` per line, one copy into the delivered
/// `Data`), and only an unfinished tail is kept per connection. So an idle
/// connection holds no buffer at all, and a split line costs one append.
struct LineFramer {
    /// Why feeding stopped.
    enum Outcome: Equatable {
        /// Every byte was consumed; an unfinished line (if any) is buffered.
        case consumed
        /// `deliver` asked to stop; the rest of the input is buffered.
        case stopped
        /// A line is longer than the limit (detected as soon as it is, LF or not).
        case tooLong
    }

    /// The longest line accepted, LF not counted.
    let maxLineBytes: Int
    /// The longest first line accepted (a handshake's), LF not counted.
    let maxFirstLineBytes: Int
    /// Whether a line was delivered: from then on `maxLineBytes` applies.
    private var deliveredALine = false
    /// The limit of the line being framed now.
    private var limit: Int { deliveredALine ? maxLineBytes : maxFirstLineBytes }

    /// Bytes after the last delivered line: an unfinished line, or after a
    /// stop, complete lines not delivered yet.
    private(set) var buffered: [UInt8] = []

    /// Whether `buffered` may hold complete lines (only after a stop).
    private(set) var holdsCompleteLines = false

    /// A framer whose first line may be at most `maxFirstLineBytes` (never
    /// more than `maxLineBytes`; nil: `maxLineBytes`), and every later one
    /// `maxLineBytes`.
    init(maxLineBytes: Int, maxFirstLineBytes: Int? = nil) {
        self.maxLineBytes = maxLineBytes
        self.maxFirstLineBytes = min(maxFirstLineBytes ?? maxLineBytes, maxLineBytes)
    }

    /// Feeds freshly read bytes, calling `deliver` for each complete line (LF
    /// removed) until it returns false. Must not be called while
    /// ``holdsCompleteLines`` is true: deliver those with ``deliverBuffered(_:)`` first.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ deliver: (Data) -> Bool) -> Outcome {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return .consumed }
        let count = chunk.count
        var offset = 0
        if !buffered.isEmpty {
            // The start of this line arrived earlier.
            guard let lf = Self.indexOfLF(base, from: 0, to: count) else {
                if buffered.count + count > limit { return .tooLong }
                buffered.append(contentsOf: chunk)
                return .consumed
            }
            if buffered.count + lf > limit { return .tooLong }
            buffered.append(contentsOf: UnsafeBufferPointer(start: base, count: lf))
            let line = Data(buffered)
            buffered = []
            offset = lf + 1
            deliveredALine = true
            if !deliver(line) { return keep(base, from: offset, to: count) }
        }
        while offset < count {
            guard let lf = Self.indexOfLF(base, from: offset, to: count) else {
                if count - offset > limit { return .tooLong }
                buffered.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: count - offset))
                return .consumed
            }
            if lf - offset > limit { return .tooLong }
            let line = Data(bytes: base + offset, count: lf - offset)
            offset = lf + 1
            deliveredALine = true
            if !deliver(line) { return keep(base, from: offset, to: count) }
        }
        return .consumed
    }

    /// Delivers the complete lines kept by an earlier stop, until `deliver`
    /// returns false again.
    mutating func deliverBuffered(_ deliver: (Data) -> Bool) -> Outcome {
        guard holdsCompleteLines else { return .consumed }
        var start = 0
        var outcome = Outcome.consumed
        buffered.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            while let lf = Self.indexOfLF(base, from: start, to: all.count) {
                if lf - start > limit { outcome = .tooLong; return }
                let line = Data(bytes: base + start, count: lf - start)
                start = lf + 1
                deliveredALine = true
                if !deliver(line) { outcome = .stopped; return }
            }
            if all.count - start > limit { outcome = .tooLong }
        }
        if outcome == .tooLong { return .tooLong }
        buffered.removeFirst(start)
        if outcome == .consumed {
            holdsCompleteLines = false
            if buffered.isEmpty { buffered = [] }
        }
        return outcome
    }

    /// Forgets everything buffered (the connection is closing).
    mutating func reset() {
        buffered = []
        holdsCompleteLines = false
    }

    private mutating func keep(_ base: UnsafePointer<UInt8>, from offset: Int, to count: Int) -> Outcome {
        if offset < count {
            buffered.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: count - offset))
            holdsCompleteLines = true
        }
        return .stopped
    }

    /// The index of the first LF in `base[from..<to]`, found with `memchr`.
    @inline(__always)
    static func indexOfLF(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let hit = memchr(base + from, 0x0A, to - from) else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }
}
