import Foundation
import Synchronization

/// Random damage to JSON text, for the fuzz tests of the codec and its users.
public enum RandomEdits {
    /// Bytes that JSON gives meaning to, plus a few that break UTF-8.
    public static let jsonAlphabet = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn/u"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]

    /// Applies `edits` random edits to `bytes`: replace, remove or insert a
    /// byte from `alphabet`, or cut everything from a point on.
    public static func apply(_ edits: Int, to bytes: inout [UInt8], alphabet: [UInt8] = jsonAlphabet,
                             using rng: inout some RandomNumberGenerator) {
        for _ in 0..<edits where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            let byte = alphabet.randomElement(using: &rng) ?? 0
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: bytes[at] = byte
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(byte, at: at)
            default: bytes.removeSubrange(at...)
            }
        }
    }
}

/// Runs `body` on a new thread with a 256 KiB stack (an event loop or a
/// dispatch worker may have no more) and waits for it; nil after a minute.
public func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = 256 * 1024
    thread.start()
    guard done.wait(timeout: .now() + 60) == .success else { return nil }
    return result.withLock { $0 }
}
