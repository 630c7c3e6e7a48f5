/// A value that belongs to one event loop's thread, made `Sendable` so that
/// work handed to the loop with ``EventLoop/execute(_:)`` can carry it there.
///
/// Every access checks that it happens on the loop's thread and stops the
/// process with a message otherwise. Use it for the host's own loop-confined
/// objects, e.g. an action runner finishing on another thread:
///
/// ```swift
/// let host = LoopBound(self, loop: loop)          // on the loop
/// runner.run(action) { outcome in                 // on another thread
///     loop.execute { host.value.actionFinished(outcome) }
/// }
/// ```
public struct LoopBound<Value>: @unchecked Sendable {
    // @unchecked Sendable: `box.value` is only read or written on `loop`'s
    // thread (each accessor checks), so no two threads ever touch it at once.
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private let box: Box
    /// The loop whose thread owns the value.
    public let loop: EventLoop

    /// Wraps `value`; call on the loop's thread.
    public init(_ value: Value, loop: EventLoop) {
        loop.preconditionInLoop()
        box = Box(value)
        self.loop = loop
    }

    /// The value; read and write it only on the loop's thread. Every copy of
    /// this `LoopBound` shares it.
    public var value: Value {
        get {
            loop.preconditionInLoop()
            return box.value
        }
        nonmutating set {
            loop.preconditionInLoop()
            box.value = newValue
        }
    }
}
