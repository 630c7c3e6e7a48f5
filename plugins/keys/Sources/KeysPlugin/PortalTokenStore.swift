#if canImport(Glibc)
import Glibc
#endif

/// The restore token the portal's Start returned, kept in the plugin's
/// state folder (`DECK_PLUGIN_STATE`, which the host makes 0700) so the
/// user consents once; `deckctl plugins keys --reset` empties the folder.
struct PortalTokenStore: Sendable {
    /// The folder, or nil when the host gave none (the token is then not kept).
    let folder: String?
    static let fileName = "portal-restore-token"

    /// The store of `DECK_PLUGIN_STATE`.
    static func fromEnvironment() -> PortalTokenStore {
        PortalTokenStore(folder: getenv("DECK_PLUGIN_STATE").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 })
    }

    private var path: String? { folder.map { $0 + "/" + Self.fileName } }

    /// The saved token, or nil (none saved, unreadable, or not a token).
    func load() -> String? {
        guard let path, let file = fopen(path, "re") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = fread(&buffer, 1, buffer.count, file)
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingNewlines()
        // A token is printable ASCII (GNOME's and KDE's are UUIDs); anything else is not sent.
        guard !text.isEmpty, count < buffer.count, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return text
    }

    /// Saves `token` (a temporary file renamed over the old one, 0600). Returns why it could not, or nil.
    func save(_ token: String) -> String? {
        guard let folder, let path else { return "the host gave the plugin no state folder (DECK_PLUGIN_STATE)" }
        let temporary = folder + "/." + Self.fileName + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return "cannot write \(temporary): \(String(cString: strerror(errno)))" }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            return "cannot write \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
