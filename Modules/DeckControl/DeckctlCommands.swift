import DeckCommandLine

/// deckctl's command line (CLI.md), declared once: the parser, `--help`,
/// the usage lines and `deckctl completion bash` are all made from this.
enum DeckctlCommands {
    // MARK: Global options

    static let control = Option<String>(
        "control", value: "PATH",
        help: "the host's control socket (default: $XDG_RUNTIME_DIR/deckd/control.sock, else /tmp/deckd-UID/control.sock, as deckd uses)",
        completion: .file)
    static let json = Flag(
        "json", help: "print the host's replies as JSON, one object per line, unchanged (for jq and scripts)")

    // MARK: Arguments and options shared by several commands

    static let page = Argument<Int>("PAGE", help: "the page, from 0", validate: notNegative)
    static let index = Argument<Int>("INDEX", help: "the slot on the page, from 0 (row by row)", validate: notNegative)
    static let profileNames = CompletionKind.tool(["profiles", "--names"])

    static func notNegative(_ value: Int) -> String? { value >= 0 ? nil : "must be 0 or more (pages and slots count from 0)" }
    /// A name the host would refuse empty: a usage error here, in deckctl's words, not the host's.
    static func notBlank(_ value: String) -> String? {
        value.allSatisfy(\.isWhitespace) ? "must not be empty" : nil
    }

    // MARK: Commands

    static let status = CommandSpec(
        "status", summary: "host, profile, revision, lock, connected clients, profile problems",
        examples: [Example("deckctl status", "how the host is doing"),
                   Example("deckctl --json status | jq .revision", "the live layout's revision, for a script")])

    static let showPage = Argument<Int>("PAGE", help: "draw only this page (the empty page at the end too)",
                                        arity: .optional, validate: notNegative)
    static let columns = Option<Int>(
        "columns", value: "N",
        help: "boxes per row (default: 3 when the page size is a multiple of 3, as a phone shows 12 slots in 3 × 4; "
            + "else 4 when it is a multiple of 4, as a tablet shows 16 in 4 × 4; else 3); "
            + "--columns 4 shows 12 slots as a tablet does (4 × 3)",
        validate: { (1...8).contains($0) ? nil : "must be from 1 to 8 (8 boxes fill a terminal's 80 columns)" })
    static let show = CommandSpec(
        "show", summary: "draws the live layout as a grid of boxes, labels inside (all pages, or one)",
        discussion: """
            Draws the live layout as a grid of boxes, one per slot, numbered from 0 row by row as in the profile \
            files. Each box shows the button's label (after its icon when the icon is an emoji) and what it does; \
            an empty slot is an empty box. The first line says the profile, the revision and whether the host is \
            locked. Labels are measured by their width on the terminal (Korean, Japanese, Chinese and emoji take \
            two columns) and cut with … to fit; the drawing fits 80 columns.
            """,
        arguments: [showPage], options: [columns],
        examples: [Example("deckctl show", "every page"),
                   Example("deckctl show 1 --columns 4", "page 1 as a tablet shows it")])

    static let names = Flag("names", help: "print only the profile names, one per line")
    static let profiles = CommandSpec(
        "profiles", summary: "lists profiles",
        discussion: "Lists the profiles in the host's layouts folder: name, file, pages and buttons; * marks the live one.",
        options: [names])

    static let profileName = Argument<String>("NAME", help: "the profile's name (see 'deckctl profiles')", completion: profileNames,
                                              validate: notBlank)
    static let use = CommandSpec(
        "use", summary: "switches the live layout to a profile", arguments: [profileName],
        examples: [Example("deckctl use streaming", "show the streaming profile on every device")])

    static let clear = CommandSpec(
        "clear", summary: "empties a slot", arguments: [page, index],
        examples: [Example("deckctl clear 0 3", "empty slot 3 of page 0")])

    static let toPage = Argument<Int>("TO_PAGE", help: "the page to move it to", validate: notNegative)
    static let toIndex = Argument<Int>("TO_INDEX", help: "the slot to move it to", validate: notNegative)
    static let move = CommandSpec(
        "move", summary: "moves a button (swaps when the target is filled), with the stale check",
        discussion: """
            Moves the button in PAGE/INDEX to TO_PAGE/TO_INDEX; when the target holds a button, the two swap. \
            deckctl reads the live layout first and sends the move for the button it found there, so if a device \
            changes that slot at the same moment the host refuses the move as stale instead of moving something \
            else. The empty page at the end is a valid target: moving a button there adds a page.
            """,
        arguments: [page, index, toPage, toIndex],
        examples: [Example("deckctl move 0 1 1 0", "move the button in slot 1 of page 0 to the first slot of page 1")])

