/// The references HostCore is handed at start and never changes: what it
/// was configured with, where it logs, the disk thread and the runner of
/// actions. One context, as swift-nio's `ChannelHandlerContext` groups a
/// handler's references, so they are not four more fields of the core.
/// (The event loop is not here: it is the thread HostCore is confined to.)
struct HostServices {
    /// The command line as parsed (folders, limits, timeouts).
    let configuration: HostConfiguration
    /// Where every line of the host's log goes.
    let logger: Logger
    /// The thread that reads and writes the state folder.
    let disk: DiskWorker
    /// Runs the built-in actions (`run`, `open`, …).
    let runner: any ActionRunner
}
