import DeckPlugins
import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport
import DeckWeb
import Glibc

/// The deck host daemon: serves the live layout to devices over TCP and to
/// `deckctl` over the control socket until SIGTERM or SIGINT.
public enum Host {
    /// The host's version, as `welcome` and `status` report it.
    public static let version = "0.1.0"

    /// Starts the host with `configuration` and serves until stopped. Prints
    /// `deckd ready` and where it listens on standard error once every
    /// listener is up. Call ``blockHostSignals()`` before any thread starts.
    ///
    /// - Returns: the exit status of CLI.md (0 clean stop, 1 runtime
    ///   failure, 78 nothing to serve).
    public static func run(_ configuration: HostConfiguration, environment: [String: String]) -> ExitStatus {
        let logger = Logger(minimum: configuration.logLevel)
        do {
            return try serve(configuration, environment: environment, logger: logger)
        } catch {
            logger.error(error.description)
            return error.exitStatus
        }
    }

    private static func serve(_ configuration: HostConfiguration, environment: [String: String],
                              logger: Logger) throws(HostError) -> ExitStatus {
        var info = stat()
        let layoutsMissing = stat(configuration.layouts, &info) != 0 && errno == ENOENT
        guard layoutsMissing && configuration.createsLayouts || !layoutsMissing && info.st_mode & S_IFMT == S_IFDIR else {
            throw .configuration("the layouts folder \(configuration.layouts) does not exist or is not a folder; "
                + "create it and put a profile (.yaml) in it, or pass --layouts DIR")
        }
        // Before any listener: every connection the limits allow is a descriptor.
        let fileLimitWarning = FileLimit.raise(maxConnections: configuration.maxConnections)
        // Before the state folder is touched: a second deckd on the same
        // socket or port stops here, having written nothing.
        let sockets = try HostSockets(configuration)
        var created: [String] = []
        if layoutsMissing {
            do {
                try Disk.makeDirectories(configuration.layouts)
            } catch {
                throw .runtime("cannot create the layouts folder \(configuration.layouts): \(error); create it, or pass --layouts DIR")
            }
            created.append("created the layouts folder \(configuration.layouts); put profiles (.yaml) in it")
        }
        let store: SnapshotStore
        do {
            store = try SnapshotStore(stateDirectory: configuration.state, keep: configuration.keep,
                                      journal: configuration.journal ? JournalSettings() : nil)
        } catch {
            // Another deckd's folder already says what to do; anything else is the folder itself.
            if case .stateInUse = error { throw .runtime(error.description) }
            throw .runtime("cannot use the state folder \(configuration.state): \(error); "
                + "pass --state a folder deckd can create and write")
        }
        // In the state folder (STATE/tls), so after it is known to be ours.
        let tls = try configuration.tls.map { setting throws(HostError) in
            try HostTLS(setting, stateFolder: configuration.state)
        }
        var notices = created + store.openingNotices.map(\.message) + (fileLimitWarning.map { [$0] } ?? [])
        let (tokens, tokenWarning) = try TokenStore.load(path: configuration.state + "/tokens.json")
        if let tokenWarning { notices.append(tokenWarning) }
        var last: String?
        do {
            last = try store.lastProfile()
        } catch {
            notices.append(error.description)
        }
        let scan = try ProfileResolver.scanRevisions(in: store)
        // The first profile the plan resolves, read while the folder is parsed.
        let prefetch = SnapshotPrefetch(store: store, profile: configuration.profile ?? last ?? "default")
        let catalog: ProfileCatalog
        do {
            catalog = try ProfileFolder(path: configuration.layouts, maxLayoutBytes: configuration.maxLayoutBytes).scan()
        } catch {
            _ = prefetch.wait()
            throw .configuration(error.description)
        }
        for problem in catalog.problems { logger.warning(problem.description) }
        let searchPath = configuration.searchPath
        let plugins = PluginCatalog.scan(folders: configuration.plugins, searchPath: searchPath)
        let plan: StartupPlan
        do {
            plan = try StartupPlan.make(explicit: configuration.profile, last: last, catalog: catalog,
                                        folder: configuration.layouts, store: store, scan: scan, prefetched: prefetch)
        } catch {
            _ = prefetch.wait()
            // Nothing is served, but the files set aside are still worth a line.
            for notice in notices + scan.sentences(served: nil, resumed: nil) { logger.warning(notice) }
            throw error
        }
        _ = prefetch.wait()
        notices += plan.notices
        for notice in notices { logger.warning(notice) }
        if let generation = plan.generation {
            do {
                let commit = try store.write(generation)
                logger.info("serving profile '\(plan.state.profile)' at revision \(plan.state.revision) "
                    + "(new generation \(commit.written.first?.generation ?? 0), \(generation.reason))")
            } catch {
                throw .runtime("could not save the starting layout: \(error)")
            }
        } else {
            logger.info("serving profile '\(plan.state.profile)' at revision \(plan.state.revision) (resumed its newest snapshot)")
        }
        if last != plan.state.profile {
            do {
                try store.setLastProfile(plan.state.profile)
            } catch {
                logger.warning("could not record the last live profile: \(error)")
            }
        }

        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            throw .runtime(error.description)
        }
        let disk = DiskWorker(store: store)
        disk.checkpointWhenIdle()
        let runner = BuiltinActionRunner(logger: logger, opener: configuration.opener, environment: environment,
                                         maximumRunning: configuration.maxRunningActions,
                                         maximumQueued: configuration.maxQueuedActions)
        var core: HostCore?
        do {
            try loop.run {
                let services = HostServices(configuration: configuration, logger: logger, disk: disk, runner: runner)
                let host = try HostCore(services: services, loop: loop, state: plan.state, catalog: catalog, tokens: tokens,
                                        notices: notices)
                core = host
                try start(host, loop: loop, sockets: sockets, tls: tls, environment: environment)
                host.startPlugins(plugins, searchPath: searchPath)
                host.startFollows()
            }
        } catch let error as HostError {
            throw error
        } catch {
            throw .runtime("\(error)")
        }
        // Normally every plugin is gone by now; this makes sure of it.
        core?.inputs.plugins?.killRemaining()
        // A probe run still in progress (a hung command) is killed, not left behind.
        core?.inputs.probe?.stopAndWait(timeout: .milliseconds(300))
        disk.drain()
        logger.info("stopped")
        let status = core?.state.shutdown.exitStatus ?? .failure
        core?.releaseAfterStop()
        return status
    }

    /// Everything that needs the loop: listeners, signals, the folder watch,
    /// the lock probe; then the ready line.
    private static func start(_ host: HostCore, loop: EventLoop, sockets: HostSockets, tls: HostTLS?,
                              environment: [String: String]) throws(HostError) {
        let configuration = host.services.configuration
        var limits = ConnectionLimits(maxLineBytes: configuration.maxMessage, maxConnections: configuration.maxConnections,
                                      establishTimeout: configuration.helloTimeout)
        limits.maxFirstLineBytes = configuration.maxHelloBytes
        // Backpressure: a client with 64 KiB of output unread is not read
        // until it reads half of it (issue 18 §3: 10 clients flooding pings and
        // never reading held a healthy client's ping back; docs/transport.md).
        limits.outputHighWater = 64 << 10
        do {
            let hello = configuration.maxHelloBytes < configuration.maxMessage
                ? " (\(configuration.maxHelloBytes) for the first line, hello)" : ""
            limits.tooLargeReply = try OutboundLine(HostMessage.error(id: nil, code: .tooLarge,
                message: "the line is longer than \(configuration.maxMessage) bytes\(hello); the host closes the connection "
                    + "because it cannot find where the next message starts").line())
            limits.busyReply = try OutboundLine(HostMessage.error(id: nil, code: .busy,
                message: "the host already serves \(configuration.maxConnections) connections; try again later").line())
            limits.establishTimeoutReply = try OutboundLine(HostMessage.error(id: nil, code: .handshake,
                message: "no hello within \(configuration.helloTimeout); send hello first").line())
        } catch {
            throw .runtime(error.description)
        }
        var places: [String] = []
        // WEB.md §1: browsers count against the same connection limit as TCP devices.
        let devices = SharedConnectionCount()
        do {
            if let socket = sockets.tcp {
                let tcp = try loop.listen(adopting: socket, limits: limits, handler: host)
                tls?.install(on: tcp)
                tcp.sharedCount = devices
                host.inputs.listeners.append(tcp)
                places.append("\(tcp.address) (devices\(tls == nil ? "" : ", TLS"))")
            }
            if let socket = sockets.web {
                let server = WebServer(configuration: WebConfiguration(
                    root: configuration.webRoot, extraOrigins: configuration.webOrigins, secure: tls != nil,
                    maxMessageBytes: configuration.maxMessage, maxFirstMessageBytes: configuration.maxHelloBytes,
                    icons: .fromEnvironment(environment),
                    faceImages: host.faceImages),
                    host: host, loop: loop)
                var webLimits = limits
                webLimits.busyReply = nil  // an HTTP client would not read a JSON line: refused ones are just closed
                let web = try loop.listen(adopting: socket, limits: webLimits, handler: server)
                tls?.install(on: web)  // the same layer as the device port's, beneath HTTP and WebSocket
                web.sharedCount = devices
                host.inputs.listeners.append(web)
                host.inputs.reachability.webAddress = web.address
                places.append("\(tls == nil ? "http" : "https")://\(web.address)/ (web)")
            }
            let control = try loop.listen(adopting: sockets.control, limits: limits, handler: host)
            host.inputs.listeners.append(control)
            places.append("\(configuration.control) (control socket)")
        } catch {
            throw .runtime(error.description)
        }
        if let tls {
            host.inputs.reachability.fingerprint = { tls.fingerprint }
            for notice in tls.notices { host.services.logger.warning(notice) }
            host.services.logger.info("TLS on: certificate SHA-256 fingerprint \(tls.fingerprint)")
        } else if let warning = HostTLS.plaintextWarning(for: host.inputs.listeners) {
            host.services.logger.warning(warning)
        }
        let inbox = host.inbox
        let logger = host.services.logger
        host.inputs.signals = try SignalSource(loop: loop) { signal in
            // The certificate is the shell's, reloaded before the rules hear of the SIGHUP.
            if signal == SIGHUP { tls?.reload(logger: logger) }
            inbox.post(.signal(HostSignal(number: signal)))
        }
        do {
            // A save seen supersedes a scan in progress at once; its own scan
            // comes once the save settles.
            host.inputs.watcher = try ProfileWatcher(folder: configuration.layouts, loop: loop, inbox: inbox)
        } catch {
            host.handle(.folderWatch(.lost("\(error); saved files are not reloaded live (use deckctl reload)")))
        }
        if let command = configuration.lockProbe {
            let probe = LockProbe(command: command, interval: configuration.lockProbeInterval) { result in
                inbox.post(result, fromAnyThread: { .probe($0) })
            }
            try probe.start()
            host.inputs.probe = probe
        }
        let ready = "deckd ready on " + places.joined(separator: " and ") + "\n"
        _ = ready.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }
}

