import DeckGeometry
import DeckGestures
import DeckModel
import Foundation

/// The `deck` object of a deck trace: the grid, the pages, the filled slots,
/// arrange mode and the host's protocol level.
public struct DeckSetup: Hashable, Sendable {
    /// The grid.
    public var grid: DeckGrid
    /// Pages in the deck.
    public var pageCount: Int
    /// The visible page.
    public var page: Int
    /// Slots holding a button.
    public var filled: Set<SlotID>
    /// Arrange mode at the start.
    public var arranging: Bool
    /// The host's protocol level.
    public var protocolLevel: Int
    /// Whether the replay prints the session's scene after every event
    /// (`"scene": true`), so what a renderer draws is compared too.
    public var printsScene: Bool

    init(_ value: TraceValue) throws(TraceError) {
        let deck = try TraceObject(value, at: "deck")
        try deck.allow(["size", "columns", "pages", "page", "filled", "arrange", "protocol", "slotsPerPage", "spacing", "scene"])
        let size = try deck.pair("size")
        let slots = try deck.int("slotsPerPage", default: DeckConstants.defaultSlotsPerPage, in: 1...DeckConstants.maximumSlotsPerPage)
        do {
            grid = try DeckGrid(size: CGSize(width: size.x, height: size.y), columns: try deck.int("columns", in: 1...slots),
                                slotsPerPage: slots, spacing: CGFloat(try deck.number("spacing", default: Double(DeckGrid.defaultSpacing))))
        } catch let error as DeckGeometryError {
            throw TraceError("deck: \(error.description)")
        } catch let error as TraceError {
            throw error
        } catch {
            throw TraceError("deck: \(error)")
        }
        pageCount = try deck.int("pages", in: 1...DeckConstants.maximumPages)
        page = try deck.int("page", default: 0, in: 0...(pageCount - 1))
        arranging = try deck.bool("arrange", default: false)
        protocolLevel = try deck.int("protocol", default: ArrangeSession.movingProtocolLevel, in: 0...1_000_000)
        printsScene = try deck.bool("scene", default: false)
        guard case .array(let slotValues) = deck["filled"] ?? .array([]) else {
            throw TraceError("deck.filled must be an array of [page, index] pairs")
        }
        var filled: Set<SlotID> = []
        for (number, slotValue) in slotValues.enumerated() {
            let pair = try TraceObject.numbers(slotValue, count: 2, at: "deck.filled[\(number)]")
            guard let page = Int(exactly: pair[0]), let index = Int(exactly: pair[1]),
                  (0..<pageCount).contains(page), (0..<slots).contains(index) else {
                throw TraceError("deck.filled[\(number)] is not a slot of \(pageCount) pages of \(slots): \(slotValue.json)")
            }
            filled.insert(SlotID(page: page, index: index))
        }
        self.filled = filled
    }

    /// The session at the trace's start.
    func session() throws(TraceError) -> ArrangeSession {
        do {
            return try ArrangeSession(grid: grid, pageCount: pageCount, filled: filled, page: page,
                                      arranging: arranging, protocolLevel: protocolLevel)
        } catch {
            throw TraceError("deck: \(error.description)")
        }
    }
}

/// Replays a deck trace through an ``ArrangeSession``.
struct DeckReplay {
    let setup: DeckSetup

    func run(_ events: [TraceEvent]) throws(TraceError) -> [TraceValue] {
        var session = try setup.session()
        var lines: [TraceValue] = []
        for event in events {
            let input: ArrangeEvent = switch event.kind {
            case .tick: .tick(event.time)
            case .done: .app(.done, at: event.time)
            case .lock: .app(.hostLocked, at: event.time)
            case .disconnect: .app(.disconnected, at: event.time)
            case .background: .app(.background, at: event.time)
            case .released: .app(.released, at: event.time)
            case .down, .move, .up, .cancel: .touch(TouchEvent(time: event.time, phase: Self.phase(event.kind), location: event.location))
            }
            lines += session.handle(input).map(Self.line)
            if setup.printsScene { lines.append(Self.sceneLine(session, at: event.time)) }
        }
        return lines
    }

    /// `{"t", "cb": "scene", …}`: what the session says to draw after an event.
    static func sceneLine(_ session: ArrangeSession, at time: TimeInterval) -> TraceValue {
        let scene = session.scene
        func slot(_ slot: SlotID?) -> TraceValue {
            slot.map { .array([.number(Double($0.page)), .number(Double($0.index))]) } ?? .null
        }
        let hint: TraceValue = scene.hint.map { hint in
            let frame = hint.placement.frame
            return .object([
                TraceField("edge", .string(hint.placement.edge.rawValue)),
                TraceField("frame", .array([frame.origin.x, frame.origin.y, frame.width, frame.height].map { .number(Double($0)) })),
                TraceField("tailX", .number(Double(hint.placement.tailX))),
                TraceField("canMove", .bool(hint.canMove)),
            ])
        } ?? .null
        let lifted: TraceValue = scene.lifted.map { tile in
            .object([TraceField("slot", slot(tile.source)), TraceField("center", .pair(tile.center.x, tile.center.y)),
                     TraceField("scale", .number(Double(tile.scale)))])
        } ?? .null
        let wiggling = scene.filled.sorted().filter(scene.wiggles).map { slot($0) }
        return .object([
            TraceField("t", .number(time)), TraceField("cb", .string("scene")),
            TraceField("page", .number(Double(scene.page))), TraceField("pages", .number(Double(scene.pageCount))),
            TraceField("stripOffset", .number(Double(scene.stripOffset))), TraceField("following", .bool(scene.stripFollowsFinger)),
            TraceField("arranging", .bool(scene.arranging)), TraceField("held", slot(scene.held)), TraceField("hint", hint),
            TraceField("lifted", lifted), TraceField("target", slot(scene.target)), TraceField("wiggling", .array(wiggling)),
            TraceField("deadline", session.deadline.map { .number($0) } ?? .null),
        ])
    }

    private static func phase(_ kind: TraceEvent.Kind) -> TouchEvent.Phase {
        switch kind {
        case .down: .down
        case .move: .move
        case .up: .up
        default: .cancel
        }
    }

    static func line(_ output: ArrangeOutput) -> TraceValue {
        func slot(_ slot: SlotID?) -> TraceValue {
            slot.map { .array([.number(Double($0.page)), .number(Double($0.index))]) } ?? .null
        }
        let fields: [TraceField] = switch output.action {
        case .hold(let source, let hint):
            [TraceField("cb", .string("hold")), TraceField("slot", slot(source)),
             TraceField("hint", .string(hint.placement.edge.rawValue)), TraceField("canMove", .bool(hint.canMove))]
        case .lift(let source): [TraceField("cb", .string("lift")), TraceField("slot", slot(source))]
        case .target(let target): [TraceField("cb", .string("target")), TraceField("slot", slot(target))]
        case .page(let page): [TraceField("cb", .string("page")), TraceField("page", .number(Double(page)))]
        case .move(let from, let to):
            [TraceField("cb", .string("move")), TraceField("from", slot(from)), TraceField("to", slot(to))]
        case .back(let source): [TraceField("cb", .string("back")), TraceField("slot", slot(source))]
        case .settings(let source): [TraceField("cb", .string("settings")), TraceField("slot", slot(source))]
        case .run(let source): [TraceField("cb", .string("run")), TraceField("slot", slot(source))]
        case .arrange(let on): [TraceField("cb", .string("arrange")), TraceField("on", .bool(on))]
        }
        return .object([TraceField("t", .number(output.time))] + fields)
    }
}
