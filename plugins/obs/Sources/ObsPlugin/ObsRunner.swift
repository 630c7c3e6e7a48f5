#if canImport(Glibc)
import Glibc
#endif
import DeckModel
import DeckPluginKit

/// The OBS thread: one connection at a time to obs-websocket, reconnecting
/// with backoff, on its own poll loop; faces and log lines go to the host
/// through the plugin's connection (safe from any thread).
final class ObsRunner {
    /// The longest message read from OBS (a screenshot is the largest); longer ones close the connection.
    static let maximumMessageBytes = 8 << 20
    /// Reconnection waits: doubling from the first to the last.
    static let firstRetry: Duration = .milliseconds(250)
    static let lastRetry: Duration = .seconds(5)
    /// How long a connection attempt (TCP and the WebSocket upgrade) may take.
    static let connectTimeout: Duration = .seconds(5)

    private enum Link {
        case idle(retryAt: ContinuousClock.Instant)
        case connecting(ObsSocket, since: ContinuousClock.Instant)
        case upgrading(ObsSocket, WebSocketClientHandshake, since: ContinuousClock.Instant)
        case open(ObsSocket, WebSocketClientCodec, ObsSession)
    }

    private let plugin: PluginConnection
    private let inbox: ObsInbox
    private var deck = ObsDeck()
    private var endpoint = ObsEndpoint()
    /// Idle until the first `buttons`: they say where OBS is.
    private var link: Link = .idle(retryAt: .now + .seconds(3600))
    private var retry = ObsRunner.firstRetry
    private var outgoing: [UInt8] = []
    /// What each request in flight was for: the pressed button, or a sync request.
    private var inFlight: [String: (ObsRequest, PluginButtonReference?)] = [:]
    private var lastShot: [PluginButtonReference: ContinuousClock.Instant] = [:]
    private var reportedStatus: ObsConnectionStatus?
    private var heardButtons = false
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var random = SystemRandomNumberGenerator()

    init(plugin: PluginConnection, inbox: ObsInbox) {
        self.plugin = plugin
        self.inbox = inbox
    }

    /// Runs until the inbox says stop.
    func run() {
        while true {
            let now = ContinuousClock.now
            let posted = inbox.take()
            if posted.stop { break }
            if let buttons = posted.buttons { takeButtons(buttons, now: now) }
            if posted.dropped > 0 {
                plugin.log("\(posted.dropped) presses were dropped: OBS is not answering fast enough", level: .warning)
            }
            for press in posted.presses { handle(press, now: now) }
            step(now: now)
            refreshScreenshots(now: now)
            showFaces(now: .now)
            wait()
        }
        drop(status: .unreachable("the plugin stopped"), now: .now)
    }

    // MARK: Buttons and presses

    private func takeButtons(_ buttons: [PluginButton], now: ContinuousClock.Instant) {
        for problem in deck.setButtons(buttons) { plugin.log(problem, level: .warning) }
        let (next, problems) = ObsEndpoint.from(buttons)
        for problem in problems { plugin.log(problem, level: .warning) }
        if next != endpoint || !heardButtons {
            heardButtons = true
            endpoint = next
            drop(status: .connecting, now: now)
            link = .idle(retryAt: now)
        } else if case .open(_, _, let session) = link, session.isIdentified {
            sync(now: now)
        }
    }

    private func handle(_ press: PluginPress, now: ContinuousClock.Instant) {
        guard press.phase != .up else { return }
        switch deck.command(for: press.button, command: press.command, settings: press.settings) {
        case .failure(let error):
            plugin.log("'\(press.button.name)': \(error)", level: .warning)
            plugin.showAlert(for: press.button)
        case .success(let command):
            guard case .open(let socket, let codec, var session) = link, session.isIdentified else {
                plugin.log("\(press.button.logName): the press did nothing, the plugin is not connected to OBS (\(deck.status.sentence))", level: .warning)
                plugin.showAlert(for: press.button)
                return
            }
            let (id, actions) = session.request(command.request, now: now)
            if let id { inFlight[id] = (command.request, press.button) }
            link = .open(socket, codec, session)
            perform(actions, now: now)
        }
    }

    private func sync(now: ContinuousClock.Instant) {
        guard case .open(let socket, let codec, var session) = link else { return }
        let requests = deck.syncRequests
        let (ids, actions) = session.batch(requests, now: now)
        for (id, request) in zip(ids, requests) { inFlight[id] = (request, nil) }
        link = .open(socket, codec, session)
        perform(actions, now: now)
    }

    private func refreshScreenshots(now: ContinuousClock.Instant) {
        guard case .open(let socket, let codec, var session) = link, session.isIdentified else { return }
        for button in deck.buttons {
            guard case .success(let command)? = deck.commands[button.reference],
                  case .screenshot(_, _, let every?) = command else { continue }
            let reference = button.reference
            if let last = lastShot[reference], now - last < every { continue }
            if inFlight.values.contains(where: { $0.1 == reference }) { continue }  // one at a time per button
            lastShot[reference] = now
            let (id, actions) = session.request(command.request, now: now)
            if let id { inFlight[id] = (command.request, reference) }
            link = .open(socket, codec, session)
            perform(actions, now: now)
        }
    }

