import DeckPluginKit
import Glibc

/// How one turn's read of a plugin's output or stderr went.
enum PipeReading: Equatable {
    /// Read the budget of one turn; more may be waiting (the watch fires again).
    case more
    /// Nothing more to read now.
    case drained
    /// End of file or an error: nothing more will come.
    case ended

    /// Reads what `fd` (non-blocking) has, at most `budget` bytes, into
    /// `splitter`, handing each line (or too-long line) to `each`.
    ///
    /// The budget is what bounds one loop turn's work for a plugin that
    /// writes without end: every line read is parsed, so it is kept small
    /// (``PluginPolicy/readBudget``); the watch is level-triggered, so what is
    /// left is read on the next turn, after the loop served everything else.
    static func read(_ fd: Int32, buffer: inout [UInt8], budget: Int, into splitter: inout LineSplitter,
                     _ each: (LineSplitter.Piece) -> Void) -> PipeReading {
        var left = max(1, budget)
        while left > 0 {
            let wanted = min(left, buffer.count)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count > 0 {
                buffer.withUnsafeBufferPointer { splitter.append(UnsafeBufferPointer(rebasing: $0[0..<count]), each) }
                left -= count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .drained }
            splitter.finish(each)
            return .ended
        }
        return .more
    }
}
