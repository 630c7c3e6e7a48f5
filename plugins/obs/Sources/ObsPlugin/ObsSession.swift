/// Whether the plugin is talking to OBS: what `deckctl plugins obs` and the buttons show.
public enum ObsConnectionStatus: Equatable, Sendable {
    /// Connecting (or waiting to connect again).
    case connecting
    /// Identified; the versions as the server reported them (OBS's once `GetVersion` answered).
    case connected(obs: String?, webSocket: String)
    /// OBS refused the password (or wants one and none is set).
    case unauthorised(String)
    /// No answer: nothing listens, the socket broke, or OBS stopped answering.
    case unreachable(String)

    /// One word: `connecting`, `connected`, `unauthorised`, `unreachable`.
    public var word: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case .unauthorised: "unauthorised"
        case .unreachable: "unreachable"
        }
    }

    /// The sentence for `deckctl plugins obs`.
    public var sentence: String {
        switch self {
        case .connecting: "connecting to OBS"
        case .connected(let obs, let webSocket): "connected to OBS\(obs.map { " " + $0 } ?? "") (obs-websocket \(webSocket))"
        case .unauthorised(let why): "unauthorised: \(why)"
        case .unreachable(let why): "unreachable: \(why)"
        }
    }
}

/// One obs-websocket v5 session from the opened WebSocket to its end, as a
/// value: Hello → Identify (with the authentication string) → Identified,
/// then requests matched to their responses by id, each with a deadline.
/// The caller feeds it what happened and performs the actions it returns.
struct ObsSession {
    /// What the caller must do.
    enum Action: Equatable {
        /// Write this text message.
        case send(String)
        /// Close the WebSocket and the socket; the session is over.
        case close(ObsConnectionStatus)
        /// Identified: the session takes requests now.
        case identified(webSocketVersion: String)
        case event(ObsEvent)
        case response(ObsResponse)
        /// A request that got no answer in time or was refused before it went out.
        case failed(id: String, ObsRequest, String)
    }

    private enum State: Equatable {
        case waitingForHello(since: ContinuousClock.Instant)
        case identifying(since: ContinuousClock.Instant, webSocketVersion: String)
        case identified
        case over
    }

    /// How long the server may take to greet, to identify us, and to answer a request.
    static let answerTimeout: Duration = .seconds(5)
    /// Requests awaiting an answer at most; more are refused (a server that stopped reading).
    static let maximumPending = 64

    private var state: State
    private let password: String?
    private var pending: [String: (request: ObsRequest, sent: ContinuousClock.Instant)] = [:]
    private var batches: [String: (ids: [String], sent: ContinuousClock.Instant)] = [:]
    private var nextID = 1

    /// A session whose WebSocket just opened at `now`.
    init(password: String?, now: ContinuousClock.Instant) {
        self.password = password
        state = .waitingForHello(since: now)
    }

    var isIdentified: Bool { state == .identified }
    var pendingCount: Int { pending.count }

    /// A text message from the server.
    mutating func received(_ text: String, now: ContinuousClock.Instant) -> [Action] {
        guard state != .over else { return [] }
        let message: ObsIncoming
        do throws(ObsError) {
            message = try ObsProtocol.decode(text)
        } catch {
            return end(.unreachable(error.description))
        }
        switch (state, message) {
        case (.waitingForHello, .hello(let rpc, let version, let challenge, let salt)):
            guard rpc >= ObsProtocol.rpcVersion else {
                return end(.unreachable("OBS speaks obs-websocket RPC \(rpc); the plugin needs \(ObsProtocol.rpcVersion) (obs-websocket 5)"))
            }
            var authentication: String?
            if let challenge, let salt {
                guard let password, !password.isEmpty else {
                    return end(.unauthorised("OBS wants a password and none is set (settings: password or passwordFile)"))
                }
                authentication = ObsDigest.authentication(password: password, salt: salt, challenge: challenge)
            }
            state = .identifying(since: now, webSocketVersion: version)
            return [.send(ObsProtocol.identify(authentication: authentication))]
        case (.identifying(_, let version), .identified(let rpc)):
            guard rpc == ObsProtocol.rpcVersion else { return end(.unreachable("OBS negotiated RPC version \(rpc)")) }
            state = .identified
            return [.identified(webSocketVersion: version)]
        case (.identified, .event(let event)):
            return [.event(event)]
        case (.identified, .response(let response)):
            guard pending.removeValue(forKey: response.id) != nil else { return [] }  // one we gave up on
            return [.response(response)]
        case (.identified, .batchResponse(let id, let results)):
            guard let batch = batches.removeValue(forKey: id) else { return [] }
            var actions: [Action] = []
            for (index, result) in results.enumerated() {
                let resultID = result.id.isEmpty && index < batch.ids.count ? batch.ids[index] : result.id
                guard pending.removeValue(forKey: resultID) != nil else { continue }
                actions.append(.response(ObsResponse(id: resultID, type: result.type, ok: result.ok, code: result.code,
                                                     comment: result.comment, data: result.data)))
            }
            return actions
        default:
            return end(.unreachable("OBS sent op \(Self.op(of: message)) out of turn"))
        }
    }

