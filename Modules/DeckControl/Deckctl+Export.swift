/// `export [--profile P] [-o FILE]`: the layout as profile YAML.
extension Deckctl {
    @Sendable static func export(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let reply = try run.connect().request(.export(profile: run.parsed[C.exportProfile]))
        guard case let .export(_, profile, yaml)? = reply.message else { throw unexpected(reply, "export") }
        guard let path = run.parsed[C.output], path != "-" else {
            // The YAML as it came, its last line break included (Console adds one).
            if !run.json { run.console.out(yaml.hasSuffix("\n") ? String(yaml.dropLast()) : yaml) }
            return .ok
        }
        try AtomicFile.write(Array(yaml.utf8), to: path)
        run.say("exported profile '\(Label.clean(profile))' to \(path)")
        return .ok
    }
}
