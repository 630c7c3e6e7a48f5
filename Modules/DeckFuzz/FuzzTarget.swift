/// A decoder of untrusted bytes with the property a fuzzer checks on it
/// (docs/reliability.md). Each case is one libFuzzer binary
/// target of `deck-fuzz` (built by `make fuzz-build`) and one corpus folder
/// (`Fuzz/Corpus/<rawValue>/`); the regression tests run `check` over every
/// corpus file and crash fixture in the ordinary debug build.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// A line a device or deckctl sends the host (PROTOCOL.md), and a line the host sends a device.
    case protocolLine = "protocol"
    /// The strict JSON parser every line and snapshot goes through.
    case json
    /// Profile YAML → layout, or its problems (PROFILE.md).
    case profile
    /// A plugin's `plugin.yaml` (PLUGINS.md §1).
    case manifest
    /// A snapshot file: gzip + JSON (PROFILE.md §6).
    case snapshot
    /// A journal segment: its records' framing, and the store's recovery from them (docs/snapshots.md).
    case journal
    /// A line a plugin writes to the host, and an event line the host writes to a plugin (PLUGINS.md §2).
    case pluginMessage = "plugin-message"
    /// An HTTP request head on the web listener (WEB.md §2), and the WebSocket upgrade's answer.
    case httpHead = "http-head"
    /// The WebSocket frames a browser sends after the upgrade (WEB.md §4, RFC 6455).
    case websocket
    /// A pairing code as a device sends it (WEB.md §3).
    case pairing
    /// What an MPRIS player puts in `PlaybackStatus` and `Metadata`, through the media plugin's machine.
    case mediaMetadata = "media-metadata"
    /// The bytes of a plugin's `setImage`: PNG, JPEG and SVG sniffing (docs/faces.md §3).
    case faceImage = "face-image"

    /// Runs the decoder on `bytes` and checks its property.
    ///
    /// - Throws: a ``FuzzFinding`` when the property does not hold. A decoder
    ///   that traps or corrupts memory does not throw: the process dies,
    ///   which is what libFuzzer and AddressSanitizer catch.
    package func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        switch self {
        case .protocolLine: try ProtocolFuzz.check(bytes)
        case .json: try JSONFuzz.check(bytes)
        case .profile: try ProfileFuzz.check(bytes)
        case .manifest: try ManifestFuzz.check(bytes)
        case .snapshot: try SnapshotFuzz.check(bytes)
        case .journal: try JournalFuzz.check(bytes)
        case .pluginMessage: try PluginMessageFuzz.check(bytes)
        case .httpHead: try HTTPHeadFuzz.check(bytes)
        case .websocket: try WebSocketFuzz.check(bytes)
        case .pairing: try PairingFuzz.check(bytes)
        case .mediaMetadata: try MediaMetadataFuzz.check(bytes)
        case .faceImage: try FaceImageFuzz.check(bytes)
        }
    }

    /// The libFuzzer callback's body: a finding ends the process with its
    /// description, so libFuzzer saves the input as a crash.
    package func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        do throws(FuzzFinding) {
            try check(bytes)
        } catch {
            fatalError("\(rawValue) fuzz target: \(error)")
        }
        return 0
    }
}

/// A property of a decoder that an input broke.
package struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    /// What failed, as a sentence: which property and the values that broke it.
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Throws a finding unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
    if !condition { throw FuzzFinding(message()) }
}
