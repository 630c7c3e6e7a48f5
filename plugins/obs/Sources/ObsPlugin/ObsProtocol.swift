import DeckModel

/// The fields of obs-websocket's `responseData` and `eventData` the plugin
/// reads, whatever the request or event (absent ones are nil).
struct ObsFields: Equatable, Sendable {
    var sceneName: String?
    var currentProgramSceneName: String?
    var currentPreviewSceneName: String?
    var outputActive: Bool?
    var outputState: String?
    /// Milliseconds, from `Get*Status`.
    var outputDuration: Int?
    var inputName: String?
    var inputMuted: Bool?
    var imageData: String?
    var obsVersion: String?
    var obsWebSocketVersion: String?
    var studioModeEnabled: Bool?

    init() {}

    init(_ object: JSONObject) {
        sceneName = object["sceneName"]?.stringValue
        currentProgramSceneName = object["currentProgramSceneName"]?.stringValue
        currentPreviewSceneName = object["currentPreviewSceneName"]?.stringValue
        outputActive = object["outputActive"]?.boolValue
        outputState = object["outputState"]?.stringValue
        outputDuration = object["outputDuration"]?.intValue ?? object["outputDuration"]?.doubleValue.flatMap {
            $0.isFinite && abs($0) < 1e15 ? Int($0) : nil
        }
        inputName = object["inputName"]?.stringValue
        inputMuted = object["inputMuted"]?.boolValue
        imageData = object["imageData"]?.stringValue
        obsVersion = object["obsVersion"]?.stringValue
        obsWebSocketVersion = object["obsWebSocketVersion"]?.stringValue
        studioModeEnabled = object["studioModeEnabled"]?.boolValue
    }
}

/// An event (op 5).
struct ObsEvent: Equatable, Sendable {
    var type: String
    var data: ObsFields
}

/// The answer to one request (op 7, or one result of op 9).
struct ObsResponse: Equatable, Sendable {
    var id: String
    var type: String
    var ok: Bool
    var code: Int
    var comment: String?
    var data: ObsFields
}

/// A message from the server, decoded.
enum ObsIncoming: Equatable, Sendable {
    /// op 0: `authentication` present when the server wants a password.
    case hello(rpcVersion: Int, webSocketVersion: String, challenge: String?, salt: String?)
    /// op 2.
    case identified(rpcVersion: Int)
    /// op 5.
    case event(ObsEvent)
    /// op 7.
    case response(ObsResponse)
    /// op 9: the batch's id and its results in order.
    case batchResponse(id: String, [ObsResponse])
}

/// obs-websocket v5's wire format (docs/generated/protocol.md of obsproject/obs-websocket).
enum ObsProtocol {
    /// The RPC version the plugin speaks.
    static let rpcVersion = 1
    /// Event subscriptions: General (ExitStarted), Scenes, Inputs (mute), Outputs (stream, record), Ui (studio mode).
    static let eventSubscriptions = (1 << 0) | (1 << 2) | (1 << 3) | (1 << 6) | (1 << 10)
    /// The deepest JSON read from the server (its messages nest a few levels).
    static let maximumDepth = 32
    /// Close codes of obs-websocket's `WebSocketCloseCode`.
    static let authenticationFailed: UInt16 = 4009

    /// Decodes one text message; a message that is not one is a protocol violation.
    static func decode(_ text: String) throws(ObsError) -> ObsIncoming {
        do {
            return try JSONValue.read(Array(text.utf8), maximumDepth: maximumDepth, noun: "message") { root throws(JSONError) in
                guard let message = root.objectValue, let op = message["op"]?.intValue,
                      let data = message["d"]?.objectValue else {
                    throw JSONError.malformed("it is not {\"op\": N, \"d\": {…}}")
                }
                return try incoming(op: op, data)
            }
        } catch {
            throw .protocolViolation("\(error)")
        }
    }

    private static func incoming(op: Int, _ data: JSONObject) throws(JSONError) -> ObsIncoming {
        switch op {
        case 0:
            guard let rpc = data["rpcVersion"]?.intValue else { throw JSONError.missing("rpcVersion", expected: "a number") }
            let authentication = data["authentication"]?.objectValue
            return .hello(rpcVersion: rpc, webSocketVersion: data["obsWebSocketVersion"]?.stringValue ?? "?",
                          challenge: authentication?["challenge"]?.stringValue, salt: authentication?["salt"]?.stringValue)
        case 2:
            guard let rpc = data["negotiatedRpcVersion"]?.intValue else {
                throw JSONError.missing("negotiatedRpcVersion", expected: "a number")
            }
            return .identified(rpcVersion: rpc)
        case 5:
            guard let type = data["eventType"]?.stringValue else { throw JSONError.missing("eventType", expected: "a string") }
            return .event(ObsEvent(type: type, data: data["eventData"]?.objectValue.map(ObsFields.init) ?? ObsFields()))
        case 7:
            return .response(try response(data))
        case 9:
            guard let id = data["requestId"]?.stringValue else { throw JSONError.missing("requestId", expected: "a string") }
            guard let results = data["results"]?.arrayValue else { throw JSONError.missing("results", expected: "an array") }
            var responses: [ObsResponse] = []
            for result in results {
                guard let object = result.objectValue else { throw JSONError.malformed("a batch result is not an object") }
                responses.append(try response(object, defaultID: ""))
            }
            return .batchResponse(id: id, responses)
        default:
            throw JSONError.malformed("op \(op) is not one a server sends")
        }
    }

    private static func response(_ data: JSONObject, defaultID: String? = nil) throws(JSONError) -> ObsResponse {
        guard let id = data["requestId"]?.stringValue ?? defaultID else {
            throw JSONError.missing("requestId", expected: "a string")
        }
        guard let status = data["requestStatus"]?.objectValue, let ok = status["result"]?.boolValue else {
            throw JSONError.missing("requestStatus", expected: "{result, code}")
        }
        return ObsResponse(id: id, type: data["requestType"]?.stringValue ?? "", ok: ok, code: status["code"]?.intValue ?? 0,
                           comment: status["comment"]?.stringValue,
                           data: data["responseData"]?.objectValue.map(ObsFields.init) ?? ObsFields())
    }

    // MARK: Encoding

    /// op 1.
    static func identify(authentication: String?) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("op", 1)
        writer.key("d")
        writer.beginObject()
        writer.field("rpcVersion", rpcVersion)
        if let authentication { writer.field("authentication", authentication) }
        writer.field("eventSubscriptions", eventSubscriptions)
        writer.endObject()
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// op 6.
    static func request(_ request: ObsRequest, id: String) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("op", 6)
        writer.key("d")
        body(of: request, id: id, into: &writer)
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// op 8, the requests run in order (`SerialRealtime`), each with its own id.
    static func batch(_ requests: [(ObsRequest, id: String)], id: String) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("op", 8)
        writer.key("d")
        writer.beginObject()
        writer.field("requestId", id)
        writer.field("haltOnFailure", false)
        writer.key("requests")
        writer.beginArray()
        for (request, requestID) in requests { body(of: request, id: requestID, into: &writer) }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func body(of request: ObsRequest, id: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("requestType", request.type)
        writer.field("requestId", id)
        if !request.data.isEmpty {
            writer.key("requestData")
            writer.write(request.data)
        }
        writer.endObject()
    }
}

/// One request: its type and its `requestData`.
struct ObsRequest: Equatable, Sendable {
    var type: String
    var data: [String: DeckValue] = [:]
}
