import DeckModel
import DeckProfiles
import DeckProtocol
import DeckTransport

extension HostState {
    /// What a profile's resolution continues.
    enum Resolving: Equatable {
        /// `useProfile` (`connection`) or a `profile` button (`press`) makes it live; `reason` is the snapshot's.
        case switchTo(reason: String, connection: ConnectionID?, id: RequestID?, press: ActionRequest?)
        /// `export PROFILE` of a profile that is not live.
        case export(ConnectionID, RequestID?)
    }

    /// `useProfile`, or a `profile` button: the profile's layout as §5 of
    /// PROFILE.md resolves it (on the disk thread) becomes live, as a new revision.
    mutating func switchProfile(to name: String, reason: String, connection: ConnectionID?, id: RequestID?,
                                press: ActionRequest?) -> [HostAction] {
        if name == live.head.profile {
            return (connection.map { [.commit(Commit(Outcome([.ok($0, id, withRevision: true)])))] } ?? [])
                + (press.map { [.perform(.actionEnded($0, .delivered))] } ?? [])
        }
        if catalog.profile(named: name) == nil, case let broken = ProfileResolver.brokenFiles(named: name, in: catalog),
           !broken.isEmpty {
            // PROFILE.md §4: a profile with any error is not loaded. Its
            // newest snapshot is not served instead (as at start, where
            // something must be): the person who asked hears what is wrong
            // with the file, and the live layout stays as it is.
            let problems = broken.flatMap(\.problems)
            let message = Self.problemSentence(broken) + "; profile '\(name)' is not loaded, and the live layout stays"
            var actions: [HostAction] = problems.map { .log(.warning, "\($0)") }
            if let connection {
                actions.append(.commit(Commit(Outcome(refusal(broken, message, request: "useProfile", id: id, to: connection)),
                                              sender: connection)))
            }
            if let press { actions.append(.perform(.actionEnded(press, .failed(reason: message)))) }
            return actions
        }
        return [disk(.resolve(name, catalog), for: connection,
                     then: .resolve(name, .switchTo(reason: reason, connection: connection, id: id, press: press)))]
    }

    /// `export PROFILE` of another profile than the live one: its current
    /// state, as switching to it would make live, resolved on the disk thread.
    mutating func export(_ name: String, id: RequestID?, from connection: ConnectionID) -> HostAction {
        disk(.resolve(name, catalog), for: connection, then: .resolve(name, .export(connection, id)))
    }

    /// A resolution finished.
    mutating func resolved(_ name: String, _ result: Result<ProfileResolution?, HostError>, for resolving: Resolving)
        -> [HostAction] {
        switch resolving {
        case let .switchTo(reason, connection, id, press):
            return switched(to: name, result, reason: reason, connection: connection.flatMap { sessions[$0] == nil ? nil : $0 },
                            id: id, press: press)
        case let .export(connection, id):
            guard sessions[connection] != nil else { return [] }
            return [exported(name, result, id: id, to: connection)]
        }
    }

    private mutating func switched(to name: String, _ result: Result<ProfileResolution?, HostError>, reason: String,
                                   connection: ConnectionID?, id: RequestID?, press: ActionRequest?) -> [HostAction] {
        let resolution: ProfileResolution
        switch result {
        case .success(let found?):
            resolution = found
        case .success(nil), .failure:
            let message: String
            if case .failure(let error) = result {
                message = error.description
            } else {
                let known = catalog.names.isEmpty ? "no valid profile" : catalog.names.joined(separator: ", ")
                message = "there is no profile named '\(name)' (the layouts folder holds \(known))"
            }
            var actions: [HostAction] = []
            if let connection {
                let code: ErrorCode = if case .failure = result { .internal } else { .notFound }
                actions.append(.commit(Commit(Outcome(refusal(ProtocolError(code, message, id: id), request: "useProfile",
                                                              to: connection)))))
            }
            if let press { actions.append(.perform(.actionEnded(press, .failed(reason: message)))) }
            return actions
        }
        let notes: [HostAction] = resolution.notices.map { .note($0, level: .warning) }
        let state = live.advance(layout: resolution.layout, profile: name, source: resolution.source, edits: resolution.edits)
        let by = connection.flatMap { sessions[$0]?.info } ?? press?.by
        var effects: [Effect] = []
        if let connection { effects.append(.ok(connection, id, withRevision: true)) }
        effects += [.broadcastLayout, .event(.profile(profile: name, revision: state.revision, by: by)),
                    .log(.info, "switched to profile '\(name)' (revision \(state.revision))" + (by.map { " by \($0.name)" } ?? ""))]
        if let press { effects.append(.actionEnded(press, .delivered)) }
        let failures: [WriteFailure] = (connection.map { [.refuse($0, id, request: "useProfile")] } ?? [])
            + (press.map { [.actionFailed($0)] } ?? [])
        return notes + [.commit(Commit(Outcome(live: state, effects, ifWriteFails: failures), writeReason: reason))]
    }

    private func exported(_ name: String, _ result: Result<ProfileResolution?, HostError>, id: RequestID?,
                          to connection: ConnectionID) -> HostAction {
        switch result {
        case .success(let resolution?):
            let yaml = DeckProfile(name: name, layout: resolution.layout).yaml
            return .commit(Commit(Outcome([.send(connection, .export(id: id, profile: name, yaml: yaml))])))
        case .success(nil):
            let broken = ProfileResolver.brokenFiles(named: name, in: catalog)
            guard !broken.isEmpty else {
                return .commit(Commit(Outcome(refusal(ProtocolError(.notFound, "there is no profile named '\(name)' and no snapshot of one",
                                                                    id: id), request: "export", to: connection))))
            }
            // The profile exists, as a broken file with nothing live to
            // export: say what is wrong with it, as useProfile does.
            return .commit(Commit(Outcome(refusal(broken, Self.problemSentence(broken) + "; profile '\(name)' has no snapshot to export",
                                                  request: "export", id: id, to: connection))))
        case .failure(let error):
            return .commit(Commit(Outcome(refusal(ProtocolError(.internal, error.description, id: id), request: "export",
                                                  to: connection))))
        }
    }

    /// `default.yaml has a problem`, `a.yaml, b.yaml has problems`: the start of a refusal's message.
    static func problemSentence(_ broken: [ProfileCatalog.File]) -> String {
        let files = broken.map(\.fingerprint.file).joined(separator: ", ")
        return "\(files) has \(broken.flatMap(\.problems).count == 1 ? "a problem" : "problems")"
    }

    /// `error invalid` with `message` and every problem of the `broken` files.
    func refusal(_ broken: [ProfileCatalog.File], _ message: String, request: String, id: RequestID?,
                 to connection: ConnectionID) -> [Effect] {
        refusal(ProtocolError(.invalid, message, id: id), request: request, to: connection,
                problems: broken.flatMap(\.problems).map(problem))
    }

    /// A problem with its file relative to the layouts folder, as `status` shows it.
    func problem(_ problem: FileProblem) -> Problem {
        let prefix = layoutsPath.hasSuffix("/") ? layoutsPath : layoutsPath + "/"
        let file = problem.file.hasPrefix(prefix) ? String(problem.file.dropFirst(prefix.count)) : problem.file
        return Problem(file: file, line: problem.line, column: problem.column, message: problem.message)
    }
}
