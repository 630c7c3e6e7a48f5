import DeckDBus
extension MediaState {
    /// What the plugin asked the bus, kept by cookie until the answer comes.
    package enum Request: Hashable, Sendable {
        /// `ListNames`.
        case listNames
        /// `GetNameOwner(name)`.
        case owner(String)
        /// `GetAll` on a player.
        case properties(String)
        /// A player method the press of the button at `slot` called.
        case call(player: String, member: String, slot: Slot)
    }

    /// The well-known name of the bus itself: only it may send `NameOwnerChanged`.
    package static let busName = "org.freedesktop.DBus"
    /// Where MPRIS players keep their objects.
    package static let objectPath = "/org/mpris/MediaPlayer2"

    /// Turns a message from the bus into an input, given what its cookie
    /// asked (nil for signals); a failed call gives a log line, and the alert of the button that made it.
    /// Anything malformed or unasked is dropped: nil, nil.
    package static func input(for message: DBusMessage, request: Request?) -> (input: Input?, log: String?) {
        switch message.kind {
        case .signal:
            if message.member == "NameOwnerChanged", message.interface == busName, message.sender == busName,
               message.body.count == 3, let name = message.body[0].string, let owner = message.body[2].string {
                return (.owner(name: name, owner: owner), nil)
            }
            if message.member == "PropertiesChanged", message.interface == "org.freedesktop.DBus.Properties",
               message.path == objectPath, message.body.count == 3, let interface = message.body[0].string,
               let changed = message.body[1].dictionary {
                return (.propertiesChanged(sender: message.sender, interface: interface, changed: changed,
                                           invalidated: message.body[2].strings ?? []), nil)
            }
            return (nil, nil)
        case .reply:
            switch request {
            case .listNames?:
                return (message.body.first?.strings.map { .names($0) }, nil)
            case .owner(let name)?:
                return (message.body.first?.string.map { .owner(name: name, owner: $0) }, nil)
            case .properties(let name)?:
                return (message.body.first?.dictionary.map { .allProperties(name: name, values: $0) }, nil)
            case .call?, nil:
                return (nil, nil)
            }
        case .error(_, let name, let text):
            let why = text.isEmpty ? name : "\(name): \(text.prefix(200))"
            switch request {
            case .listNames?: return (nil, "listing the bus's names failed (\(why))")
            case .owner?: return (nil, nil)  // the player left before we asked: NameOwnerChanged says so too
            case .properties(let player)?: return (nil, "reading \(player)'s properties failed (\(why))")
            // The press it answers flashes its alert: the player did not do it (a timeout may mean it still will).
            case .call(let player, let member, let slot)?: return (.callFailed(slot), "\(member) on \(player) failed (\(why))")
            case nil: return (nil, nil)
            }
        }
    }
}
