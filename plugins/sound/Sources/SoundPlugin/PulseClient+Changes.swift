internal import CPulse

/// What a change's callback needs to know: the client and what was changed.
private final class ChangeRequest {
    unowned let client: PulseClient
    let endpoint: SoundEndpoint

    init(client: PulseClient, endpoint: SoundEndpoint) {
        self.client = client
        self.endpoint = endpoint
    }
}

extension PulseClient {
    /// Asks the server for a mute or volume change; the server's own event
    /// then updates every button. A refusal is fed back to the machine.
    func request(_ change: SoundState.SoundChange, of endpoint: SoundEndpoint) {
        guard let context else { return }
        let request = Unmanaged.passRetained(ChangeRequest(client: self, endpoint: endpoint))
        let done: pa_context_success_cb_t = { context, success, userdata in
            guard let userdata else { return }
            let request = Unmanaged<ChangeRequest>.fromOpaque(userdata).takeRetainedValue()
            request.client.changeEnded(context, success: success != 0, endpoint: request.endpoint)
        }
        let userdata = request.toOpaque()
        let operation: OpaquePointer?
        switch (endpoint, change) {
        case (.sink(let name), .mute(let mute)):
            operation = pa_context_set_sink_mute_by_name(context, name, mute ? 1 : 0, done, userdata)
        case (.source(let name), .mute(let mute)):
            operation = pa_context_set_source_mute_by_name(context, name, mute ? 1 : 0, done, userdata)
        case (.stream(let index), .mute(let mute)):
            operation = pa_context_set_sink_input_mute(context, index, mute ? 1 : 0, done, userdata)
        case (.sink(let name), .volume(let channels)):
            var volume = SoundLevel.cvolume(channels)
            operation = pa_context_set_sink_volume_by_name(context, name, &volume, done, userdata)
        case (.source(let name), .volume(let channels)):
            var volume = SoundLevel.cvolume(channels)
            operation = pa_context_set_source_volume_by_name(context, name, &volume, done, userdata)
        case (.stream(let index), .volume(let channels)):
            var volume = SoundLevel.cvolume(channels)
            operation = pa_context_set_sink_input_volume(context, index, &volume, done, userdata)
        }
        guard let operation else {
            request.release()
            feed(.changeFailed(endpoint, reason: Self.reason(context)))
            return
        }
        pa_operation_unref(operation)
    }

    fileprivate func changeEnded(_ from: OpaquePointer?, success: Bool, endpoint: SoundEndpoint) {
        guard let context, from == context, !success else { return }
        feed(.changeFailed(endpoint, reason: Self.reason(context)))
    }
}
