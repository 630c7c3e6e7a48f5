internal import CPulse

/// The four listings the plugin keeps of the server.
enum ListKind: CaseIterable, Hashable, Sendable {
    case server, sinks, sources, streams
}

/// Coalescing of listings: at most one query of each kind in flight; events
/// that arrive meanwhile only mark it dirty, and one more query follows
/// when it ends. A flood of server events so costs at most two queries per
/// kind at any moment, and no queue grows.
struct ListTracker {
    var inFlight: Set<ListKind> = []
    var dirty: Set<ListKind> = []
    /// Kinds the first listing of this connection still waits for.
    var firstListing: Set<ListKind> = Set(ListKind.allCases)
    var listed = SoundServer()
    var description = "the sound server"
    var sinks: [SoundDevice] = []
    var sources: [SoundDevice] = []
    var streams: [SoundStream] = []
}

extension PulseClient {
    func refresh(_ kind: ListKind) {
        guard let context else { return }
        if lists.inFlight.contains(kind) {
            lists.dirty.insert(kind)
            return
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let operation: OpaquePointer?
        switch kind {
        case .server:
            operation = pa_context_get_server_info(context, { context, info, userdata in
                guard let userdata else { return }
                Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue().serverListed(context, info)
            }, me)
        case .sinks:
            lists.sinks = []
            operation = pa_context_get_sink_info_list(context, { context, info, eol, userdata in
                let device = info.map { (name: $0.pointee.name, muted: $0.pointee.mute != 0, volume: $0.pointee.volume) }
                PulseClient.from(userdata, context)?.listedDevice(.sinks, device, eol: eol)
            }, me)
        case .sources:
            lists.sources = []
            operation = pa_context_get_source_info_list(context, { context, info, eol, userdata in
                let device = info.map { (name: $0.pointee.name, muted: $0.pointee.mute != 0, volume: $0.pointee.volume) }
                PulseClient.from(userdata, context)?.listedDevice(.sources, device, eol: eol)
            }, me)
        case .streams:
            lists.streams = []
            operation = pa_context_get_sink_input_info_list(context, { context, info, eol, userdata in
                guard let client = PulseClient.from(userdata, context) else { return }
                if let info = info?.pointee {
                    client.lists.streams.append(SoundStream(
                        index: info.index, application: property(info.proplist, "application.name"),
                        binary: property(info.proplist, "application.process.binary"),
                        level: SoundLevel(muted: info.mute != 0, volume: info.volume)))
                }
                if eol != 0 { client.listed(.streams, ok: eol > 0) }
            }, me)
        }
        guard let operation else {
            died = died ?? Self.reason(context)
            return
        }
        pa_operation_unref(operation)
        lists.inFlight.insert(kind)
    }

    /// The client of a callback's userdata, nil when the callback is of a
    /// context already replaced (libpulse ends a freed context's queries).
    static func from(_ userdata: UnsafeMutableRawPointer?, _ context: OpaquePointer?) -> PulseClient? {
        guard let userdata else { return nil }
        let client = Unmanaged<PulseClient>.fromOpaque(userdata).takeUnretainedValue()
        return context == client.context && context != nil ? client : nil
    }

    /// One entry of a sink or source listing, or its end (`eol` 1, or -1 for a failure).
    private func listedDevice(_ kind: ListKind, _ device: (name: UnsafePointer<CChar>?, muted: Bool, volume: pa_cvolume)?,
                              eol: Int32) {
        if let device, let name = device.name {
            let listed = SoundDevice(name: String(cString: name), level: SoundLevel(muted: device.muted, volume: device.volume))
            if kind == .sinks { lists.sinks.append(listed) } else { lists.sources.append(listed) }
        }
        if eol != 0 { listed(kind, ok: eol > 0) }
    }

    private func serverListed(_ from: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?) {
        guard let context, from == context else { return }
        if let info = info?.pointee {
            lists.listed.defaultSink = info.default_sink_name.map { String(cString: $0) }
            lists.listed.defaultSource = info.default_source_name.map { String(cString: $0) }
            let name = info.server_name.map { String(cString: $0) } ?? "a sound server"
            let version = info.server_version.map { String(cString: $0) } ?? "?"
            let address = pa_context_get_server(context).map { String(cString: $0) } ?? "its usual address"
            lists.description = "\(name) \(version) at \(address)"
        }
        listed(.server, ok: info != nil)
    }

    /// One listing ended: hand it to the machine (all four together the
    /// first time), then run the query again if events came meanwhile.
    func listed(_ kind: ListKind, ok: Bool) {
        lists.inFlight.remove(kind)
        guard ok else {
            // A failed listing means a failing connection; its state callback says why.
            if let context, pa_context_get_state(context) == PA_CONTEXT_READY { lists.dirty.insert(kind) }
            return retry(kind)
        }
        if lists.firstListing.contains(kind) {
            switch kind {
            case .server: break
            case .sinks: lists.listed.sinks = lists.sinks
            case .sources: lists.listed.sources = lists.sources
            case .streams: lists.listed.streams = lists.streams
            }
            lists.firstListing.remove(kind)
            if lists.firstListing.isEmpty { feed(.connected(lists.listed, description: lists.description)) }
        } else {
            switch kind {
            case .server: feed(.defaults(sink: lists.listed.defaultSink, source: lists.listed.defaultSource))
            case .sinks: feed(.sinks(lists.sinks))
            case .sources: feed(.sources(lists.sources))
            case .streams: feed(.streams(lists.streams))
            }
        }
        retry(kind)
    }

    private func retry(_ kind: ListKind) {
        if lists.dirty.remove(kind) != nil { refresh(kind) }
    }
}

/// A property of a proplist as a string, nil when absent.
func property(_ list: OpaquePointer?, _ key: String) -> String? {
    guard let list, let value = pa_proplist_gets(list, key) else { return nil }
    return String(cString: value)
}

extension SoundLevel {
    init(muted: Bool, volume: pa_cvolume) {
        let count = min(Int(volume.channels), Int(PA_CHANNELS_MAX))
        let channels = withUnsafeBytes(of: volume.values) { Array($0.bindMemory(to: UInt32.self).prefix(count)) }
        self.init(muted: muted, channels: channels)
    }

    /// The channels as a `pa_cvolume` for a set-volume call.
    static func cvolume(_ channels: [UInt32]) -> pa_cvolume {
        var volume = pa_cvolume()
        let count = min(channels.count, Int(PA_CHANNELS_MAX))
        volume.channels = UInt8(count)
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let values = raw.bindMemory(to: UInt32.self)
            for position in 0..<count { values[position] = min(channels[position], UInt32(PA_VOLUME_MAX)) }
        }
        return volume
    }
}
