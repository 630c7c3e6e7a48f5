#if canImport(Glibc)
import Glibc
#endif

/// A way to put keys into the desktop: the RemoteDesktop portal (Wayland),
/// X11 through XTest, or a uinput virtual keyboard.
public protocol KeyboardBackEnd: AnyObject {
    /// What it is, for the log and its ``status`` (`X11 (XTest) on :1`).
    var summary: String { get }
    /// The sentence `deckctl plugins keys` shows (`setStatus`): the back end,
    /// and what broke it when it can no longer work (the X server went away).
    var status: String { get }
    /// Presses and releases each chord in turn.
    func tap(_ chords: [KeyChord]) throws(KeysError)
    /// Taps every chord but the last, then holds the last down for `button`.
    func hold(_ chords: [KeyChord], for button: ButtonKey) throws(KeysError)
    /// Lets go of what `button` holds.
    func release(_ button: ButtonKey)
    /// Types `text` as its characters, whatever the layout.
    func type(_ text: String) throws(KeysError)
    /// Lets go of every key this back end holds, and gives back what it borrowed.
    func releaseAll()
}

extension KeyboardBackEnd {
    /// A back end that cannot break after it opened says only what it is.
    public var status: String { "keyboard back end: \(summary)" }
}

/// Picks the back end at start from the environment.
public enum KeyboardBackEnds {
    /// The back end to use, or why there is none.
    ///
    /// `DECK_KEYS_BACKEND` (`portal`, `xtest`, `uinput`) forces one.
    /// Otherwise the RemoteDesktop portal when `WAYLAND_DISPLAY` is set and
    /// the portal answers (`portalProblem` returns nil: version 2 or later,
    /// with a keyboard), else X11 when `DISPLAY` is set and the server has
    /// XTest, else uinput when `/dev/uinput` is writable. Why the portal was
    /// passed over goes to `note`; having nothing is
    /// ``KeysError/noBackEnd(reason:)`` with the reasons.
    public static func choose(environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } },
                              uinputWritable: () -> Bool = { access("/dev/uinput", W_OK) == 0 },
                              portalProblem: () -> String? = { PortalProbe.problem() },
                              note: (String) -> Void = { _ in })
        -> Result<KeyboardBackEnd, KeysError>
    {
        let forced = environment("DECK_KEYS_BACKEND").flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let display = environment("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        let wayland = environment("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        var passedOver: String?
        if forced == "portal" || (forced == nil && wayland != nil) {
            guard let problem = portalProblem() else { return portal() }
            guard forced == nil else { return .failure(.noBackEnd(reason: "the RemoteDesktop portal cannot be used: \(problem)")) }
            passedOver = problem
            note("this is a Wayland session, but the RemoteDesktop portal cannot be used (\(problem)); trying XTest and uinput")
        }
        switch forced {
        case "uinput":
            return uinput()
        case nil where display == nil && uinputWritable():
            return uinput()
        case "xtest", nil:
            guard let display else {
                let portal = passedOver.map { "; this is a Wayland session, and the RemoteDesktop portal cannot be used: \($0)" } ?? ""
                let uinput = forced == nil ? ", and /dev/uinput is not writable" : ""
                return .failure(.noBackEnd(reason: "DISPLAY is not set, so there is no X server for XTest\(uinput)\(portal)"))
            }
            do throws(KeysError) {
                return .success(try X11Keyboard(display: display))
            } catch {
                return .failure(.noBackEnd(reason: "\(error)"))
            }
        case let other?:
            return .failure(.noBackEnd(reason: "DECK_KEYS_BACKEND=\(other) is not one of portal, xtest, uinput"))
        }
    }

    /// The X display XTest is tried on (`DISPLAY`), unless `DECK_KEYS_BACKEND`
    /// names another back end: what ``KeysRevival`` opens again when that X
    /// server goes away, or was not up yet when the plugin started (a session
    /// whose deckd starts before its X server).
    public static func x11Display(environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } })
        -> String?
    {
        let forced = environment("DECK_KEYS_BACKEND").flatMap { $0.isEmpty ? nil : $0.lowercased() }
        guard forced == nil || forced == "xtest" else { return nil }
        return environment("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func portal() -> Result<KeyboardBackEnd, KeysError> {
        do throws(KeysError) {
            return .success(PortalKeyboard(link: try PortalLink()))
        } catch {
            return .failure(.noBackEnd(reason: "\(error)"))
        }
    }

    private static func uinput() -> Result<KeyboardBackEnd, KeysError> {
        do throws(KeysError) {
            return .success(try UInputKeyboard.open())
        } catch {
            return .failure(.noBackEnd(reason: "\(error)"))
        }
    }
}
