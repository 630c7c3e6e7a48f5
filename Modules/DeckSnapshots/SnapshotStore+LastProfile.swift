import DeckModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `STATE/last-profile.json`: which profile was live when the host last
/// changed it, so a restart resumes that one. `{"profile":"NAME"}`, written
/// the same atomic, durable way as a snapshot.
enum LastProfileMarker {
    static let fileName = "last-profile.json"

    static func encode(_ profile: String) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.field("profile", profile)
        json.endObject()
        return json.line()
    }

    static func decode(_ bytes: [UInt8]) -> String? {
        let profile = try? JSONValue.read(bytes, maximumDepth: SnapshotDocument.maximumDepth, noun: "the marker") { root throws(JSONError) in
            try JSONFieldReader(root, expected: "an object").string("profile")
        }
        guard let profile, !profile.isEmpty else { return nil }
        return profile
    }
}

extension SnapshotStore {
    /// The profile recorded by the last ``setLastProfile(_:)``, or nil when none was ever recorded.
    ///
    /// - Throws: `invalidMarker` when the file exists but does not hold a
    ///   profile name; `system` when it cannot be read.
    public func lastProfile() throws(SnapshotError) -> String? {
        try state.withLock { state throws(SnapshotError) in
            if let known = state.marker { return known }
            let path = stateDirectory + "/" + LastProfileMarker.fileName
            guard let (bytes, _, regular) = try Disk.readFile(path, limit: 64 * 1024) else {
                state.marker = .some(nil)
                return nil
            }
            guard regular else { throw .invalidMarker(path: path, reason: "it is not a regular file") }
            guard let profile = LastProfileMarker.decode(bytes) else {
                throw .invalidMarker(path: path, reason: #"it is not {"profile":"NAME"}"#)
            }
            state.marker = profile
            return profile
        }
    }

    /// Records `profile` as the live one, durably, before returning. Does
    /// nothing when it is already the recorded one, so the host may call it
    /// after every write at no cost.
    public func setLastProfile(_ profile: String) throws(SnapshotError) {
        _ = try ProfileFolderName.encode(profile)
        try state.withLock { state throws(SnapshotError) in
            if case .some(.some(let known)) = state.marker, known == profile { return }
            state.marker = nil
            try Disk.replaceDurably(folder: stateDirectory, name: LastProfileMarker.fileName,
                                    bytes: LastProfileMarker.encode(profile))
            state.marker = profile
        }
    }
}
