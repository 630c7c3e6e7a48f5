import DeckGestures
import Foundation

/// A gesture value as a trace writes it, plus the translation of the drag
/// inside it (what an offset bound to the drag would follow).
struct EncodedValue: Equatable, Sendable {
    var json: TraceValue
    var dragTranslation: CGSize?
    /// The times of the drag samples inside: not printed, but part of
    /// equality, so two drag samples at one place are still two changes.
    var sampleTimes: [TimeInterval] = []
    /// The value's shape with every tap and every missing part named: not
    /// printed, but part of equality, because a tap (`null` in JSON) where
    /// there was no value (also `null`) is a change the engine delivers.
    var shape: String = ""
}

/// Values that a trace can print.
protocol TraceEncodable {
    var encoded: EncodedValue { get }
}

extension Bool: TraceEncodable {
    var encoded: EncodedValue { EncodedValue(json: .bool(self), shape: "press") }
}

extension TapRecognizer.Value: TraceEncodable {
    var encoded: EncodedValue { EncodedValue(json: .null, shape: "tap") }
}

extension DragValue: TraceEncodable {
    var encoded: EncodedValue {
        let json = TraceValue.object([
            TraceField("location", .pair(location.x, location.y)),
            TraceField("startLocation", .pair(startLocation.x, startLocation.y)),
            TraceField("translation", .pair(translation.width, translation.height)),
            TraceField("velocity", .pair(velocity.width, velocity.height)),
            TraceField("predictedEndTranslation", .pair(predictedEndTranslation.width, predictedEndTranslation.height)),
        ])
        return EncodedValue(json: json, dragTranslation: translation, sampleTimes: [time], shape: "drag")
    }
}

extension EncodedValue: TraceEncodable {
    var encoded: EncodedValue { self }

    /// The same value nested inside a combinator's JSON, its shape inside `tag(…)`.
    func wrapped(_ tag: String, _ wrap: (TraceValue) -> TraceValue) -> EncodedValue {
        EncodedValue(json: wrap(json), dragTranslation: dragTranslation, sampleTimes: sampleTimes, shape: "\(tag)(\(shape))")
    }
}

extension SequenceValue: TraceEncodable where First: TraceEncodable, Second: TraceEncodable {
    var encoded: EncodedValue {
        switch self {
        case .first(let a):
            return a.encoded.wrapped("first") { .object([TraceField("first", $0)]) }
        case .second(let a, let b):
            let json = TraceValue.object([TraceField("second", .array([a.encoded.json, b?.encoded.json ?? .null]))])
            // The part running now is the one a bound offset follows.
            return EncodedValue(json: json, dragTranslation: b?.encoded.dragTranslation ?? a.encoded.dragTranslation,
                                sampleTimes: a.encoded.sampleTimes + (b?.encoded.sampleTimes ?? []),
                                shape: "second(\(a.encoded.shape),\(b?.encoded.shape ?? "none"))")
        }
    }
}

extension SimultaneousValue: TraceEncodable where First: TraceEncodable, Second: TraceEncodable {
    var encoded: EncodedValue {
        let json = TraceValue.object([
            TraceField("first", first?.encoded.json ?? .null),
            TraceField("second", second?.encoded.json ?? .null),
        ])
        return EncodedValue(json: json, dragTranslation: first?.encoded.dragTranslation ?? second?.encoded.dragTranslation,
                            sampleTimes: (first?.encoded.sampleTimes ?? []) + (second?.encoded.sampleTimes ?? []),
                            shape: "both(\(first?.encoded.shape ?? "none"),\(second?.encoded.shape ?? "none"))")
    }
}

extension ExclusiveValue: TraceEncodable where First: TraceEncodable, Second: TraceEncodable {
    var encoded: EncodedValue {
        switch self {
        case .first(let a): a.encoded.wrapped("first") { .object([TraceField("first", $0)]) }
        case .second(let b): b.encoded.wrapped("second") { .object([TraceField("second", $0)]) }
        }
    }
}

/// Any recognizer built from a trace's gesture tree, reporting encoded values.
struct AnyTraceRecognizer: GestureRecognizer {
    typealias Value = EncodedValue

    private var base: any TraceRecognizerBox

    init<R: GestureRecognizer>(_ recognizer: R) where R.Value: TraceEncodable {
        base = TraceRecognizerBox_<R>(recognizer: recognizer)
    }

    var deadline: TimeInterval? { base.deadline }
    var isFinished: Bool { base.isFinished }

    mutating func receive(_ input: GestureInput) -> [GestureUpdate<EncodedValue>] {
        base.receiveEncoded(input)
    }
}

private protocol TraceRecognizerBox: Sendable {
    var deadline: TimeInterval? { get }
    var isFinished: Bool { get }
    mutating func receiveEncoded(_ input: GestureInput) -> [GestureUpdate<EncodedValue>]
}

private struct TraceRecognizerBox_<R: GestureRecognizer>: TraceRecognizerBox where R.Value: TraceEncodable {
    var recognizer: R
    var deadline: TimeInterval? { recognizer.deadline }
    var isFinished: Bool { recognizer.isFinished }

    mutating func receiveEncoded(_ input: GestureInput) -> [GestureUpdate<EncodedValue>] {
        recognizer.receive(input).map { update in
            switch update.kind {
            case .changed(let value): GestureUpdate(time: update.time, kind: .changed(value.encoded))
            case .ended(let value): GestureUpdate(time: update.time, kind: .ended(value.encoded))
            case .failed: GestureUpdate(time: update.time, kind: .failed)
            }
        }
    }
}
