internal import COpenSSL
import Glibc

/// OpenSSL keeps failures in a per-thread queue; each failed call is read
/// and cleared from it at once, so one connection's error never shows up as
/// the next one's.
enum OpenSSLErrors {
    /// The queued reasons, oldest first, joined; `fallback` when the queue is empty.
    static func drain(fallback: String = "unknown OpenSSL error") -> String {
        var reasons: [String] = []
        var systemError = false
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            let reason: String
            if code & systemFlag != 0 {
                // A failed system call (a missing or unreadable file): the rest of the code is its errno.
                reason = String(cString: strerror(Int32(truncatingIfNeeded: code & ~systemFlag))).lowercased()
                systemError = true
            } else if let text = ERR_reason_error_string(code) {
                reason = String(cString: text)
            } else {
                reason = "error \(code)"
            }
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        // OpenSSL's own "system lib" entries only repeat that a system call failed, which its errno says better.
        if systemError { reasons.removeAll { $0 == "system lib" } }
        return reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }

    /// OpenSSL 3's `ERR_SYSTEM_FLAG`: set on errors that carry an errno (a C macro Swift cannot import).
    private static let systemFlag: UInt = UInt(Int32.max) + 1

    /// Forgets what is queued (before a call whose failure is read afterwards).
    static func clear() {
        ERR_clear_error()
    }
}
