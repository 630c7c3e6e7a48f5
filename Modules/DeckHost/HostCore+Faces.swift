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

    /// The faces a session's `welcome` lists: none below level 8. A TCP
    /// device gets the bytes of each image it does not hold.
    func currentFaces(for session: Session) -> [ButtonFace] {
        guard level(of: session) >= 8 else { return [] }
        let current = faces.current
        return inlinesImages(session) ? carryingBytes(current, to: session) : current
    }

    /// The level-8 layout lines of one broadcast, each encoded at most once:
    /// a layout with faces is the whole layout again, so encoding it per
    /// session would cost a full encode for every level-8 client. A TCP
    /// device that lacks an image gets its own line (rare: a device holds
    /// every image shown once it has its `welcome`).
    struct FacedLayoutLines {
        var faces: [ButtonFace]?
        var byURL: OutboundLine?
    }

    /// Sends `session` the layout: the shared line, or at level 8 with the
    /// faces (taken from `lines` when this broadcast already encoded them).
    /// A line is replaced by a newer one not yet written (PROTOCOL.md §5),
    /// except one that carries image bytes, which the device needs.
    func sendLayout(to session: Session, reusing lines: inout FacedLayoutLines) {
        guard level(of: session) >= 8 else {
            session.connection.sendLatest(live.lines.broadcast)
            return
        }
        let current = lines.faces ?? faces.current
        lines.faces = current
        if inlinesImages(session) {
            let listed = carryingBytes(current, to: session)
            if listed.contains(where: { $0.image?.data != nil }) {
                session.connection.send((try? live.lines.broadcast(faces: listed)) ?? live.lines.broadcast)
                return
            }
        }
        guard !current.isEmpty else {
            session.connection.sendLatest(live.lines.broadcast)
            return
        }
        if lines.byURL == nil { lines.byURL = (try? live.lines.broadcast(faces: current)) ?? live.lines.broadcast }
        if let line = lines.byURL { session.connection.sendLatest(line) }
    }

    /// `faces` as a list for a TCP device, which then shows them: the bytes
    /// of each image it does not hold yet, once.
    private func carryingBytes(_ faces: [ButtonFace], to session: Session) -> [ButtonFace] {
        let carried = session.faceImages.sendList(faces.map { (DeckSlot(page: $0.page, index: $0.index), $0.image?.hash) })
        guard !carried.isEmpty else { return faces }
        var left = carried  // the first face that shows an image carries it; the others name it
        return faces.map { face in left.remove(face.image?.hash ?? "") == nil ? face : withData(face) }
    }

    private func withData(_ face: ButtonFace) -> ButtonFace {
        var face = face
        if let hash = face.image?.hash { face.image?.data = faceImages.image(hash: hash)?.bytes }
        return face
    }

    /// `buttonFace` to every level-8 client, encoded once per kind of line:
    /// the image's bytes go to each TCP device that does not hold them.
    private func sendFace(_ face: ButtonFace) {
        var plain: OutboundLine?
        var inline: OutboundLine?
        let slot = DeckSlot(page: face.page, index: face.index)
        for session in sessions.values where session.receivesBroadcasts && level(of: session) >= 8 {
            if inlinesImages(session) && session.faceImages.send(face.image?.hash, at: slot) {
                if inline == nil { inline = try? OutboundLine(HostMessage.buttonFace(withData(face)).line()) }
                if let inline { session.connection.send(inline) }
            } else {
                if plain == nil { plain = try? OutboundLine(HostMessage.buttonFace(face).line()) }
                if let plain { session.connection.send(plain) }
            }
        }
    }
}
