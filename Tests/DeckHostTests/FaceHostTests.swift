import DeckModel
import DeckProtocol
import DeckTestSupport
import DeckTransport
import Foundation
import Testing

/// Faces through a real deckd (docs/faces.md §4, §5): `setFace` from a
/// control client, level-8 and level-7 devices side by side, the welcome of
/// a device that connects later, and no disk write or revision for any of it.
@Suite("button faces in the host")
struct FaceHostTests {
    static let profile = """
        pages:
          - buttons:
              0:
                name: Backup
                action: {run: "true"}
                style: {background: green}
                states: [{id: idle}, {id: failed, name: "Backup failed", style: {background: red}}]
              1: {name: Files, action: {open: "~"}}
        """

    /// Every file under `path` with its size: what "never writes to disk" compares.
    static func files(under path: String) -> [String: Int] {
        var result: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            result[name] = (attributes?[.size] as? NSNumber)?.intValue ?? -1
        }
        return result
    }

    func control(_ host: HostProcess) throws -> HostClient {
        let client = try HostClient(LineClient(connectingTo: .unix(path: host.control)))
        try client.hello(name: "deckctl", kind: "control", level: 8)
        return client
    }

    @Test func setFaceReachesEachLevelItsWayAndChangesNothingElse() throws {
        let host = try HostProcess(files: ["default.yaml": Self.profile])
        try host.start()
        let modern = try host.device("modern", level: 8)
        let old = try host.device("old", level: 7)
        #expect(modern.welcome?.protocolLevel == 8 && old.welcome?.protocolLevel == 7)
        #expect(modern.welcome?.layout.button(page: 0, index: 0)?.states.count == 2)
        let revision = try #require(modern.welcome?.revision)
        let control = try control(host)
        let before = Self.files(under: host.state)

        let reply = try control.request(.setFace(page: 0, index: 0, state: "failed", title: nil, clear: false))
        guard case .ok(_, nil) = reply else { Issue.record("\(reply)"); return }
        let face = try modern.next { if case .buttonFace = $0 { true } else { false } }
        #expect(face == .buttonFace(ButtonFace(page: 0, index: 0, state: "failed")))
        #expect(old.staysQuiet(), "a level-7 device hears nothing of states")

        _ = try control.request(.setFace(page: 0, index: 1, state: nil, title: "3 new", clear: false))
        #expect(try old.next() == .buttonState(page: 0, index: 1, title: "3 new"))
        #expect(try modern.next { if case .buttonFace = $0 { true } else { false } }
            == .buttonFace(ButtonFace(page: 0, index: 1, title: "3 new")))

        guard case let .error(_, code, message, _) = try control.request(.setFace(page: 0, index: 0, state: "exploded", title: nil, clear: false))
        else { Issue.record("an unknown state id must be refused"); return }
        #expect(code == .notFound && message.contains("its states are idle, failed"))
        guard case .error(_, .empty, _, _) = try control.request(.setFace(page: 0, index: 5, state: nil, title: "x", clear: false))
        else { Issue.record("an empty slot has no face"); return }

        // A device that connects later sees the faces in its welcome; a level-7 one gets the title.
        let later = try host.device("later", level: 8)
        #expect(later.welcome?.faces == [ButtonFace(page: 0, index: 0, state: "failed"), ButtonFace(page: 0, index: 1, title: "3 new")])
        let oldLater = try host.device("old later", level: 7)
        #expect(oldLater.welcome?.faces == [])
        #expect(try oldLater.next() == .buttonState(page: 0, index: 1, title: "3 new"))

        _ = try control.request(.setFace(page: 0, index: 0, state: nil, title: nil, clear: true))
        #expect(try modern.next { if case .buttonFace = $0 { true } else { false } } == .buttonFace(ButtonFace(page: 0, index: 0)))
        guard case .status(_, let status) = try control.request(.status) else { Issue.record("no status"); return }
        #expect(status.revision == revision, "a face is not layout")
        #expect(Self.files(under: host.state) == before, "a face is never written to disk")
        _ = try host.stop()
    }
}
