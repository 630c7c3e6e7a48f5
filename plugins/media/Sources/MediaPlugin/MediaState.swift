import DeckModel
import DeckPluginKit
import DeckDBus

/// The media plugin as a state machine: what the bus and the host said in,
/// what to call and show out. No I/O, no clock: ``MediaRunner`` performs the
/// actions, and tests drive it directly.
///
/// Players are the bus names under `org.mpris.MediaPlayer2.`; each is known
/// by its owner (the unique name its signals come from). "Most recently
/// active" (for `player: any`) is a counter bumped when a player appears and
/// when it starts playing; a playing player always wins over one that is not.
package struct MediaState {
    /// A button's place on the live layout.
    package struct Slot: Hashable, Sendable, Comparable {
        /// 0-based page.
        package var page: Int
        /// 0-based slot.
        package var index: Int

        /// Makes a slot.
        package init(page: Int, index: Int) {
            self.page = page
            self.index = index
        }

        /// Page, then index.
        package static func < (lhs: Slot, rhs: Slot) -> Bool { (lhs.page, lhs.index) < (rhs.page, rhs.index) }
    }

    /// What one button shows: a state id (nil: the button as written), a title
    /// (nil: its name) and the art's URL (nil: no image).
    package struct Face: Hashable, Sendable {
        /// A state id of docs/plugins.md's list, or nil.
        package var state: String?
        /// The track's title, or nil.
        package var title: String?
        /// `mpris:artUrl`, or nil.
        package var art: String?

        /// Makes a face.
        package init(state: String?, title: String? = nil, art: String? = nil) {
            self.state = state
            self.title = title
            self.art = art
        }
    }

    /// Something the bus or the host said.
    package enum Input: Hashable, Sendable {
        /// The session bus is connected (again).
        case connected
        /// The session bus connection is gone or could not be made.
        case disconnected(reason: String)
        /// `ListNames`' answer.
        case names([String])
        /// A name's owner: `GetNameOwner`'s answer or `NameOwnerChanged` (`owner` empty: gone).
        case owner(name: String, owner: String)
        /// `GetAll` of `org.mpris.MediaPlayer2.Player` for a player's name.
        case allProperties(name: String, values: [String: DBusValue])
        /// `PropertiesChanged` from `sender` (a unique name).
        case propertiesChanged(sender: String, interface: String, changed: [String: DBusValue], invalidated: [String])
        /// The host's `buttons`.
        case buttons([PluginButton])
        /// The host's `press`.
        case press(PluginPress)
        /// The player answered the method a press of the button at the slot called with an error.
        case callFailed(Slot)
    }

    /// Something to do.
    package enum Action: Hashable, Sendable {
        /// Call `ListNames` on the bus.
        case listNames
        /// Call `GetNameOwner(name)`.
        case askOwner(String)
        /// Call `GetAll("org.mpris.MediaPlayer2.Player")` on the player.
        case askProperties(String)
        /// Call a method of `org.mpris.MediaPlayer2.Player` on the player, for the press of the button at `slot`.
        case call(player: String, member: String, arguments: [DBusValue], slot: Slot)
        /// Show `face` on the button at `slot`; `previous` is what it showed (nil: unknown, send everything).
        case show(Slot, face: Face, previous: Face?)
        /// A one-shot red flash on the button (a press that could not be done).
        case alert(Slot)
        /// A line for the host's log.
        case log(PluginLogLevel, String)
    }

    /// The state ids a media button shows.
    package enum StateID {
        /// The player plays.
        package static let playing = "playing"
        /// The player is paused.
        package static let paused = "paused"
        /// The player is stopped (or says nothing of its status).
        package static let stopped = "stopped"
        /// No player to follow, or no session bus.
        package static let noPlayer = "no-player"
        /// Every id, in the order a profile may declare them.
        package static let all = [playing, paused, stopped, noPlayer]
    }

    /// The prefix of every MPRIS player's bus name.
    package static let prefix = "org.mpris.MediaPlayer2."
    /// Players kept at once; more are logged and ignored (a bus flooding names).
    package static let maximumPlayers = 64
    /// The title a button with bad settings shows.
    package static let badSettingsTitle = "⚠ settings"

    struct Player {
        var owner: String
        var status: PlaybackStatus?
        var track = Track()
        var activity: UInt64
        var reported: Set<String> = []
    }

    struct Button {
        var slot: Slot
        var name: String
        var command: Result<MediaCommand, MediaError>
    }

    var connected = false
    /// True once the bus's names were listed on a connection: the players
    /// there are known as soon as the questions about them are answered.
    package private(set) var listedNames = false
    var players: [String: Player] = [:]
    var buttons: [Button] = []
    var shown: [Slot: Face] = [:]
    var clock: UInt64 = 0
    var refusedPlayers = false

    /// A machine before the bus connects: every button shows `no-player`.
    package init() {}

    /// Takes one input; returns what to do, in order.
    package mutating func handle(_ input: Input) -> [Action] {
        var actions: [Action] = []
        switch input {
        case .connected:
            connected = true
            actions.append(.listNames)
        case .disconnected(let reason):
            if connected || players.isEmpty == false {
                actions.append(.log(.warning, "the session bus is gone (\(reason)); buttons show no-player until it is back"))
            }
            connected = false
            players = [:]
        case .names(let names):
            listedNames = true
            for name in names where name.hasPrefix(Self.prefix) && players[name] == nil {
                actions.append(.askOwner(name))
            }
        case .owner(let name, let owner):
            actions += ownerChanged(name: name, owner: owner)
        case .allProperties(let name, let values):
            if players[name] != nil { actions += apply(values, to: name) }
        case .propertiesChanged(let sender, let interface, let changed, let invalidated):
            guard interface == "org.mpris.MediaPlayer2.Player" else { break }
            for name in players.keys.sorted() where players[name]?.owner == sender {
                actions += apply(changed, to: name)
                if invalidated.contains("PlaybackStatus") || invalidated.contains("Metadata") {
                    actions.append(.askProperties(name))
                }
            }
        case .buttons(let list):
            actions += take(list)
        case .press(let press):
            actions += pressed(press)
        case .callFailed(let slot):
            actions.append(.alert(slot))
        }
        actions += refresh()
        return actions
    }

    /// The player a button follows now, by bus name; nil when there is none.
    package func player(for choice: MediaCommand.Player) -> String? {
        let candidates = players.filter { name, _ in
            switch choice {
            case .any: true
            case .named(let wanted): name == Self.prefix + wanted || name.hasPrefix(Self.prefix + wanted + ".")
            }
        }
        return candidates.max { left, right in
            let leftPlaying = left.value.status == .playing, rightPlaying = right.value.status == .playing
            if leftPlaying != rightPlaying { return rightPlaying }
            return (left.value.activity, left.key) < (right.value.activity, right.key)
        }?.key
    }
}
