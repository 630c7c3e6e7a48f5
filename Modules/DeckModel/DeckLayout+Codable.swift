#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DeckButton: Codable {
    private enum CodingKeys: String, CodingKey { case name, icon, action, style, states }

    /// Decodes `{"name", "icon"?, "action", "style"?, "states"?}` and checks
    /// it with ``validate()``, so an invalid button never gets into a layout
    /// through JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            icon: try container.decodeIfPresent(String.self, forKey: .icon),
            action: try container.decode(DeckAction.self, forKey: .action),
            style: try container.decodeIfPresent(ButtonStyle.self, forKey: .style),
            states: try container.decodeIfPresent([ButtonState].self, forKey: .states) ?? [])
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the button; `icon`, `style` and `states` are left out when
    /// there are none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(style, forKey: .style)
        if !states.isEmpty { try container.encode(states, forKey: .states) }
    }
}

extension DeckColor: Codable {
    /// Decodes a hex colour or a palette name.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let color = DeckColor(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a colour"))
        }
        self = color
    }

    /// Encodes the normalised text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension ButtonStyle: Codable {
    private enum CodingKeys: String, CodingKey { case color, background }

    /// Decodes `{"color"?, "background"?}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(color: try container.decodeIfPresent(DeckColor.self, forKey: .color),
                  background: try container.decodeIfPresent(DeckColor.self, forKey: .background))
    }

    /// Encodes the colours that are given.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(color, forKey: .color)
        try container.encodeIfPresent(background, forKey: .background)
    }
}

extension ButtonState: Codable {
    private enum CodingKeys: String, CodingKey { case id, name, icon, style }

    /// Decodes `{"id", "name"?, "icon"?, "style"?}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(String.self, forKey: .id),
                  name: try container.decodeIfPresent(String.self, forKey: .name),
                  icon: try container.decodeIfPresent(String.self, forKey: .icon),
                  style: try container.decodeIfPresent(ButtonStyle.self, forKey: .style))
    }

    /// Encodes the fields that are given.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encodeIfPresent(style, forKey: .style)
    }
}

extension DeckPage: Codable {
    private enum CodingKeys: String, CodingKey { case title, buttons }

    /// Decodes `{"title"?, "buttons": [button or null, …]}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decodeIfPresent(String.self, forKey: .title),
            buttons: try container.decode([DeckButton?].self, forKey: .buttons))
    }

    /// Encodes every slot, `null` for an empty one (never omitted).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        var slots = container.nestedUnkeyedContainer(forKey: .buttons)
        for button in buttons {
            if let button { try slots.encode(button) } else { try slots.encodeNil() }
        }
    }
}

extension DeckLayout: Codable {
    private enum CodingKeys: String, CodingKey { case slotsPerPage, pages }

    /// Decodes `{"slotsPerPage", "pages"}` (PROTOCOL.md §3). Every page must
    /// have exactly `slotsPerPage` entries; the result is normalized.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let slots = try container.decodeIfPresent(Int.self, forKey: .slotsPerPage) ?? DeckConstants.defaultSlotsPerPage
        let pages = try container.decode([DeckPage].self, forKey: .pages)
        if let short = pages.firstIndex(where: { $0.buttons.count != slots }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "page \(short) has \(pages[short].buttons.count) slots but pages hold \(slots)"))
        }
        do {
            try self.init(slotsPerPage: slots, pages: pages)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the layout as PROTOCOL.md §3 shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slotsPerPage, forKey: .slotsPerPage)
        try container.encode(pages, forKey: .pages)
    }
}
