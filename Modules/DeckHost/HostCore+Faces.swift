import DeckModel
import DeckPluginKit
import DeckProtocol
import DeckTransport
import DeckWeb

// The host's side of button faces (docs/faces.md): it feeds the FaceTable
// and performs what the table decides. No decision is made here.

extension HostCore {
    /// How long a frame lasts: at most one `buttonFace` per button per frame.
    static let faceFrame: Duration = .milliseconds(16)

    /// Feeds one input to the face table and performs its actions. Returns
    /// the refusal, if the table refused (for a control client's reply).
    @discardableResult
    func feedFaces(_ input: FaceInput) -> (code: ErrorCode, message: String)? {
        var refusal: (ErrorCode, String)?
        for action in faces.handle(input) {
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
            case .scheduleFrame:
                _ = loop.schedule(after: Self.faceFrame) { [weak self] in self?.feedFaces(.frameTick) }
            case let .refuse(code, message):
                refusal = (code, message)
                if case .change(_, _, .control) = input {} else { services.logger.warning(message) }
            }
        }
        return refusal
    }

    /// A face message from a plugin, for the buttons its target matched.
    func pluginFace(_ plugin: String, _ buttons: [PluginButton], _ message: PluginMessage) {
        let change: FaceChange
        switch message {
        case .setState(_, let state): change = .state(state)
        case .setImage(_, let image): change = .image(image)
        case .showAlert: change = .flash(.alert)
        case .showOk: change = .flash(.ok)
        case .setTitle, .ready, .log, .setStatus: return  // titles come through the plugin manager
        }
        for button in buttons {
            feedFaces(.change(DeckSlot(page: button.page, index: button.index), [change], from: .plugin(plugin)))
        }
    }

    /// `setFace` (docs/faces.md §5): `ok`, or the table's refusal as the error.
    func setFace(page: Int, index: Int, state: String?, title: String?, clear: Bool, id: RequestID?, from session: Session) {
        let slot = DeckSlot(page: page, index: index)
        var changes: [FaceChange] = clear ? [.clear] : []
        if let state { changes.append(.state(state)) }
        if let title { changes.append(.title(title)) }
        let who = info(session)?.name ?? "a control client"
        if let refused = feedFaces(.change(slot, changes, from: .control(who))) {
            submit(Outcome(refusal(ProtocolError(refused.code, refused.message, id: id), request: "setFace", session: session)),
                   from: session)
            return
        }
        submit(Outcome([.ok(session.connection.id, id, withRevision: false),
                        .log(.info, "face of \(slot) set\(byline(session))")]), from: session)
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
