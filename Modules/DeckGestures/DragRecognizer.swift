import DeckGeometry
import Foundation

/// SwiftUI's `DragGesture`: active once the finger is `minimumDistance` from
/// the touch-down, then `changed` for every sample and `ended` at the lift.
public struct DragRecognizer: GestureRecognizer {
    /// The value reported.
    public typealias Value = DragValue

    /// How far ahead ``DragValue/predictedEndLocation`` looks by default, in seconds.
    public static let defaultProjection: TimeInterval = 0.25
    /// How far back the velocity looks, in seconds. A window rather than the
    /// last pair of samples: a lift reported at the same place a few
    /// milliseconds after the last move would otherwise zero the velocity
    /// of every flick.
    public static let velocityWindow: TimeInterval = 0.1

    /// The distance from the touch-down, measured on the screen, at which the
    /// drag becomes active; 0 makes the touch-down itself a `changed`.
    public let minimumDistance: CGFloat
    /// Where locations are measured from.
    public let coordinateSpace: GestureCoordinateSpace
    /// How far ahead predictions look, in seconds.
    public let projection: TimeInterval

    private struct Sample: Hashable, Sendable {
        var location: CGPoint
        var time: TimeInterval
    }

    private struct Track: Hashable, Sendable {
        var screenStart: CGPoint
        var value: DragValue
        var active: Bool
        /// Earlier samples, oldest first: the ones inside the velocity window
        /// and the one just before the latest.
        var history: [Sample] = []
    }

    private enum State: Hashable, Sendable {
        case idle
        case tracking(Track)
        case ended
        case failed
    }

    private var state = State.idle

    /// A drag; SwiftUI's defaults are 10 points in the view's local space.
    public init(minimumDistance: CGFloat = 10, coordinateSpace: GestureCoordinateSpace = .local,
                projection: TimeInterval = DragRecognizer.defaultProjection) {
        self.minimumDistance = minimumDistance
        self.coordinateSpace = coordinateSpace
        self.projection = projection
    }

    /// A drag never needs the clock.
    public var deadline: TimeInterval? { nil }

    /// True once it ended or failed.
    public var isFinished: Bool { state == .ended || state == .failed }

    /// Feeds one input.
    public mutating func receive(_ input: GestureInput) -> [GestureUpdate<DragValue>] {
        let t = input.time
        switch (state, input.kind) {
        case (.tracking, .down), (.tracking, .downUp):
            return []
        case (_, .down(let point)):
            let track = begin(at: point, input)
            state = .tracking(track)
            return track.active ? [.changed(track.value, at: t)] : []
        case (_, .downUp(let point)):
            // The lift is the first touch seen: a zero-distance drag ends
            // from it at once, with no `changed` first; any other drag was
            // never active.
            let track = begin(at: point, input)
            state = track.active ? .ended : .failed
            return [track.active ? .ended(track.value, at: t) : .failed(at: t)]
        case (.tracking(var track), .move(let point)):
            sample(&track, at: point, input)
            if !track.active && LengthThreshold.reaches(point.distance(to: track.screenStart), minimumDistance) {
                track.active = true
            }
            state = .tracking(track)
            return track.active ? [.changed(track.value, at: t)] : []
        case (.tracking(var track), .up(let point)):
            sample(&track, at: point, input)
            state = track.active ? .ended : .failed
            return [track.active ? .ended(track.value, at: t) : .failed(at: t)]
        case (.tracking, .cancel):
            state = .failed
            return [.failed(at: t)]
        default:
            return []
        }
    }

    private func begin(at point: CGPoint, _ input: GestureInput) -> Track {
        let location = coordinateSpace.convert(point, viewOrigin: input.viewOrigin)
        let value = DragValue(time: input.time, location: location, startLocation: location, projection: projection)
        return Track(screenStart: point, value: value, active: minimumDistance <= 0)
    }

    /// Takes a new sample. The velocity is the displacement from the oldest
    /// earlier sample at most ``velocityWindow`` old (or, when none is, the
    /// sample just before) to this one; it stays as it was when that spans no time.
    private func sample(_ track: inout Track, at point: CGPoint, _ input: GestureInput) {
        let location = coordinateSpace.convert(point, viewOrigin: input.viewOrigin)
        track.history.append(Sample(location: track.value.location, time: track.value.time))
        let recent = track.history.drop { !VirtualTime.lasts(from: $0.time, to: input.time, atMost: Self.velocityWindow) }
        track.history = recent.isEmpty ? Array(track.history.suffix(1)) : Array(recent)
        if let reference = track.history.first, input.time > reference.time {
            let elapsed = input.time - reference.time
            track.value.velocity = CGSize(width: (location.x - reference.location.x) / elapsed,
                                          height: (location.y - reference.location.y) / elapsed)
        }
        track.value.time = input.time
        track.value.location = location
    }
}
