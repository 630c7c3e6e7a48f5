#if canImport(Glibc)
import Glibc
#endif
import DeckModel
import DeckPluginKit

/// Where OBS listens and the password: from the first button (in layout
/// order) that says `url`, `password` or `passwordFile`, else
/// `ws://127.0.0.1:4455` and no password.
struct ObsEndpoint: Equatable, Sendable {
    static let defaultURL = "ws://127.0.0.1:4455"

    var host = "127.0.0.1"
    var port = 4455
    /// Kept out of every description and log line.
    var password: String?

    /// The endpoint the buttons give, and sentences about settings that disagree or fail.
    static func from(_ buttons: [PluginButton]) -> (endpoint: ObsEndpoint, problems: [String]) {
        var problems: [String] = []
        let ordered = buttons.sorted { ($0.page, $0.index) < ($1.page, $1.index) }
        var url: (String, PluginButton)?
        var secret: (DeckValue, key: String, PluginButton)?
        for button in ordered {
            if case .string(let value)? = button.settings["url"] {
                if let (first, owner) = url, first != value {
                    problems.append("'\(button.name)' on page \(button.page) says url \(value) but '\(owner.name)' said \(first) first; using \(first)")
                } else if url == nil {
                    url = (value, button)
                }
            }
            for key in ["password", "passwordFile"] {
                if let value = button.settings[key], secret == nil { secret = (value, key, button) }
            }
        }
        var endpoint = ObsEndpoint()
        if let (text, owner) = url {
            do throws(ObsError) {
                (endpoint.host, endpoint.port) = try parse(text)
            } catch {
                problems.append("'\(owner.name)' on page \(owner.page): \(error)")
            }
        }
        if let (value, key, owner) = secret {
            switch (key, value) {
            case ("password", .string(let password)): endpoint.password = password
            case ("passwordFile", .string(let path)):
                switch readPassword(path) {
                case .success(let password): endpoint.password = password
                case .failure(let why): problems.append("'\(owner.name)' on page \(owner.page): settings.passwordFile \(why)")
                }
            default: problems.append("'\(owner.name)' on page \(owner.page): settings.\(key) must be a string")
            }
        }
        return (endpoint, problems)
    }

    /// `ws://HOST:PORT[/]` (an IPv4 address or a name; IPv6 in brackets).
    static func parse(_ url: String) throws(ObsError) -> (String, Int) {
        guard url.hasPrefix("ws://") else { throw .badURL(url) }
        var rest = Substring(url.dropFirst(5))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
              (1...65535).contains(port) else { throw .badURL(url) }
        var host = rest[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("/") else { throw .badURL(url) }
        return (String(host), port)
    }

    /// The file's first line (a trailing newline is not part of the password).
    static func readPassword(_ path: String) -> Result<String, ObsSettingsError> {
        let expanded = path.hasPrefix("~/") ? ((getenv("HOME").map { String(cString: $0) } ?? "") + path.dropFirst()) : path
        let descriptor = open(expanded, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(ObsSettingsError("'\(path)' cannot be read: \(String(cString: strerror(errno)))"))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= 64 << 10 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        let line = bytes.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let text = String(decoding: line.last == 13 ? line.dropLast() : line[...], as: UTF8.self)
        guard !text.isEmpty else { return .failure(ObsSettingsError("'\(path)' is empty")) }
        return .success(text)
    }
}
