/// How the portal back end is doing: what `deckctl plugins keys` shows and,
/// when it cannot type, what every keys button shows.
package enum PortalCondition: Hashable, Sendable {
    /// The handshake runs; with a saved restore token the desktop should not ask.
    case starting(restoring: Bool)
    /// Keys go through; `restored` when the saved consent was reused.
    case ready(restored: Bool)
    /// The user said no in the consent dialog (Response code 1).
    case denied
    /// The consent dialog was dismissed or the interaction ended (code 2).
    case cancelled
    /// The desktop ended the session (`Session.Closed`: the user stopped sharing).
    case closed
    /// `org.freedesktop.portal.Desktop` left the bus (xdg-desktop-portal stopped).
    case portalGone
    /// The session bus connection broke.
    case busLost(String)
    /// The portal refused a call or answered something unusable.
    case failed(String)
    /// The plugin is stopping.
    case stopped

    /// The `setStatus` sentence.
    package var status: String {
        switch self {
        case .starting(restoring: true): "portal: restoring the remote-desktop session (consent was given before)"
        case .starting(restoring: false): "portal: waiting for consent (the desktop asks once; the answer is remembered)"
        case .ready(restored: true): "keyboard back end: RemoteDesktop portal (consent remembered)"
        case .ready(restored: false): "keyboard back end: RemoteDesktop portal (consent given)"
        case .denied: "portal: consent denied — run `deckctl plugins keys --reset` to ask again"
        case .cancelled: "portal: the consent dialog was cancelled — run `deckctl plugins keys --reset` to ask again"
        case .closed: "portal: the desktop closed the remote-desktop session — run `deckctl plugins keys --reset` to ask again"
        case .portalGone: "portal: xdg-desktop-portal left the session bus — run `deckctl restart keys` once it is back"
        case .busLost(let reason): "portal: the session bus went away (\(reason)) — run `deckctl restart keys` once it is back"
        case .failed(let reason): "portal: \(reason) — run `deckctl plugins keys --reset` to ask again"
        case .stopped: "portal: stopped"
        }
    }

    /// Why keys cannot be typed now, with the few words for the button; nil when they can.
    package var problem: KeysError? {
        let title: String
        switch self {
        case .ready: return nil
        case .starting(restoring: true): title = "connecting"
        case .starting(restoring: false): title = "waiting for consent"
        case .denied: title = "consent denied"
        case .cancelled: title = "consent cancelled"
        case .closed: title = "session closed"
        case .portalGone: title = "portal gone"
        case .busLost: title = "bus gone"
        case .failed: title = "portal failed"
        case .stopped: title = "stopped"
        }
        return .unavailable(reason: status, title: title)
    }
}
