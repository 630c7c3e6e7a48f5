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
    /// The largest layout, as JSON bytes, the host sends: a profile file whose
    /// layout is larger is refused at load (by deckd and by `deckctl check`
    /// alike), and an edit may not grow the layout past it. Without a bound a
    /// 15 MB profile loaded and its first broadcast filled every client's
    /// 8 MiB output queue, which closed them all. 2 MiB is over twice a
    /// 1,000-page profile (872 KB) and lets a device fall four broadcasts
    /// behind before it is closed.
    public static let maximumLayoutBytes = 2 << 20
}
