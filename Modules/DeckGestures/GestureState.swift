/// SwiftUI's `@GestureState` as a plain value: `updating` sets it from each
/// `changed` value; it goes back to its initial value when the gesture ends,
/// fails or is cancelled, so nothing has to remember to reset it.
public struct GestureState<State: Sendable>: Sendable {
    /// The value it returns to.
    public let initial: State
    /// The current value.
    public private(set) var value: State

    /// A state starting at (and resetting to) `initial`.
    public init(initial: State) {
        self.initial = initial
        self.value = initial
    }

    /// Applies a batch of callbacks: `body` for each `changed` value, a reset
    /// for an `ended` or `failed`.
    public mutating func update<Value>(with updates: [GestureUpdate<Value>], body: (Value, inout State) -> Void) {
        for update in updates {
            switch update.kind {
            case .changed(let gestureValue): body(gestureValue, &value)
            case .ended, .failed: value = initial
            }
        }
    }
}

/// SwiftUI-style callbacks for a batch of updates: `onChanged`, `onEnded`,
/// and the `onFailed` SwiftUI does not have (it is where cancel handling goes).
public struct GestureCallbacks<Value: Equatable & Sendable> {
    /// Called with each `changed` value.
    public var onChanged: (Value) -> Void
    /// Called once with the `ended` value; never after a failure or a cancel.
    public var onEnded: (Value) -> Void
    /// Called when the gesture failed or was cancelled.
    public var onFailed: () -> Void

    /// Callbacks; leave out the ones you do not need.
    public init(onChanged: @escaping (Value) -> Void = { _ in }, onEnded: @escaping (Value) -> Void = { _ in },
                onFailed: @escaping () -> Void = {}) {
        self.onChanged = onChanged
        self.onEnded = onEnded
        self.onFailed = onFailed
    }

    /// Calls the callbacks for `updates`, in order.
    public func callAsFunction(_ updates: [GestureUpdate<Value>]) {
        for update in updates {
            switch update.kind {
            case .changed(let value): onChanged(value)
            case .ended(let value): onEnded(value)
            case .failed: onFailed()
            }
        }
    }
}
