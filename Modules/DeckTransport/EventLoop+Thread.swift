internal import CLinux
import Dispatch
import Glibc

extension EventLoop {
    /// Makes a loop and runs it on a new thread named `name`; returns once
    /// the loop is running on it.
    public static func spawn(name: String = "deck-event-loop") throws(TransportError) -> EventLoop {
        let loop = try EventLoop()
        let running = DispatchSemaphore(value: 0)
        try startThread(named: name) {
            // A fresh loop that no one else can reach yet cannot fail to run.
            try? loop.run { running.signal() }
        }
        running.wait()
        return loop
    }

    /// Starts a detached POSIX thread running `body` (Foundation's Thread is
    /// avoided: the module needs only FoundationEssentials). `stackSize` nil
    /// keeps the system's default. Package API: the host starts its runner
    /// and probe threads the same way.
    package static func startThread(named name: String, stackSize: Int? = nil,
                                    _ body: @escaping @Sendable () -> Void) throws(TransportError) {
        final class Start: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            _ = deck_set_thread_name(start.name)
            start.body()
            return nil
        }, start)
        if result != 0 {
            Unmanaged<Start>.fromOpaque(start).release()
            throw .system(operation: "start the thread \(name)", errno: result)
        }
        pthread_detach(thread)
    }
}
