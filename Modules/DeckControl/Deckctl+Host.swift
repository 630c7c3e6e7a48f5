import DeckCommandLine
import DeckProtocol
import DeckTransport

/// The control requests (PROTOCOL.md §7): status, profiles, use, lock,
/// unlock, reload, snapshots, restore, pair, unpair, devices.
extension Deckctl {
    @Sendable static func status(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let status = try hostStatus(run)
        run.say(HostText.status(status))
        return .ok
    }

    @Sendable static func devices(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let session = try run.connect()
        let reply = try session.request(.devices)
        guard case let .devices(_, paired)? = reply.message else { throw unexpected(reply, "devices") }
        let statusReply = try session.request(.status)
        guard case let .status(_, status)? = statusReply.message else { throw unexpected(statusReply, "status") }
        run.say(HostText.paired(paired) + HostText.devices(status))
        return .ok
    }

    /// `plugins`: from `status` (as `devices` is), every plugin and the manifests' problems.
    @Sendable static func plugins(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        if run.parsed[C.resetPlugin] {
            guard let id = run.parsed[C.pluginFilter] else {
                throw .usage(CommandLineError("--reset needs the plugin's id (deckctl plugins PLUGIN --reset)", command: ["deckctl", "plugins"]))
            }
            _ = try run.connect().request(.restartPlugin(id: id, reset: true))
            run.say("plugin '\(Label.clean(id))' forgot its state and is restarting (deckctl plugins \(Label.clean(id)) shows how it does)")
            return .ok
        }
        var status = try hostStatus(run)
        if let only = run.parsed[C.pluginFilter] {
            status.plugins = status.plugins.filter { $0.id == only }
            guard !status.plugins.isEmpty else {
                throw .failed("there is no plugin '\(Label.clean(only))' (deckctl plugins lists them)")
            }
            status.problems = status.problems.filter { $0.file.hasSuffix("/\(only)/plugin.yaml") }
        }
        run.say(HostText.plugins(status))
        return .ok
    }

    /// `restart PLUGIN`.
    @Sendable static func restartPlugin(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let id = try required(run, C.pluginID)
        _ = try run.connect().request(.restartPlugin(id: id))
        run.say("restarting plugin '\(Label.clean(id))' (deckctl plugins shows when it runs again)")
        return .ok
    }

    @Sendable static func profiles(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let reply = try run.connect().request(.profiles)
        guard case let .profiles(_, active, profiles)? = reply.message else { throw unexpected(reply, "profiles") }
        if run.parsed[C.names] {
            run.say(profiles.map(\.name))
        } else {
            run.say(HostText.profiles(active: active, profiles))
        }
        return .ok
    }

    @Sendable static func use(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let name = try required(run, C.profileName)
        let reply = try run.connect().request(.useProfile(name: name))
        run.say("the live layout is now profile '\(Label.clean(name))'\(revision(of: reply))")
        return .ok
    }

    @Sendable static func lock(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        _ = try run.connect().request(.lock)
        run.say("locked: no device, and no deckctl, can edit or press until 'deckctl unlock'")
        return .ok
    }

    @Sendable static func unlock(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        _ = try run.connect().request(.unlock)
        run.say("unlocked: devices and deckctl can edit and press again")
        return .ok
    }

    @Sendable static func reload(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let session = try run.connect()
        let reply = try session.request(.reload)
        run.say("reloaded the profile files and the plugins\(revision(of: reply))")
        // CLI.md: every problem the reload found — other profiles' files and
        // plugin manifests too, which do not make the host refuse — is printed
        // as FILE:LINE:COLUMN, and then the exit status is 1.
        guard case .status(_, let status)? = try session.request(.status).message else { return .ok }
        guard !status.problems.isEmpty else { return .ok }
        let count = status.problems.count
        throw .refused(code: .invalid, message: "the reload went through, but found \(count) \(count == 1 ? "problem" : "problems"); "
                           + "fix \(count == 1 ? "it" : "them") and run deckctl reload again",
                       problems: status.problems)
    }

