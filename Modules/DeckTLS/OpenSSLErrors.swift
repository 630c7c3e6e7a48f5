internal import COpenSSL

/// OpenSSL keeps failures in a per-thread queue; each failed call is read
/// and cleared from it at once, so one connection's error never shows up as
/// the next one's.
enum OpenSSLErrors {
    /// The queued reasons, oldest first, joined; `fallback` when the queue is empty.
    static func drain(fallback: String = "unknown OpenSSL error") -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if let text = ERR_reason_error_string(code) {
                reasons.append(String(cString: text))
            } else {
                reasons.append("error \(code)")
            }
        }
        return reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }

    /// Forgets what is queued (before a call whose failure is read afterwards).
    static func clear() {
        ERR_clear_error()
    }
}
