import DeckProtocol

/// The plain-text forms of the host's replies: what `status`, `profiles`,
/// `snapshots` and `devices` print without `--json`.
enum HostText {
    static func status(_ status: HostStatus) -> [String] {
        let host = status.host
        var lines = [
            "host:      \(Label.clean(host.name)) \(Label.clean(host.version)) "
                + "(protocol \(host.protocolLevel), clients from level \(host.minimumProtocolLevel))",
            "profile:   \(Label.clean(status.profile)), revision \(status.revision)",
            "lock:      " + (status.locked ? "LOCKED: devices cannot edit or press" : "unlocked"),
            "profiles:  " + (status.profiles.isEmpty ? "none" : status.profiles.map(Label.clean).joined(separator: ", ")),
            "clients:   \(status.clients.count) connected",
        ]
        lines += indented(clients(status.clients))
        lines.append("problems:  " + (status.problems.isEmpty ? "none" : "\(status.problems.count)"))
        lines += status.problems.map { "  " + Label.clean($0.description) }
        lines.append("tls:       " + (status.tlsFingerprint.map { "on, certificate SHA-256 \(Label.clean($0))" }
            ?? "off (plain TCP and HTTP)"))
        if !status.notices.isEmpty {
            lines.append("notices:")
            lines += status.notices.map { "  " + Label.clean($0) }
        }
        if !status.plugins.isEmpty {
            lines.append("plugins:")
            lines += indented(table(status.plugins.map { [$0.id, $0.state, $0.message] }))
        }
        return lines
    }

    /// `deckctl devices`: the connected devices, then a count of control connections.
    /// The paired devices of a `devices` reply.
    static func paired(_ devices: [PairedDeviceInfo]) -> [String] {
        guard !devices.isEmpty else { return ["no devices are paired (deckctl pair NAME pairs one)"] }
        return ["paired devices:"] + table(devices.map { device in
            ["  " + Label.clean(device.name), "paired \(device.pairedAt)",
             device.lastSeen.map { "last seen \($0)" } ?? "not seen since the host started",
             device.connected ? "connected" : "not connected"]
        })
    }

    static func devices(_ status: HostStatus) -> [String] {
        let devices = status.clients.filter { $0.kind != Device.controlKind }
        let controls = status.clients.count - devices.count
        var lines = devices.isEmpty ? ["no devices are connected"] : clients(devices)
        lines.append("\(controls) control \(plural(controls, "connection")) (deckctl and scripts, this one included)")
        return lines
    }

    /// `counter  running  pid 4242  0 restarts` rows, then the manifests' problems.
    static func plugins(_ status: HostStatus) -> [String] {
        var lines = status.plugins.isEmpty ? ["no plugins are installed"] : table(status.plugins.map { plugin in
            [Label.clean(plugin.id), plugin.state, plugin.pid.map { "pid \($0)" } ?? "-",
             "\(plugin.restarts) \(plural(plugin.restarts, "restart"))",
             plugin.lastExit.map { "last: \(Label.clean($0))" } ?? "", Label.clean(plugin.message)]
        })
        // Manifest problems name a plugin.yaml; profile problems are `status`'s to show.
        let manifests = status.problems.filter { $0.file.hasSuffix("/plugin.yaml") || $0.file == "plugin.yaml" }
        if !manifests.isEmpty { lines += ["problems:"] + manifests.map { "  " + Label.clean($0.description) } }
        return lines
    }

    static func clients(_ clients: [ClientInfo]) -> [String] {
        table(clients.map { [$0.name, $0.kind, $0.address, "protocol \($0.protocolLevel)"] })
    }

    /// `* default  default.yaml  3 pages  10 buttons`, `*` on the live profile.
    static func profiles(active: String, _ profiles: [ProfileInfo]) -> [String] {
        guard !profiles.isEmpty else { return ["no profiles in the layouts folder"] }
        return table(profiles.map { profile in
            [(profile.name == active ? "* " : "  ") + profile.name, profile.file,
             "\(profile.pages) \(plural(profile.pages, "page"))", "\(profile.buttons) \(plural(profile.buttons, "button"))"]
        }, rightAligned: [2, 3])
    }

    static func snapshots(profile: String?, _ snapshots: [SnapshotInfo]) -> [String] {
        let whose = profile.map { "'\(Label.clean($0))'" } ?? "the live profile"
        guard !snapshots.isEmpty else { return ["no snapshots of \(whose) yet"] }
        let rows = [["generation", "revision", "time", "reason", "size"]]
            + snapshots.map { ["\($0.generation)", "\($0.revision)", $0.time, $0.reason, "\($0.bytes) bytes"] }
        return ["snapshots of \(whose), newest first:"] + table(rows, rightAligned: [0, 1, 4])
    }

    /// Rows as columns two spaces apart, aligned by display width; trailing spaces removed.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let cleaned = rows.map { $0.map(Label.clean) }
        let count = cleaned.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in
            cleaned.map { $0.indices.contains(column) ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0
        }
        return cleaned.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let gap = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(cell)))
                line += (column == 0 ? "" : "  ") + (rightAligned.contains(column) ? gap + cell : cell + gap)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    private static func indented(_ lines: [String]) -> [String] {
        lines.map { "  " + $0 }
    }
}
