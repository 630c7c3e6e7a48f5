import DeckModel
import DeckPluginKit
import DeckProtocol
import DeckTransport
import DeckWeb

// The host's side of button faces (docs/faces.md): it feeds the FaceTable
// (held by HostState, which feeds it) and performs what it decides. No
// decision is made here.

extension HostCore {
    /// Performs what the face table decided (its refusals are the rules' to answer).
    func perform(_ action: FaceAction) {
        switch action {
        case .sendFace(let face):
            sendFace(face)
        case let .sendTitle(slot, title):
            let line = try? OutboundLine(HostMessage.buttonState(page: slot.page, index: slot.index, title: title).line())
            for session in sessions.values where session.receivesBroadcasts && level(of: session) < 8 {
                if let line { session.connection.send(line) }
            }
        case .storeImage(let image):
            faceImages.add(image)
        case .forgetImage(let hash):
            faceImages.remove(hash: hash)
        case .scheduleFrame, .refuse:
            // HostState.feedFaces turns these into `.armTimer(.faceFrame, …)`
            // and a reply or a log line; they never reach the shell.
            break
        }
    }

    // MARK: Lines

    func level(of session: Session) -> Int { info(session)?.protocolLevel ?? session.handshake.access?.level ?? 1 }

    /// TCP devices get image bytes inline (they may have no HTTP); the web
    /// deck and control clients fetch or ignore them.
    func inlinesImages(_ session: Session) -> Bool {
        state.sessions[session.connection.id]?.isControl != true && session.connection.listener.address != inputs.reachability.webAddress
    }

    /// The faces a session's `welcome` or `layout` lists: none below level 8.
    func currentFaces(for session: Session) -> [ButtonFace] {
        guard level(of: session) >= 8 else { return [] }
        let current = faces.current
        return inlinesImages(session) ? current.map(withData) : current
    }

    /// The level-8 layout lines of one broadcast, each encoded at most once:
    /// a layout with faces is the whole layout again, so encoding it per
    /// session would cost a full encode for every level-8 client.
    struct FacedLayoutLines {
        var faces: [ButtonFace]?
        var byURL: OutboundLine?
        var inline: OutboundLine?
    }

    /// The layout line for `session`: the shared one, or at level 8 with faces
    /// (taken from `lines` when this broadcast already encoded that kind).
    func layoutLine(for session: Session, reusing lines: inout FacedLayoutLines) -> OutboundLine {
        guard level(of: session) >= 8 else { return live.lines.broadcast }
        let current = lines.faces ?? faces.current
        lines.faces = current
        guard !current.isEmpty else { return live.lines.broadcast }
        let inline = inlinesImages(session)
        if let line = inline ? lines.inline : lines.byURL { return line }
        let listed = inline ? current.map(withData) : current
        let line = (try? live.lines.broadcast(faces: listed)) ?? live.lines.broadcast
        if inline { lines.inline = line } else { lines.byURL = line }
        return line
    }

    private func withData(_ face: ButtonFace) -> ButtonFace {
        var face = face
        if let hash = face.image?.hash { face.image?.data = faceImages.image(hash: hash)?.bytes }
        return face
    }

    /// `buttonFace` to every level-8 client, encoded once per kind of connection.
    private func sendFace(_ face: ButtonFace) {
        var plain: OutboundLine?
        var inline: OutboundLine?
        for session in sessions.values where session.receivesBroadcasts && level(of: session) >= 8 {
            if inlinesImages(session) && face.image != nil {
                if inline == nil { inline = try? OutboundLine(HostMessage.buttonFace(withData(face)).line()) }
                if let inline { session.connection.send(inline) }
            } else {
                if plain == nil { plain = try? OutboundLine(HostMessage.buttonFace(face).line()) }
                if let plain { session.connection.send(plain) }
            }
        }
    }
}
