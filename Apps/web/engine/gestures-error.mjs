// DeckGesturesError of ArrangeTypes.swift, in a module of its own: the
// layout copy (device-layout.mjs) throws it too, and the copy is drawn before
// the arrange session's modules have loaded (js/engine-api.mjs).

/** A session that cannot start, or a drop that cannot be applied; `message` is a sentence to act on. */
export class DeckGesturesError extends Error {
  /** @param {'invalidSession'|'emptySource'|'moveRefused'} kind @param {string} message */
  constructor(kind, message) {
    super(message);
    this.name = 'DeckGesturesError';
    this.kind = kind;
  }
}