/// The host's listening sockets, bound before anything else happens (see ``BoundSocket``).
private struct HostSockets {
    /// The control socket for deckctl.
    let control: BoundSocket
    /// The devices' TCP port; nil with `--no-tcp`.
    let tcp: BoundSocket?
    /// The web listener; nil with `--no-web`.
    let web: BoundSocket?

    /// Binds the control socket first: when a live deckd holds it, "another
    /// host is listening" says more than the port that is in use as well.
    init(_ configuration: HostConfiguration) throws(HostError) {
        do {
            control = try BoundSocket(.unix(path: configuration.control))
            tcp = try configuration.listen.map { text throws(TransportError) in try BoundSocket(Endpoint(tcp: text)) }
            web = try configuration.web.map { text throws(TransportError) in try BoundSocket(Endpoint(tcp: text)) }
        } catch {
            throw .runtime(error.description)
        }
    }
}

extension HostCore {
    /// Lets go of what the host holds once the loop has stopped. The
    /// listeners hold the host as their handler while the host holds them: a
    /// cycle that kept the whole host (its loop, the snapshot store with its
    /// zlib stream, the folder watch) allocated at exit, where LeakSanitizer
    /// reported it on every run (docs/reliability.md).
    func releaseAfterStop() {
        inputs = HostInputs()
        sessions.removeAll()
        state.holds = HeldButtons()  // memory only: the loop has stopped, no rule runs again
        services.runner.releaseAfterStop()
    }
}