    @Sendable static func snapshots(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let reply = try run.connect().request(.snapshots(profile: run.parsed[C.snapshotProfile]))
        guard case let .snapshots(_, profile, snapshots)? = reply.message else { throw unexpected(reply, "snapshots") }
        run.say(HostText.snapshots(profile: profile ?? run.parsed[C.snapshotProfile], snapshots))
        return .ok
    }

    @Sendable static func restore(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let generation = try required(run, C.generation)
        let reply = try run.connect().request(.restore(generation: generation))
        run.say("restored snapshot \(generation) as the live layout\(revision(of: reply))")
        return .ok
    }

    @Sendable static func pair(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let name = try required(run, C.deviceName)
        let reply = try run.connect().request(.pair(name: name))
        guard case let .paired(_, paired, token, offer)? = reply.message else { throw unexpected(reply, "paired") }
        run.say("paired '\(Label.clean(paired))'; its token is:",
                "  \(Label.clean(token))",
                "Enter it in a native device app; deckctl cannot show it again. Pairing the same name",
                "again replaces the token; 'deckctl unpair NAME' revokes it.")
        if let offer, let link = offer.link {
            run.say("Pairing link (good once, until \(offer.expires)):", "  \(Label.clean(link))")
            if Self.opensHereOnly(link) {
                run.say("It opens on this machine only: the web deck listens on loopback. To pair a phone, serve the",
                        "network (deckd --web 0.0.0.0:7532, or make run WEB=0.0.0.0:7532) and pair again.")
            }
            let drawQR = run.parsed[C.qr] || (run.console.interactive && !run.parsed[C.noQR])
            if drawQR, !run.json, let matrix = QRMatrix(link) {
                run.say([""] + TerminalQR.lines(for: matrix) + ["", "Scan it with the phone's camera to open the deck paired as '\(Label.clean(paired))'."])
            }
        } else if let offer {
            run.say("The host serves no web deck (--no-web), so there is no pairing link; a device app can send",
                    "the code \(offer.code) in its hello instead (good once, until \(offer.expires)).")
        }
        // With --json the reply alone is printed (the pairing link carries the fingerprint as fp=).
        if !run.json, let fingerprint = try hostStatus(run).tlsFingerprint {
            run.say("The host speaks TLS; its certificate's SHA-256 fingerprint (a device pins it, a browser shows it):",
                    "  \(Label.clean(fingerprint))")
        }
        return .ok
    }

    @Sendable static func unpair(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let name = try required(run, C.deviceName)
        _ = try run.connect().request(.unpair(name: name))
        run.say("unpaired '\(Label.clean(name))'; its token no longer works and its connections were closed")
        return .ok
    }

    // MARK: Helpers

    /// Whether `link` names a loopback host (`127.0.0.1`, `localhost`, `[::1]`): a phone that scans it
    /// reaches itself, not this machine.
    static func opensHereOnly(_ link: String) -> Bool {
        HostName(url: link)?.isLoopback ?? false
    }

    static func hostStatus(_ run: Invocation) throws(DeckctlError) -> HostStatus {
        let reply = try run.connect().request(.status)
        guard case let .status(_, status)? = reply.message else { throw unexpected(reply, "status") }
        return status
    }

    static func required<Value>(_ run: Invocation, _ argument: Argument<Value>) throws(DeckctlError) -> Value {
        do throws(CommandLineError) {
            return try run.parsed.required(argument)
        } catch {
            throw .usage(error)
        }
    }

    /// A reply of another type than the request's: a host that does not follow the protocol.
    static func unexpected(_ reply: HostLine, _ expected: String) -> DeckctlError {
        .failed("the host answered with '\(reply.message?.type ?? reply.text)' instead of '\(expected)'; "
                + "is deckd the same version as deckctl?")
    }
}