    /// Sends one request; returns its id with the actions (nil when it was refused).
    mutating func request(_ request: ObsRequest, now: ContinuousClock.Instant) -> (id: String?, actions: [Action]) {
        guard state == .identified else { return (nil, []) }
        guard pending.count < Self.maximumPending else {
            return (nil, [.failed(id: "", request, "too many OBS requests are waiting for an answer")])
        }
        let id = takeID()
        pending[id] = (request, now)
        return (id, [.send(ObsProtocol.request(request, id: id))])
    }

    /// Sends requests as one RequestBatch; returns their ids in order.
    mutating func batch(_ requests: [ObsRequest], now: ContinuousClock.Instant) -> (ids: [String], actions: [Action]) {
        guard state == .identified, !requests.isEmpty, pending.count + requests.count <= Self.maximumPending else {
            return ([], [])
        }
        let ids = requests.map { request in
            let id = takeID()
            pending[id] = (request, now)
            return id
        }
        let batchID = takeID()
        batches[batchID] = (ids, now)
        return (ids, [.send(ObsProtocol.batch(Array(zip(requests, ids)).map { ($0.0, id: $0.1) }, id: batchID))])
    }

    /// Time passed: a server that does not greet, identify or answer in time is unreachable.
    mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .waitingForHello(let since) where now - since > Self.answerTimeout:
            return end(.unreachable("OBS did not send Hello within \(Self.answerTimeout)"))
        case .identifying(let since, _) where now - since > Self.answerTimeout:
            return end(.unreachable("OBS did not answer Identify within \(Self.answerTimeout)"))
        case .identified:
            if let late = pending.first(where: { now - $0.value.sent > Self.answerTimeout }) {
                return end(.unreachable("OBS did not answer \(late.value.request.type) within \(Self.answerTimeout)"))
            }
            return []
        default:
            return []
        }
    }

    /// The WebSocket ended (the server closed with `code`, or the socket broke).
    mutating func closed(code: UInt16?, why: String) -> [Action] {
        guard state != .over else { return [] }
        if code == ObsProtocol.authenticationFailed {
            return end(.unauthorised("OBS refused the password (close \(code!))"))
        }
        let closer = "OBS closed the connection"
        // A socket that just ended says so itself ("OBS closed the connection"): not twice.
        let status: ObsConnectionStatus = state == .identified && !(code == nil && why == closer)
            ? .unreachable("\(closer)\(code.map { " (close \($0))" } ?? ""): \(why)")
            : .unreachable(why)
        return end(status)
    }

    private mutating func end(_ status: ObsConnectionStatus) -> [Action] {
        state = .over
        var actions = pending.sorted { $0.key < $1.key }.map { Action.failed(id: $0.key, $0.value.request, status.sentence) }
        pending = [:]
        batches = [:]
        actions.append(.close(status))
        return actions
    }

    private mutating func takeID() -> String {
        defer { nextID += 1 }
        return "d\(nextID)"
    }

    private static func op(of message: ObsIncoming) -> Int {
        switch message {
        case .hello: 0
        case .identified: 2
        case .event: 5
        case .response: 7
        case .batchResponse: 9
        }
    }
}
