#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coding key for any string, so decoders can see every key an object has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension DeckAction: Codable {
    /// Decodes the JSON form of PROFILE.md §3: an object with exactly one kind
    /// key (`run`, `open`, `page`, `profile`, `plugin`) and that kind's fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let kinds = Self.kindKeys.filter { container.contains(AnyCodingKey($0)) }
        guard kinds.count == 1, let kind = kinds.first else {
            let found = kinds.isEmpty ? "none" : kinds.joined(separator: " and ")
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "action needs exactly one of run, open, page, profile, plugin (found \(found))"))
        }
        let key = AnyCodingKey(kind)
        switch kind {
        case "run":
            self = .run(
                command: try container.decode(String.self, forKey: key),
                cwd: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("cwd")),
                timeout: try container.decodeIfPresent(Double.self, forKey: AnyCodingKey("timeout")),
                follow: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("follow")))
        case "open":
            self = .open(try container.decode(String.self, forKey: key))
        case "page":
            self = .page(try container.decode(PageTarget.self, forKey: key))
        case "profile":
            self = .profile(try container.decode(String.self, forKey: key))
        default:
            self = .plugin(
                id: try container.decode(String.self, forKey: key),
                command: try container.decode(String.self, forKey: AnyCodingKey("command")),
                settings: try container.decodeIfPresent([String: DeckValue].self, forKey: AnyCodingKey("settings")))
        }
    }

    /// Encodes the one-kind-key JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        switch self {
        case let .run(command, cwd, timeout, follow):
            try container.encode(command, forKey: AnyCodingKey("run"))
            try container.encodeIfPresent(cwd, forKey: AnyCodingKey("cwd"))
            try container.encodeIfPresent(timeout, forKey: AnyCodingKey("timeout"))
            try container.encodeIfPresent(follow, forKey: AnyCodingKey("follow"))
        case let .open(target):
            try container.encode(target, forKey: AnyCodingKey("open"))
        case let .page(target):
            try container.encode(target, forKey: AnyCodingKey("page"))
        case let .profile(name):
            try container.encode(name, forKey: AnyCodingKey("profile"))
        case let .plugin(id, command, settings):
            try container.encode(id, forKey: AnyCodingKey("plugin"))
            try container.encode(command, forKey: AnyCodingKey("command"))
            try container.encodeIfPresent(settings, forKey: AnyCodingKey("settings"))
        }
    }
}

extension PageTarget: Codable {
    /// `"next"`, `"previous"`, or a 0-based page number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
            return
        }
        switch try? container.decode(String.self) {
        case "next": self = .next
        case "previous": self = .previous
        default:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "page must be next, previous or a page number")
        }
    }

    /// The JSON form: a string for relative targets, a number otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .next: try container.encode("next")
        case .previous: try container.encode("previous")
        case .number(let page): try container.encode(page)
        }
    }
}
