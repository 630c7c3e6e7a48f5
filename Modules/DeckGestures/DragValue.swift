import Foundation

/// A drag's value, as SwiftUI's `DragGesture.Value` has it. Locations are in
/// the drag's coordinate space.
public struct DragValue: Hashable, Sendable {
    /// When this sample was taken. Part of equality, so two samples at the
    /// same place are still two changes.
    public var time: TimeInterval
    /// Where the finger is.
    public var location: CGPoint
    /// Where the drag began.
    public var startLocation: CGPoint
    /// Points per second over the last ``DragRecognizer/velocityWindow`` of samples.
    public var velocity: CGSize
    /// How far ahead the predictions look, in seconds.
    public var projection: TimeInterval

    /// `location − startLocation`.
    public var translation: CGSize {
        CGSize(width: location.x - startLocation.x, height: location.y - startLocation.y)
    }

    /// Where the finger would come to rest if it kept its velocity for
    /// `projection` seconds.
    public var predictedEndLocation: CGPoint {
        CGPoint(x: location.x + velocity.width * projection, y: location.y + velocity.height * projection)
    }

    /// `predictedEndLocation − startLocation`: what a flick is judged by.
    public var predictedEndTranslation: CGSize {
        let end = predictedEndLocation
        return CGSize(width: end.x - startLocation.x, height: end.y - startLocation.y)
    }

    /// A drag value.
    public init(time: TimeInterval, location: CGPoint, startLocation: CGPoint, velocity: CGSize = .zero,
                projection: TimeInterval = DragRecognizer.defaultProjection) {
        self.time = time
        self.location = location
        self.startLocation = startLocation
        self.velocity = velocity
        self.projection = projection
    }
}
