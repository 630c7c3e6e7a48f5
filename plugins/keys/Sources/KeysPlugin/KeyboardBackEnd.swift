#if canImport(Glibc)
import Glibc
#endif

/// A way to put keys into the desktop: X11 through XTest, or a uinput
/// virtual keyboard (the RemoteDesktop portal back end of issue 25 is not
/// built yet, and says so).
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
    /// `DECK_KEYS_BACKEND` (`xtest`, `portal`, `uinput`) forces one; otherwise
    /// X11 when `DISPLAY` is set and the server has XTest, else uinput when
    /// `/dev/uinput` is writable. The portal (Wayland) back end is not built
    /// yet: choosing it, or having nothing else, is
    /// ``KeysError/noBackEnd(reason:)`` with the reason.
    public static func choose(environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } },
                              uinputWritable: () -> Bool = { access("/dev/uinput", W_OK) == 0 })
        -> Result<KeyboardBackEnd, KeysError>
    {
        let forced = environment("DECK_KEYS_BACKEND").flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let display = environment("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        switch forced {
        case "portal":
            return .failure(.noBackEnd(reason: "the RemoteDesktop portal back end (Wayland) is not built yet"))
        case "uinput":
            return uinput()
        case nil where display == nil && uinputWritable():
            return uinput()
        case "xtest", nil:
            guard let display else {
                let wayland = environment("WAYLAND_DISPLAY").map { _ in
                    "; this is a Wayland session, and the RemoteDesktop portal back end is not built yet"
                } ?? ""
                let uinput = forced == nil ? ", and /dev/uinput is not writable" : ""
                return .failure(.noBackEnd(reason: "DISPLAY is not set, so there is no X server for XTest\(uinput)\(wayland)"))
            }
            do throws(KeysError) {
                return .success(try X11Keyboard(display: display))
            } catch {
                return .failure(.noBackEnd(reason: "\(error)"))
            }
        case let other?:
            return .failure(.noBackEnd(reason: "DECK_KEYS_BACKEND=\(other) is not one of xtest, portal, uinput"))
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