    static let down = Flag("down", help: "only the finger going down (for hold-to-talk buttons)")
    static let up = Flag("up", help: "only the finger coming up")
    static let press = CommandSpec(
        "press", summary: "runs a button",
        discussion: "Presses the button in PAGE/INDEX as a device would: the host runs its action. "
            + "'deckctl watch' shows how the action ends.",
        arguments: [page, index], options: [down, up],
        groups: [OptionGroup(["down", "up"], meaning: "which edge of the press; neither is a whole tap")],
        examples: [Example("deckctl press 0 2", "run the button in slot 2 of page 0")])

    static let lock = CommandSpec(
        "lock", summary: "the manual lock: devices can no longer edit or press",
        examples: [Example("deckctl lock", "lock the deck while you are away")])
    static let unlock = CommandSpec(
        "unlock", summary: "lifts the manual lock",
        discussion: "Lifts the manual lock. While a lock probe (deckd --lock-probe) says the desktop session is "
            + "locked, the host stays locked and says so.")
    static let reload = CommandSpec(
        "reload", summary: "re-reads the profile files",
        discussion: "Re-reads the profile files now (deckd also notices saved files on its own). A broken file "
            + "is refused with its problems as FILE:LINE:COLUMN: message, and the live layout stays as it was.")

    static let snapshotProfile = Option<String>("profile", value: "P", help: "whose snapshots (default: the live profile's)",
                                                completion: profileNames)
    static let snapshots = CommandSpec(
        "snapshots", summary: "history of the live layout",
        discussion: "Lists the saved versions of a profile's layout, newest first: the generation (what "
            + "'deckctl restore' takes), the layout revision, when, why, and the size on disk.",
        options: [snapshotProfile])

    static let generation = Argument<Int>("GENERATION", help: "the snapshot's generation (see 'deckctl snapshots')",
                                          validate: { $0 >= 0 ? nil : "must be 0 or more (a generation that 'deckctl snapshots' lists)" })
    static let restore = CommandSpec(
        "restore", summary: "goes back to a snapshot",
        discussion: "Makes a snapshot the live layout again, as a new revision; the layout it replaces stays in the history.",
        arguments: [generation],
        examples: [Example("deckctl snapshots && deckctl restore 41", "look at the history, then go back to generation 41")])

    static let exportProfile = Option<String>("profile", value: "P", help: "which profile (default: the live one)",
                                              completion: profileNames)
    static let output = Option<String>(
        "output", short: "o", value: "FILE",
        help: "write the YAML to FILE instead of standard output, atomically: FILE is replaced whole or not at all",
        completion: .file)
    static let export = CommandSpec(
        "export", summary: "the live layout as profile YAML",
        discussion: "Prints the live layout (with every edit made from devices) as a profile file, in the same "
            + "format people write; 'deckctl check' accepts it and deckd can load it.",
        options: [exportProfile, output],
        examples: [Example("deckctl export -o ~/.config/deckd/layouts/default.yaml",
                           "keep the edits made on the devices in the profile file"),
                   Example("deckctl export --profile streaming > streaming.yaml", "another profile's layout")])

    static let deviceName = Argument<String>("NAME", help: "the device's name, as its app will say it in hello", validate: notBlank)
    static let qr = Flag("qr", help: "draw the pairing link's QR code even when standard output is not a terminal")
    static let noQR = Flag("no-qr", help: "leave the QR code out")
    static let pair = CommandSpec(
        "pair", summary: "makes a device token and a pairing link with its QR code",
        discussion: "Makes a token for the device NAME and prints it (for native apps), and a pairing link "
            + "WEBURL/#pair=CODE with its QR code (in a terminal): scan it with the phone's camera and the web deck "
            + "opens paired as NAME. The code works once, for 5 minutes. Pairing the same name again replaces its "
            + "token. With --json: the host's reply, with code, link and expires.",
        arguments: [deviceName], options: [qr, noQR],
        groups: [OptionGroup(["qr", "no-qr"], meaning: "whether the QR code is drawn")],
        examples: [Example("deckctl pair phone", "pair a phone: scan the code it draws"),
                   Example("deckctl pair \"Kim's iPad\" --no-qr", "a token and a link only")])
    static let unpair = CommandSpec(
        "unpair", summary: "revokes a device token and disconnects the device", arguments: [deviceName])
    static let devices = CommandSpec(
        "devices", summary: "paired devices and who is connected",
        discussion: "Lists the paired devices (name, when paired, last seen, connected now), then the devices "
            + "connected to the host now (name, kind, address, protocol level), and how many control "
            + "connections (deckctl, scripts) there are. A paired device shows the name it was paired as.")

