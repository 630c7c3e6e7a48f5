import DeckGestures
import Foundation

/// The `pager` object of a pager trace (this project's addition to the
/// trace format): one swipe pager on its own, such as a reels-style feed.
///
/// `{"axis": "vertical", "size": [w, h], "count": 5, "index": 0,
///   "flip": {"translation": 0.22} | {"predictedEnd": 0.3333},
///   "gap": 0, "minimumDistance": 10}`
public struct PagerSetup: Hashable, Sendable {
    /// The pager at the start.
    public var pager: SwipePager
    /// The drag's minimum distance.
    public var minimumDistance: CGFloat

    init(_ value: TraceValue) throws(TraceError) {
        let object = try TraceObject(value, at: "pager")
        try object.allow(["axis", "size", "count", "index", "flip", "gap", "minimumDistance"])
        guard let axis = SwipePager.Axis(rawValue: try object.string("axis")) else {
            throw TraceError("pager.axis must be \"horizontal\" or \"vertical\"")
        }
        let size = try object.pair("size")
        let length = axis == .horizontal ? size.x : size.y
        guard length > 0 else { throw TraceError("pager.size must be positive along the axis") }
        let count = try object.int("count", in: 1...100_000)
        let index = try object.int("index", default: 0, in: 0...(count - 1))
        guard let flipValue = object["flip"] else { throw TraceError("pager needs 'flip'") }
        let flip = try TraceObject(flipValue, at: "pager.flip")
        let rule: SwipePager.FlipRule
        switch flip.keys {
        case ["translation"]: rule = .translation(fraction: CGFloat(try flip.number("translation")))
        case ["predictedEnd"]: rule = .predictedEnd(fraction: CGFloat(try flip.number("predictedEnd")))
        default: throw TraceError("pager.flip must be {\"translation\": fraction} or {\"predictedEnd\": fraction}")
        }
        pager = SwipePager(axis: axis, pageLength: length, gap: CGFloat(try object.number("gap", default: 0)),
                           pageCount: count, page: index, rule: rule)
        minimumDistance = CGFloat(try object.number("minimumDistance", default: 10))
    }

    /// Replays touches; callbacks are `offset` (following the finger), `page`
    /// (flipped) and `settle` (the offset the strip animates to).
    func run(_ events: [TraceEvent]) -> [TraceValue] {
        var session = PagerSession(pager: pager, minimumDistance: minimumDistance)
        var lines: [TraceValue] = []
        for event in events {
            guard let touch = event.touchEvent else { continue }
            for update in session.handle(touch) {
                let fields: [TraceField] = switch update.output {
                case .offset(let offset): [TraceField("cb", .string("offset")), TraceField("offset", .number(Double(offset)))]
                case .page(let page): [TraceField("cb", .string("page")), TraceField("page", .number(Double(page)))]
                case .settle(let offset): [TraceField("cb", .string("settle")), TraceField("offset", .number(Double(offset)))]
                }
                lines.append(.object([TraceField("t", .number(update.time))] + fields))
            }
        }
        return lines
    }
}
