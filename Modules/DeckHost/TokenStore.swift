#if canImport(FoundationEssentials)
import FoundationEssentials  // JSON coding without the rest of Foundation
#else
import Foundation
#endif
import DeckModel
import Glibc

/// One paired device: the name given to `pair`, and its secret.
struct PairedDevice: Codable, Sendable, Equatable {
    var name: String
    var token: String
    /// When it was paired, `2026-11-29T16:40:00Z`.
    var created: String
}

/// The paired devices (`STATE/tokens.json`), held by the event loop.
///
/// Tokens are 32 random bytes in base64url. They are kept in plain text in a
/// 0600 file, like an SSH private key: whoever can read the file is already
/// this user. Looking a token up compares it with every stored token in
/// constant time, so the time taken says nothing about how close a guess was.
struct TokenStore: Sendable, Equatable {
    private(set) var devices: [PairedDevice] = []

    /// Makes a new token for `name`, replacing that name's old one.
    mutating func pair(_ name: String, now: Int) -> String {
        var generator = SystemRandomNumberGenerator()  // getrandom(2): cryptographically secure on Linux
        return pair(name, now: now, using: &generator)
    }

    /// Makes a new token for `name` from `generator`'s bytes (the host's is
    /// `getrandom(2)`; a test's may be seeded), replacing that name's old one.
    mutating func pair(_ name: String, now: Int, using generator: inout some RandomNumberGenerator) -> String {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = Base64URL.encode(bytes)
        devices.removeAll { $0.name == name }
        devices.append(PairedDevice(name: name, token: token, created: UTCTime.format(now)))
        return token
    }

    /// Forgets `name`'s token; false when no device has that name.
    mutating func unpair(_ name: String) -> Bool {
        let before = devices.count
        devices.removeAll { $0.name == name }
        return devices.count != before
    }

    /// Puts `name` back as it was before a change that could not be saved.
    mutating func restore(_ name: String, to device: PairedDevice?) {
        devices.removeAll { $0.name == name }
        if let device { devices.append(device) }
    }

    /// The device a token belongs to. Every stored token is compared, each in
    /// time that depends only on the stored token's length.
    func name(forToken token: String) -> String? {
        let given = Array(token.utf8)
        var found: String?
        for device in devices {
            let stored = Array(device.token.utf8)
            var difference = UInt8(given.count == stored.count ? 0 : 1)
            for index in stored.indices {
                let byte = index < given.count ? given[index] : 0
                difference |= byte ^ stored[index]
            }
            if difference == 0 { found = device.name }
        }
        return found
    }

    // MARK: The file

    private struct File: Codable {
        var format: String
        var version: Int
        var devices: [PairedDevice]
    }

    /// Reads `path`; a missing file is an empty store.
    ///
    /// - Throws: ``HostError/configuration(_:)`` for a file that cannot be
    ///   read or understood (the host does not start rather than forget devices).
    static func load(path: String) throws(HostError) -> (store: TokenStore, warning: String?) {
        // A save that a crash cut short left its temporary file; the file itself is whole.
        _ = unlink(DiskFile.temporary(of: path))
        let bytes: [UInt8]
        do {
            guard let read = try DiskFile.readIfPresent(path, limit: 16 << 20) else { return (TokenStore(), nil) }
            bytes = read
        } catch {
            throw .configuration("cannot read the device tokens in \(path): \(error)")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch {
            let reason = bytes.isEmpty ? "it is empty" : Self.reason(error)
            throw .configuration("the device tokens file \(path) is damaged (\(reason)); fix it, or delete it and pair the devices again")
        }
        guard file.format == "deck-tokens", file.version == 1 else {
            throw .configuration("the device tokens file \(path) is not a version 1 deck-tokens file; delete it and pair the devices again")
        }
        var warning: String?
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            warning = "the device tokens file \(path) can be read by other users; run chmod 600 \(path)"
        }
        return (TokenStore(devices: file.devices), warning)
    }

    /// What is wrong with the file, in words a person can act on (CLI.md:
    /// plain sentences; `DecodingError`'s own text is Swift's debug output).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "'\(path(context.codingPath + [key]))' is missing"
        case .valueNotFound(_, let context):
            return "'\(path(context.codingPath))' is null"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "it is not a JSON object"
        case .typeMismatch(_, let context):
            return "'\(path(context.codingPath))' has the wrong type"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context):
            return "'\(path(context.codingPath))' is not valid"
        @unknown default:
            return "it cannot be read"
        }
    }

    /// Writes the store to `path` atomically and durably, mode 0600.
    static func save(_ store: TokenStore, path: String) throws(HostError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(File(format: "deck-tokens", version: 1, devices: store.devices))
        } catch {
            throw .runtime("could not encode the device tokens: \(error)")
        }
        try DiskFile.writeAtomically(Array(data) + [0x0A], to: path, mode: 0o600)
    }
}

/// base64url without padding (RFC 4648 §5): safe in JSON, URLs and shells.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        // The same bits as standard base64, two letters of the alphabet swapped.
        String(Base64.encode(bytes).compactMap { character -> Character? in
            switch character {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: character
            }
        })
    }
}
