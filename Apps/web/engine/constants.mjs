// Numbers the host, the device and the geometry agree on: Modules/DeckModel/DeckConstants.swift.

/** The model's bounds, as DeckConstants has them. */
export const DeckConstants = Object.freeze({
  /** Slots on one page when a profile does not say otherwise (phone 3 × 4, tablet 4 × 3). */
  defaultSlotsPerPage: 12,
  /** The largest page a layout may declare (a hostile file cannot allocate millions of slots). */
  maximumSlotsPerPage: 256,
  /** The largest number of pages a layout may hold, for the same reason. */
  maximumPages: 10_000,
  /** How deeply a plugin's settings may nest. */
  maximumSettingsDepth: 16,
});
