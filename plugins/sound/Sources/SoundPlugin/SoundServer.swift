/// The mute switch and per-channel volume of a device or stream, as libpulse
/// reports them (raw `pa_volume_t` values, ``SoundLevel/normal`` = 100 %).
public struct SoundLevel: Hashable, Sendable {
    /// `PA_VOLUME_NORM`: the volume of 100 %.
    public static let normal: UInt32 = 0x10000

    /// Whether it is muted.
    public var muted: Bool
    /// The volume of each channel.
    public var channels: [UInt32]

    /// Makes a level.
    public init(muted: Bool, channels: [UInt32]) {
        self.muted = muted
        self.channels = channels
    }

    /// The average volume in whole percent, as the button shows it.
    public var percent: Int {
        guard !channels.isEmpty else { return 0 }
        let average = Double(channels.reduce(UInt64(0)) { $0 + UInt64($1) }) / Double(channels.count)
        return Int((average * 100 / Double(Self.normal)).rounded())
    }

    /// The channels after a press of `step` percent points: the average
    /// moves to the new percentage and the balance between channels is
    /// kept. Raising never goes above 100 % (a level already above stays);
    /// lowering stops at 0.
    public func stepped(by step: Int) -> [UInt32] {
        let now = percent
        let wanted = step > 0 ? min(now + step, max(now, 100)) : max(now + step, 0)
        let target = Double(wanted) * Double(Self.normal) / 100
        let count = max(channels.count, 1)
        let average = Double(channels.reduce(UInt64(0)) { $0 + UInt64($1) }) / Double(count)
        guard average > 0 else { return Array(repeating: UInt32(target.rounded()), count: count) }
        let ceiling = Double(max(Self.normal, channels.max() ?? 0))
        return channels.map { UInt32(min((Double($0) * target / average).rounded(), ceiling)) }
    }
}

/// A sink or source of the server.
public struct SoundDevice: Hashable, Sendable {
    /// Its name (`alsa_output.pci-…`), what `device:` settings give.
    public var name: String
    /// Its mute and volume.
    public var level: SoundLevel

    /// Makes a device.
    public init(name: String, level: SoundLevel) {
        self.name = name
        self.level = level
    }
}

/// A playback stream (sink input) of an application.
public struct SoundStream: Hashable, Sendable {
    /// Its index on the server, which mute and volume calls name.
    public var index: UInt32
    /// `application.name` of its client (`Firefox`), if it has one.
    public var application: String?
    /// `application.process.binary` (`firefox`), if it has one.
    public var binary: String?
    /// Its mute and volume.
    public var level: SoundLevel

    /// Makes a stream.
    public init(index: UInt32, application: String?, binary: String?, level: SoundLevel) {
        self.index = index
        self.application = application
        self.binary = binary
        self.level = level
    }

    /// Whether `app:` names this stream: its application name or its
    /// binary, ignoring case.
    public func belongs(to app: String) -> Bool {
        let wanted = app.lowercased()
        return application?.lowercased() == wanted || binary?.lowercased() == wanted
    }
}

/// What the plugin knows of the server: the defaults and every sink, source
/// and playback stream, each replaced whole when libpulse lists it again.
public struct SoundServer: Hashable, Sendable {
    /// The default sink's name.
    public var defaultSink: String?
    /// The default source's name.
    public var defaultSource: String?
    /// Every sink.
    public var sinks: [SoundDevice] = []
    /// Every source (monitors included: a button may name one).
    public var sources: [SoundDevice] = []
    /// Every playback stream.
    public var streams: [SoundStream] = []

    /// An empty server.
    public init() {}
}

/// Where a mute or volume change goes: the calls libpulse has for them.
public enum SoundEndpoint: Hashable, Sendable {
    /// `pa_context_set_sink_*_by_name`.
    case sink(String)
    /// `pa_context_set_source_*_by_name`.
    case source(String)
    /// `pa_context_set_sink_input_*`.
    case stream(UInt32)
}
