import DeckGestures
import Foundation

/// The `gesture` tree of a trace.
public indirect enum GestureSpec: Hashable, Sendable {
    case tap(count: Int)
    case longPress(minimumDuration: TimeInterval, maximumDistance: CGFloat)
    case drag(minimumDistance: CGFloat, coordinateSpace: GestureCoordinateSpace, projection: TimeInterval)
    case sequenced(GestureSpec, GestureSpec)
    case simultaneously(GestureSpec, GestureSpec)
    case exclusively(GestureSpec, GestureSpec)

    /// Reads a node; `views` collects every `view` found in the tree.
    static func parse(_ value: TraceValue, at path: String, views: inout [TraceView]) throws(TraceError) -> GestureSpec {
        let node = try TraceObject(value, at: path)
        if let view = node["view"] { views.append(try TraceView(view, at: "\(path).view")) }
        let kinds = node.keys.filter { $0 != "view" }
        guard kinds.count == 1, let kind = kinds.first else {
            throw TraceError("\(path) needs exactly one of tap, longPress, drag, sequenced, simultaneously, exclusively")
        }
        let inner = "\(path).\(kind)"
        guard let body = node[kind] else { throw TraceError("\(path) needs '\(kind)'") }
        switch kind {
        case "tap":
            let params = try TraceObject(body, at: inner)
            try params.allow(["count"])
            return .tap(count: try params.int("count", default: 1, in: 1...100))
        case "longPress":
            let params = try TraceObject(body, at: inner)
            try params.allow(["minimumDuration", "maximumDistance"])
            return .longPress(minimumDuration: try params.number("minimumDuration", default: 0.5),
                              maximumDistance: CGFloat(try params.number("maximumDistance", default: 10)))
        case "drag":
            let params = try TraceObject(body, at: inner)
            try params.allow(["minimumDistance", "coordinateSpace", "projection", "view"])
            if let view = params["view"] { views.append(try TraceView(view, at: "\(inner).view")) }
            return .drag(minimumDistance: CGFloat(try params.number("minimumDistance", default: 10)),
                         coordinateSpace: try space(params["coordinateSpace"], at: "\(inner).coordinateSpace"),
                         projection: try params.number("projection", default: DragRecognizer.defaultProjection))
        case "sequenced", "simultaneously", "exclusively":
            guard case .array(let parts) = body, parts.count == 2 else {
                throw TraceError("\(inner) must be an array of two gestures")
            }
            let a = try parse(parts[0], at: "\(inner)[0]", views: &views)
            let b = try parse(parts[1], at: "\(inner)[1]", views: &views)
            return kind == "sequenced" ? .sequenced(a, b) : kind == "simultaneously" ? .simultaneously(a, b) : .exclusively(a, b)
        default:
            throw TraceError("\(path) has an unknown gesture '\(kind)' (known: tap, longPress, drag, sequenced, simultaneously, exclusively)")
        }
    }

    /// `"local"` (the default), `"global"`, or `{"named": [x, y]}` for a named
    /// space whose origin sits at (x, y).
    private static func space(_ value: TraceValue?, at path: String) throws(TraceError) -> GestureCoordinateSpace {
        switch value {
        case nil, .string("local"): return .local
        case .string("global"): return .global
        case .some(let other):
            if case .object = other {
                let named = try TraceObject(other, at: path)
                try named.allow(["named"])
                return .named(origin: try named.pair("named"))
            }
            throw TraceError("\(path) must be \"local\", \"global\" or {\"named\": [x, y]}, not \(other.json)")
        }
    }

    /// The recognizer this node describes, reporting trace values.
    func recognizer() -> AnyTraceRecognizer {
        switch self {
        case .tap(let count):
            AnyTraceRecognizer(TapRecognizer(count: count))
        case .longPress(let duration, let distance):
            AnyTraceRecognizer(LongPressRecognizer(minimumDuration: duration, maximumDistance: distance))
        case .drag(let distance, let space, let projection):
            AnyTraceRecognizer(DragRecognizer(minimumDistance: distance, coordinateSpace: space, projection: projection))
        case .sequenced(let a, let b):
            AnyTraceRecognizer(a.recognizer().sequenced(before: b.recognizer()))
        case .simultaneously(let a, let b):
            AnyTraceRecognizer(a.recognizer().simultaneously(with: b.recognizer()))
        case .exclusively(let a, let b):
            AnyTraceRecognizer(a.recognizer().exclusively(before: b.recognizer()))
        }
    }
}

/// The view a `local` drag measures from: `"view": {"frame": [x, y, w, h],
/// "offsetFollowsTranslation": true}`. With the flag, the replay moves the
/// view's origin to the frame's origin plus the translation last delivered
/// to `changed` — the feedback loop of an offset bound to the drag.
public struct TraceView: Hashable, Sendable {
    /// The view's frame before any offset.
    public var frame: CGRect
    /// Whether the view's offset follows the delivered translation.
    public var offsetFollowsTranslation: Bool

    init(_ value: TraceValue, at path: String) throws(TraceError) {
        let object = try TraceObject(value, at: path)
        try object.allow(["frame", "offsetFollowsTranslation"])
        guard let frameValue = object["frame"] else { throw TraceError("\(path) needs 'frame'") }
        let numbers = try TraceObject.numbers(frameValue, count: 4, at: "\(path).frame")
        frame = CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        offsetFollowsTranslation = try object.bool("offsetFollowsTranslation", default: false)
    }
}