    // MARK: The connection

    private func step(now: ContinuousClock.Instant) {
        switch link {
        case .idle(let retryAt):
            guard now >= retryAt else { return }
            do throws(ObsError) {
                link = .connecting(try ObsSocket.connect(host: endpoint.host, port: endpoint.port), since: now)
            } catch {
                failed(.unreachable(error.description), now: now)
            }
        case .connecting(let socket, let since):
            var ready = pollfd(fd: socket.descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, 0) > 0 {
                if let why = socket.connectError() {
                    socket.close()
                    failed(.unreachable("nothing answers at ws://\(endpoint.host):\(endpoint.port) (\(why)); is OBS running with its WebSocket server enabled?"), now: now)
                    return
                }
                let handshake = WebSocketClientHandshake(using: &random)
                outgoing = handshake.request(host: endpoint.host, port: endpoint.port)
                link = .upgrading(socket, handshake, since: now)
            } else if now - since > Self.connectTimeout {
                socket.close()
                failed(.unreachable("ws://\(endpoint.host):\(endpoint.port) did not accept a connection within \(Self.connectTimeout)"), now: now)
            }
        case .upgrading(let socket, var handshake, let since):
            flush(socket, now: now)
            guard case .upgrading = link else { return }
            guard let bytes = readSome(socket, now: now) else {
                if now - since > Self.connectTimeout {
                    closeSocket(socket)
                    failed(.unreachable("OBS did not answer the WebSocket upgrade within \(Self.connectTimeout)"), now: now)
                }
                return
            }
            switch handshake.feed(bytes) {
            case .needMore:
                link = .upgrading(socket, handshake, since: since)
            case .refused(let why):
                closeSocket(socket)
                failed(.unreachable(ObsError.handshake(why).description), now: now)
            case .upgraded(let rest):
                let codec = WebSocketClientCodec(maximumMessageBytes: Self.maximumMessageBytes)
                link = .open(socket, codec, ObsSession(password: endpoint.password, now: now))
                if !rest.isEmpty { receive(rest, now: now) }
            }
        case .open(let socket, _, _):
            if let bytes = readSome(socket, now: now) { receive(bytes, now: now) }
            guard case .open(let socket, let codec, var session) = link else { return }
            let actions = session.tick(now: now)
            link = .open(socket, codec, session)
            perform(actions, now: now)
            flushCodec(now: now)
        }
    }

    /// Reads what is there; nil when nothing is. The end of the stream or an error ends the link.
    private func readSome(_ socket: ObsSocket, now: ContinuousClock.Instant) -> [UInt8]? {
        do throws(ObsError) {
            guard let count = try socket.read(into: &buffer) else { return nil }
            if count == 0 {
                ended(code: nil, why: "OBS closed the connection", now: now)
                return nil
            }
            return Array(buffer[0..<count])
        } catch {
            ended(code: nil, why: error.description, now: now)
            return nil
        }
    }

