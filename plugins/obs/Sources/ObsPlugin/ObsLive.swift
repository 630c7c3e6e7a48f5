/// An OBS output's state as obs-websocket reports it (`OBS_WEBSOCKET_OUTPUT_*`).
enum ObsOutputState: String, Equatable, Sendable {
    case off, starting, on, stopping

    /// From an `outputState` of `StreamStateChanged`/`RecordStateChanged`; nil for others (paused, reconnecting…).
    init?(event: String) {
        switch event {
        case "OBS_WEBSOCKET_OUTPUT_STARTING": self = .starting
        case "OBS_WEBSOCKET_OUTPUT_STARTED", "OBS_WEBSOCKET_OUTPUT_RESUMED", "OBS_WEBSOCKET_OUTPUT_RECONNECTED": self = .on
        case "OBS_WEBSOCKET_OUTPUT_STOPPING": self = .stopping
        case "OBS_WEBSOCKET_OUTPUT_STOPPED": self = .off
        default: return nil
        }
    }
}

/// What the plugin knows of OBS: kept from the first sync and every event after it.
struct ObsLive: Equatable, Sendable {
    var programScene: String?
    var previewScene: String?
    var studioMode = false
    var stream = ObsOutputState.off
    var streamSince: ContinuousClock.Instant?
    var record = ObsOutputState.off
    var recordSince: ContinuousClock.Instant?
    /// Inputs the plugin asked about or heard of.
    var muted: [String: Bool] = [:]

    /// Applies an event; returns false when the event is not one the plugin follows.
    @discardableResult
    mutating func apply(_ event: ObsEvent, now: ContinuousClock.Instant) -> Bool {
        let data = event.data
        switch event.type {
        case "CurrentProgramSceneChanged":
            programScene = data.sceneName
        case "CurrentPreviewSceneChanged":
            previewScene = data.sceneName
        case "StudioModeStateChanged":
            studioMode = data.studioModeEnabled ?? studioMode
            if !studioMode { previewScene = nil }
        case "StreamStateChanged":
            guard let state = data.outputState.flatMap(ObsOutputState.init(event:)) else { return false }
            if state == .on && stream != .on { streamSince = now }
            if state == .off { streamSince = nil }
            stream = state
        case "RecordStateChanged":
            guard let state = data.outputState.flatMap(ObsOutputState.init(event:)) else { return false }
            if state == .on && record != .on { recordSince = now }
            if state == .off { recordSince = nil }
            record = state
        case "InputMuteStateChanged":
            guard let name = data.inputName, let muted = data.inputMuted else { return false }
            self.muted[name] = muted
        default:
            return false
        }
        return true
    }

    /// Applies the answer to one of the sync requests (``ObsDeck/syncRequests``).
    mutating func apply(_ response: ObsResponse, to request: ObsRequest, now: ContinuousClock.Instant) {
        guard response.ok else { return }
        let data = response.data
        switch request.type {
        case "GetSceneList":
            programScene = data.currentProgramSceneName
            previewScene = data.currentPreviewSceneName
        case "GetStudioModeEnabled":
            studioMode = data.studioModeEnabled ?? false
        case "GetStreamStatus":
            (stream, streamSince) = Self.output(data, now: now)
        case "GetRecordStatus":
            (record, recordSince) = Self.output(data, now: now)
        case "GetInputMute":
            if case .string(let name)? = request.data["inputName"], let muted = data.inputMuted { self.muted[name] = muted }
        default:
            break
        }
    }

    private static func output(_ data: ObsFields, now: ContinuousClock.Instant) -> (ObsOutputState, ContinuousClock.Instant?) {
        guard data.outputActive == true else { return (.off, nil) }
        return (.on, now - .milliseconds(max(0, data.outputDuration ?? 0)))
    }
}
