#if canImport(Glibc)
import Glibc
#endif

/// A thread running one closure, joined by ``join()``.
final class ObsThread {
    private final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let made = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        // Without its thread the plugin can do nothing; the host logs the exit and restarts it.
        guard made == 0 else { fatalError("obs: cannot start a thread (error \(made))") }
    }

    func join() { pthread_join(thread, nil) }
}
