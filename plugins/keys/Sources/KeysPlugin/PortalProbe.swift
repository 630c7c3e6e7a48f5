import DeckDBus

/// The check at start: does `org.freedesktop.portal.Desktop` answer on the
/// session bus with RemoteDesktop version 2 or later and a keyboard among
/// its `AvailableDeviceTypes`? Synchronous and bounded (the host waits 5 s
/// for `ready`): a bus that does not answer within 2 s counts as no portal.
public enum PortalProbe {
    /// nil when the portal can be used; else why not, as a sentence.
    public static func problem() -> String? {
        do throws(KeysError) {
            let body: [DBusValue]
            do throws(DBusError) {
                let bus = try DBusConnection(.session)
                defer { bus.close() }
                body = try bus.callAndWait(destination: PortalMachine.destination, path: PortalMachine.objectPath,
                                           interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                           arguments: [.string(PortalMachine.interface)], timeoutMicroseconds: 2_000_000)
            } catch .noOwner(let destination) {
                throw .backEnd("nothing owns \(destination) on the session bus (xdg-desktop-portal is not running)")
            } catch {
                throw .backEnd(error.description)
            }
            let properties = body.first?.dictionary ?? [:]
            func property(_ name: String) throws(KeysError) -> Int64 {
                guard let value = properties[name]?.integer else { throw .backEnd("the portal's RemoteDesktop has no \(name)") }
                return value
            }
            let version = try property("version")
            guard version >= 2 else {
                return "the portal's RemoteDesktop is version \(version); restore tokens need version 2"
            }
            let types = try property("AvailableDeviceTypes")
            guard types & Int64(PortalMachine.keyboard) != 0 else {
                return "the portal's RemoteDesktop offers no keyboard (AvailableDeviceTypes \(types))"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