    static let plugins = CommandSpec(
        "plugins", summary: "the plugins, their state and problems",
        discussion: "Lists every plugin the host found: its state (running, starting, stopping, restarting, failed, "
            + "stopped, unavailable), the pid of its process, how often it was restarted, how its last process ended, "
            + "and every problem of the plugin manifests as FILE:LINE:COLUMN: message. The last column is the "
            + "plugin's own word on how it is doing while it runs (the obs plugin: connected, unauthorised or "
            + "unreachable, and OBS's version). With PLUGIN, only that plugin. With PLUGIN and --reset, the "
            + "plugin forgets what it kept in its state folder (the folder is emptied) and is restarted: the "
            + "keys plugin then asks the desktop for consent again.",
        arguments: [pluginFilter], options: [resetPlugin],
        examples: [Example("deckctl plugins keys --reset", "forget the keys plugin's RemoteDesktop consent and ask again")])
    static let resetPlugin = Flag("reset", help: "empty the plugin's state folder and restart it (needs PLUGIN)")
    static let pluginFilter = Argument<String>("PLUGIN", help: "show only this plugin", arity: .optional)
    static let pluginID = Argument<String>("PLUGIN", help: "the plugin's id (see 'deckctl plugins')")
    static let restartPlugin = CommandSpec(
        "restart", summary: "restarts one plugin now",
        discussion: "Stops the plugin (shutdown, then SIGTERM and SIGKILL as at any stop) and starts it again "
            + "if the live layout uses it; a failed plugin gets a clean slate. Presses meanwhile wait for it "
            + "(up to 2 s).",
        arguments: [pluginID],
        examples: [Example("deckctl restart counter", "after rebuilding the counter plugin's program")])

    static let everything = Flag("all", help: "also show control connections (deckctl commands, scripts) coming and going")
    static let watch = CommandSpec(
        "watch", summary: "prints every event until interrupted",
        discussion: """
            Prints one line per event as it happens, with the time: edits and who made them, refused requests, \
            presses and how their actions ended, lock changes, devices joining and leaving, reloads and their \
            problems, profile switches, restores, plugin states and new layout revisions. Runs until Ctrl-C \
            (or SIGTERM), then exits 0; exits 3 when the host goes away. Control connections (every deckctl \
            command is one) coming and going are left out unless --all is given. With --json, every line the \
            host sends is printed as it came.
            """,
        options: [everything],
        examples: [Example("deckctl watch", "follow what happens"),
                   Example("deckctl --json watch | jq -c 'select(.event == \"press\")'", "only presses, for a script")])

    static let files = Argument<String>("FILE", help: "profile files to check", arity: .oneOrMore, completion: .file)
    static let pluginFolders = Option<String>("plugins", value: "DIR",
                                              help: "a plugins folder whose manifests declare the settings of plugin buttons "
                                                  + "(default: the folders deckd reads, $XDG_DATA_HOME/deckd/plugins, then "
                                                  + "PREFIX/share/deckd/plugins); several are searched in order",
                                              repeatable: true, completion: .directory,
                                              validate: { $0.isEmpty ? "must name a folder" : nil })
    static let check = CommandSpec(
        "check", summary: "validates profile files without a running host",
        discussion: """
            Checks profile files without a running host and prints every problem as FILE:LINE:COLUMN: message \
            (with --json, one {"file","line","column","message"} object per line), or, at a terminal, FILE: ok for a good file. \
            Files of one folder that share a profile name are a problem, as the host would refuse one of them. \
            The settings of plugin buttons are checked against what the plugins' manifests declare (unknown \
            settings, wrong types, missing required ones, unknown key names), as deckd reports them when it loads \
            the profile; a broken manifest of a plugin the files use is a problem too.
            """,
        arguments: [files],
        options: [pluginFolders],
        examples: [Example("deckctl check ~/.config/deckd/layouts/*.yaml", "check every profile before deckd reads it"),
                   Example("deckctl check --plugins plugins layouts/*.yaml", "check against the plugins of a source tree")],
        notes: [("exit status", "0   every file is good\n65  some file has a problem\n2   usage: a wrong command line")])

    static let shell = Argument<String>("SHELL", help: "the shell: bash", completion: .words(["bash"]),
                                        validate: { $0 == "bash" ? nil : "must be bash, the one shell deckctl writes completion for" })
    static let completion = CommandSpec(
        "completion", summary: "prints a shell completion script",
        discussion: "Prints a bash completion script for deckctl, made from the same declarations as its help. "
            + "make install puts it where bash-completion finds it.",
        arguments: [shell],
        examples: [Example("source <(deckctl completion bash)", "complete deckctl in this shell")])

    static let root = CommandSpec(
        "deckctl", summary: "controls the deck host (deckd) and checks profile files",
        discussion: "Controls the deck host (deckd) over its control socket, and checks profile files. "
            + "Pages and slots count from 0, as in the profile files.",
        options: [control, json],
        subcommands: [status, show, profiles, use, SetCommand.spec, clear, move, press, face, lock, unlock, reload,
                      snapshots, restore, export, pair, unpair, devices, plugins, restartPlugin, watch, check, completion],
        notes: [("exit status", """
            0   done
            1   the host refused (its error code and message on standard error)
            2   usage: a wrong command line
            3   no host answering on the control socket
            65  check found problems
            """)])

    static let parser = CommandLineParser(root)
}