    private func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) {
        guard case .open(let socket, let codec, var session) = link else { return }
        let messages = codec.receive(bytes)
        var actions: [ObsSession.Action] = []
        for message in messages {
            actions += session.received(message, now: now)
            if case .close? = actions.last { break }
        }
        link = .open(socket, codec, session)
        perform(actions, now: now)
        guard case .open = link else { return }
        switch codec.end {
        case .serverClosed(let code)?:
            flushCodec(now: now)
            ended(code: code, why: "OBS closed the WebSocket", now: now)
        case .violation(let why)?:
            flushCodec(now: now)
            ended(code: nil, why: ObsError.protocolViolation(why).description, now: now)
        case nil:
            flushCodec(now: now)
        }
    }

    private func perform(_ actions: [ObsSession.Action], now: ContinuousClock.Instant) {
        for action in actions {
            switch action {
            case .send(let text):
                guard case .open(_, let codec, _) = link else { continue }
                codec.send(text)
            case .close(let status):
                if case .open(let socket, let codec, _) = link {
                    codec.close()
                    outgoing += codec.takeOutput()
                    flush(socket, now: now)
                    closeSocket(socket)
                }
                failed(status, now: now)
            case .identified(let version):
                retry = Self.firstRetry
                deck.status = .connected(obs: nil, webSocket: version)
                report()
                sync(now: now)
            case .event(let event):
                if event.type == "ExitStarted" { plugin.log("OBS is exiting", level: .info) }
                deck.live.apply(event, now: now)
            case .response(let response):
                answered(response, now: now)
            case .failed(let id, let request, let why):
                let button = inFlight.removeValue(forKey: id)?.1
                if let button {
                    plugin.log("'\(button.name)': \(request.type) failed: \(why)", level: .warning)
                    plugin.showAlert(for: button)
                }
            }
        }
        flushCodec(now: now)
    }

    private func answered(_ response: ObsResponse, now: ContinuousClock.Instant) {
        guard let (request, button) = inFlight.removeValue(forKey: response.id) else { return }
        if request.type == "GetVersion", response.ok, case .connected(_, let webSocket) = deck.status {
            deck.status = .connected(obs: response.data.obsVersion, webSocket: response.data.obsWebSocketVersion ?? webSocket)
            report()
        }
        deck.live.apply(response, to: request, now: now)
        guard let button else { return }
        guard response.ok else {
            plugin.log("'\(button.name)': OBS refused \(request.type): \(response.comment ?? "code \(response.code)")",
                       level: .warning)
            plugin.showAlert(for: button)
            return
        }
        if request.type == "SaveReplayBuffer" { plugin.showOk(for: button) }
        if request.type == "GetSourceScreenshot", let image = response.data.imageData {
            showScreenshot(image, on: button)
        }
    }

    private func showScreenshot(_ dataURL: String, on button: PluginButtonReference) {
        guard let comma = dataURL.firstIndex(of: ",") else {
            plugin.log("'\(button.name)': OBS sent a screenshot that is not a data URL", level: .warning)
            return
        }
        do throws(Base64.DecodingError) {
            let image = try Base64.decode(String(dataURL[dataURL.index(after: comma)...]), limit: PluginProtocol.maximumImageBytes)
            plugin.setImage(image, for: button)
        } catch {
            plugin.log("'\(button.name)': OBS's screenshot cannot be shown (\(error)); a smaller settings.width helps when it is too large",
                       level: .warning)
        }
    }

    /// The link ended: the session decides the status (a refused password closes with 4009).
    private func ended(code: UInt16?, why: String, now: ContinuousClock.Instant) {
        guard case .open(let socket, let codec, var session) = link else {
            switch link {
            case .upgrading(let socket, _, _), .connecting(let socket, _): socket.close()
            default: break
            }
            failed(.unreachable(why), now: now)
            return
        }
        let actions = session.closed(code: code, why: why)
        link = .open(socket, codec, session)
        perform(actions, now: now)
    }

    /// Drops the link (if any) and waits before the next attempt.
    private func failed(_ status: ObsConnectionStatus, now: ContinuousClock.Instant) {
        if case .open(let socket, _, _) = link { closeSocket(socket) }
        inFlight = [:]
        outgoing = []
        deck.status = status
        report()
        link = .idle(retryAt: now + retry)
        retry = min(retry * 2, Self.lastRetry)
    }

    private func drop(status: ObsConnectionStatus, now: ContinuousClock.Instant) {
        switch link {
        case .open(let socket, let codec, _):
            codec.close()
            outgoing += codec.takeOutput()
            flush(socket, now: now)
            closeSocket(socket)
        case .upgrading(let socket, _, _), .connecting(let socket, _):
            socket.close()
        case .idle:
            break
        }
        inFlight = [:]
        outgoing = []
        deck.status = status
        retry = Self.firstRetry
        link = .idle(retryAt: now)
    }

    private func closeSocket(_ socket: ObsSocket) {
        socket.close()
        link = .idle(retryAt: .now)
    }

    private func flushCodec(now: ContinuousClock.Instant) {
        guard case .open(let socket, let codec, _) = link else { return }
        outgoing += codec.takeOutput()
        flush(socket, now: now)
    }

    private func flush(_ socket: ObsSocket, now: ContinuousClock.Instant) {
        guard !outgoing.isEmpty else { return }
        do throws(ObsError) {
            let written = try socket.write(outgoing[...])
            outgoing.removeFirst(written)
        } catch {
            outgoing = []
            ended(code: nil, why: error.description, now: now)
        }
    }

    // MARK: Output

    private func report() {
        guard reportedStatus != deck.status else { return }
        reportedStatus = deck.status
        plugin.setStatus(deck.status.sentence)
        plugin.log("OBS: \(deck.status.sentence)", level: .info)
    }

    private func showFaces(now: ContinuousClock.Instant) {
        for (button, face, before) in deck.changedFaces(now: now) {
            if before == nil || face.title != before?.title { plugin.setTitle(face.title, for: button) }
            if before == nil || face.state != before?.state { plugin.setState(face.state, for: button) }
        }
    }

    /// Sleeps until the socket or the inbox has something, or the next tick (titles count seconds).
    private func wait() {
        var descriptors = [pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0)]
        switch link {
        case .connecting(let socket, _): descriptors.append(pollfd(fd: socket.descriptor, events: Int16(POLLOUT), revents: 0))
        case .upgrading(let socket, _, _), .open(let socket, _, _):
            descriptors.append(pollfd(fd: socket.descriptor, events: Int16(POLLIN) | (outgoing.isEmpty ? 0 : Int16(POLLOUT)),
                                      revents: 0))
        case .idle:
            break
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), 200)
    }
}
