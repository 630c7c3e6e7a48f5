import Glibc

/// The process's environment variables, read without Foundation, for the
/// defaults tools derive from them (`XDG_RUNTIME_DIR`, `HOME`).
public enum ProcessEnvironment {
    /// Every variable of this process, by name.
    public static var variables: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
