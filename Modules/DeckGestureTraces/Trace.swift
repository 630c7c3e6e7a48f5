import DeckGestures
import Foundation

/// A trace file (GESTURES.md §3): what is under test, timestamped events, and
/// optionally the callbacks they must cause.
public struct Trace: Sendable {
    /// What a trace drives.
    public enum Subject: Sendable {
        /// A gesture tree, and the view its `local` drags measure from.
        case gesture(GestureSpec, view: TraceView?)
        /// An arrange session (GESTURES.md §3 deck traces).
        case deck(DeckSetup)
        /// A swipe pager on its own (this project's addition, docs/gestures.md).
        case pager(PagerSetup)
    }

    /// The trace's name (the file name when it has none).
    public var name: String
    /// What it drives.
    public var subject: Subject
    /// The events, in time order.
    public var events: [TraceEvent]
    /// The callbacks expected, or nil when the trace has no `expect`.
    public var expect: [TraceValue]?

    /// Reads and checks the trace in the file at `path`.
    public static func load(path: String) throws(TraceError) -> Trace {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TraceError(file: path, "cannot be read (\(Self.readFailure(path)))")
        }
        do {
            return try parse(data, defaultName: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        } catch {
            throw error.in(path)
        }
    }

    private static func readFailure(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
        return isFolder.boolValue ? "it is a folder" : "permission denied or not a regular file"
    }

    /// Parses and checks a trace from JSON text.
    public static func parse(_ data: Data, defaultName: String = "trace") throws(TraceError) -> Trace {
        // Other top-level keys are left alone: JSON has no comments, so a trace
        // may carry "comment" or "why", or a later version's keys. Everything
        // inside the keys below is checked strictly.
        let root = try TraceObject(try TraceValue.parse(data), at: "the trace")
        let name = try root.string("name", default: defaultName)
        let subject: Subject
        var eventKinds = TraceEvent.Kind.touchKinds
        let subjects = ["gesture", "deck", "pager"].filter { root[$0] != nil }
        guard subjects.count == 1, let kind = subjects.first, let body = root[kind] else {
            throw TraceError("a trace needs exactly one of \"gesture\", \"deck\" or \"pager\"")
        }
        if kind != "gesture", root["view"] != nil { throw TraceError("\"view\" belongs to gesture traces") }
        switch kind {
        case "gesture":
            var views: [TraceView] = []
            if let view = root["view"] { views.append(try TraceView(view, at: "view")) }
            let spec = try GestureSpec.parse(body, at: "gesture", views: &views)
            guard Set(views).count <= 1 else {
                throw TraceError("the trace gives its gesture's view more than once, differently; a gesture tree has one view")
            }
            subject = .gesture(spec, view: views.first)
        case "deck":
            eventKinds.formUnion([.done, .lock, .disconnect, .background, .released])
            let setup = try DeckSetup(body)
            _ = try setup.session()
            subject = .deck(setup)
        default:
            subject = .pager(try PagerSetup(body))
        }
        guard case .array(let eventValues) = root["events"] ?? .null else {
            throw TraceError("the trace needs \"events\": an array of events")
        }
        var events: [TraceEvent] = []
        for (index, value) in eventValues.enumerated() {
            let event = try TraceEvent(value, index: index, kinds: eventKinds)
            if let previous = events.last, event.time < previous.time {
                throw TraceError("events[\(index)] at t=\(TraceValue.format(event.time)) comes before the event before it "
                    + "(t=\(TraceValue.format(previous.time))); events must be in time order")
            }
            events.append(event)
        }
        var expect: [TraceValue]?
        if let expectValue = root["expect"] {
            guard case .array(let items) = expectValue else { throw TraceError("\"expect\" must be an array of callbacks") }
            for (index, item) in items.enumerated() {
                let callback = try TraceObject(item, at: "expect[\(index)]")
                _ = try callback.number("t")
                _ = try callback.string("cb")
            }
            expect = items
        }
        return Trace(name: name, subject: subject, events: events, expect: expect)
    }

    /// Runs the events and returns the callbacks, each as `{"t", "cb", …}`.
    /// Throws only when the trace's setup cannot start (checked at parse time).
    public func replay() throws(TraceError) -> [TraceValue] {
        switch subject {
        case .gesture(let spec, let view): GestureReplay(spec: spec, view: view).run(events)
        case .deck(let setup): try DeckReplay(setup: setup).run(events)
        case .pager(let setup): setup.run(events)
        }
    }
}

/// Replays a gesture tree, moving its view when the trace asks for the
/// offset-follows-translation feedback loop.
struct GestureReplay {
    let spec: GestureSpec
    let view: TraceView?

    func run(_ events: [TraceEvent]) -> [TraceValue] {
        var tracker = GestureTracker(spec.recognizer())
        var offset = CGSize.zero
        var lines: [TraceValue] = []
        func report(_ updates: [GestureUpdate<EncodedValue>]) {
            for update in updates {
                lines.append(Self.line(update))
                if case .changed(let value) = update.kind, let translation = value.dragTranslation {
                    offset = translation
                }
            }
        }
        for event in events {
            // Deadlines first, so a value they deliver moves the view before
            // the touch is measured against it.
            report(tracker.advance(to: event.time))
            guard let touch = event.touchEvent else { continue }
            let frame = view?.frame.origin ?? .zero
            let follows = view?.offsetFollowsTranslation ?? false
            let origin = follows ? CGPoint(x: frame.x + offset.width, y: frame.y + offset.height) : frame
            report(tracker.receive(touch, viewOrigin: origin))
        }
        return lines
    }

    static func line(_ update: GestureUpdate<EncodedValue>) -> TraceValue {
        var fields = [TraceField("t", .number(update.time))]
        switch update.kind {
        case .changed(let value):
            fields += [TraceField("cb", .string("changed")), TraceField("value", value.json)]
        case .ended(let value):
            fields += [TraceField("cb", .string("ended")), TraceField("value", value.json)]
        case .failed:
            fields.append(TraceField("cb", .string("failed")))
        }
        return .object(fields)
    }
}
