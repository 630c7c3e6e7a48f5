#if canImport(Glibc)
import Glibc
#endif
import DeckDBus

/// The errors of the media plugin: each a sentence a user can act on.
package struct MediaError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What went wrong.
    package var description: String

    /// A system call's error: `what` failed with the negative errno `code`.
    package init(_ what: String, code: Int32) {
        description = "\(what) failed: \(MediaError.errnoText(-code)) (errno \(-code))"
    }

    /// An error with its own text.
    package init(_ text: String) {
        description = text
    }

    /// An error of the bus (DeckDBus), in its own words.
    package init(_ error: DBusError) {
        description = error.description
    }

    static func errnoText(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "unknown error" }
        return String(cString: text)
    }
}
