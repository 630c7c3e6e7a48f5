import DeckModel

/// The `moveButton` request a drop produces: what PROTOCOL.md's message
/// carries (DeckProtocol's message type wraps exactly these fields).
public struct MoveRequest: Hashable, Sendable, Codable {
    /// The source page.
    public var fromPage: Int
    /// The source slot.
    public var fromIndex: Int
    /// The target page.
    public var toPage: Int
    /// The target slot.
    public var toIndex: Int
    /// The button picked up, for the host's stale check.
    public var button: DeckButton

    /// A request.
    public init(fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int, button: DeckButton) {
        self.fromPage = fromPage
        self.fromIndex = fromIndex
        self.toPage = toPage
        self.toIndex = toIndex
        self.button = button
    }
}

/// The device's optimistic copy of the layout. A drop changes it at once,
/// with the same `DeckModel` move the host runs (so what the device draws is
/// what the host will compute), and yields the request to send. Whatever the
/// host answers, its next layout replaces the copy: accepted, it is the same;
/// refused (stale, locked), the device comes back to the host's truth.
public struct DeviceLayout: Hashable, Sendable {
    /// The layout the device draws.
    public private(set) var layout: DeckLayout

    /// A copy starting from the host's layout.
    public init(_ layout: DeckLayout) {
        self.layout = layout
    }

    /// Applies a drop from `source` to `target` and returns the request to
    /// send, or nil for a drop on its own slot (nothing to do). On a throw
    /// the copy is unchanged and nothing should be sent.
    public mutating func drop(from source: SlotID, to target: SlotID) throws(DeckGesturesError) -> MoveRequest? {
        guard source != target else { return nil }
        guard let button = layout.button(page: source.page, index: source.index) else { throw .emptySource(source) }
        var next = layout
        do {
            try next.move(fromPage: source.page, fromIndex: source.index, toPage: target.page, toIndex: target.index,
                          expecting: button)
        } catch {
            throw .moveRefused(error.description)
        }
        layout = next
        return MoveRequest(fromPage: source.page, fromIndex: source.index, toPage: target.page, toIndex: target.index,
                           button: button)
    }

    /// A layout from the host: it replaces the local copy, whatever it says.
    public mutating func receive(hostLayout: DeckLayout) {
        layout = hostLayout
    }
}
