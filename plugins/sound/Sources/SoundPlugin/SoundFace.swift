/// What a sound button shows: a state id of its profile (docs/plugins.md,
/// "sound") and a title in place of its name (nil: the name).
public struct SoundFace: Hashable, Sendable {
    /// The state ids the plugin sets.
    public enum State: String, CaseIterable, Hashable, Sendable {
        /// What the button controls is live and not muted.
        case unmuted
        /// It is muted.
        case muted
        /// It is not there now: no server, no such device, no stream of the app.
        case away
    }

    /// The state to show; nil for state 0 (the button as written).
    public var state: State?
    /// The title to show; nil for the button's name.
    public var title: String?

    /// Makes a face.
    public init(state: State?, title: String?) {
        self.state = state
        self.title = title
    }

    /// The title of a button whose settings cannot be used.
    public static let badSettingsTitle = "bad settings"
    /// The title while the sound server cannot be reached.
    public static let noServerTitle = "no server"
    /// The title while the named or default device does not exist.
    public static let noDeviceTitle = "no device"
    /// The title of an `app:` button while that application plays nothing.
    public static let noStreamTitle = "not playing"
}
