/// The commands of CLI.md, for help and for saying clearly which ones this
/// build does not have yet.
struct DeckctlCommand: Sendable {
    let name: String
    let arguments: String
    let summary: String
    let available: Bool

    var synopsis: String { arguments.isEmpty ? name : name + " " + arguments }

    static let all: [DeckctlCommand] = [
        .init(name: "status", arguments: "", summary: "host, profile, revision, lock, connected clients, profile problems", available: false),
        .init(name: "show", arguments: "[PAGE]", summary: "draws the live layout as a grid of boxes", available: false),
        .init(name: "profiles", arguments: "", summary: "lists profiles", available: false),
        .init(name: "use", arguments: "NAME", summary: "switches the live layout to a profile", available: false),
        .init(name: "set", arguments: "PAGE INDEX --name N [--icon I] (--run CMD | --open X | --page P | --profile P | --plugin ID --command C [--setting K=V]…)",
              summary: "puts a button in a slot", available: false),
        .init(name: "clear", arguments: "PAGE INDEX", summary: "empties a slot", available: false),
        .init(name: "move", arguments: "PAGE INDEX TO_PAGE TO_INDEX", summary: "moves a button (swaps when the target is filled)", available: false),
        .init(name: "press", arguments: "PAGE INDEX [--down | --up]", summary: "runs a button", available: false),
        .init(name: "lock", arguments: "", summary: "locks the host", available: false),
        .init(name: "unlock", arguments: "", summary: "unlocks the host", available: false),
        .init(name: "reload", arguments: "", summary: "re-reads the profile files", available: false),
        .init(name: "snapshots", arguments: "[--profile P]", summary: "history of the live layout", available: false),
        .init(name: "restore", arguments: "GENERATION", summary: "goes back to a snapshot", available: false),
        .init(name: "export", arguments: "[--profile P] [-o FILE]", summary: "the live layout as profile YAML", available: false),
        .init(name: "pair", arguments: "NAME", summary: "makes a device token", available: false),
        .init(name: "unpair", arguments: "NAME", summary: "revokes a device token", available: false),
        .init(name: "devices", arguments: "", summary: "paired devices, and who is connected", available: false),
        .init(name: "watch", arguments: "", summary: "prints every event until interrupted", available: false),
        .init(name: "check", arguments: "FILE…", summary: "validates profile files without a running host", available: true),
    ]

    static func named(_ name: String) -> DeckctlCommand? { all.first { $0.name == name } }
}
