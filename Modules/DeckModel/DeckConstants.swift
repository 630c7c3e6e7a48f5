/// Numbers that the host, the device and the geometry must agree on.
public enum DeckConstants {
    /// Slots on one page when a profile does not say otherwise (phone 3 × 4, tablet 4 × 3).
    public static let defaultSlotsPerPage = 12
    /// The largest page a layout may declare. A bound, so that a hostile or
    /// mistyped file cannot make every page allocate millions of slots.
    public static let maximumSlotsPerPage = 256
    /// The largest number of pages a layout may hold, for the same reason.
    public static let maximumPages = 10_000
    /// How deeply a plugin's settings may nest (a mapping inside a list is two
    /// levels). A bound well under the protocol's line nesting limit, so every
    /// layout the host accepts can also be sent to every device.
    public static let maximumSettingsDepth = 16
}
