// The device's optimistic copy of the layout: a port of DeviceLayout.swift.
// A drop changes it at once with the same move the host runs, and yields the
// request to send; whatever the host answers, its next layout replaces the
// copy (accepted, it is the same; refused, the device comes back to the truth).
import { DeckLayout } from './layout.mjs';
import { DeckGesturesError } from './gestures-error.mjs';

/** The device's copy of the layout. */
export class DeviceLayout {
  /** @param {DeckLayout} layout the host's layout */
  constructor(layout) {
    /** The layout the device draws. @type {DeckLayout} */
    this.layout = layout.copy();
  }

  /**
   * Applies a drop from `source` to `target` ({page, index}) and returns the
   * `moveButton` request's fields {fromPage, fromIndex, toPage, toIndex,
   * button}, or null for a drop on its own slot. On a throw the copy is
   * unchanged and nothing should be sent.
   * @throws {DeckGesturesError} `emptySource` or `moveRefused`
   */
  drop(source, target) {
    if (source.page === target.page && source.index === target.index) return null;
    const button = this.layout.button(source.page, source.index);
    if (button === null) {
      throw new DeckGesturesError('emptySource', `slot ${source.page}/${source.index} holds no button to move; show the host's layout again`);
    }
    const next = this.layout.copy();
    try {
      next.move({ fromPage: source.page, fromIndex: source.index, toPage: target.page, toIndex: target.index, expecting: button });
    } catch (error) {
      throw new DeckGesturesError('moveRefused', `the move cannot be applied: ${error.message}`);
    }
    this.layout = next;
    return { fromPage: source.page, fromIndex: source.index, toPage: target.page, toIndex: target.index, button };
  }

  /** A layout from the host: it replaces the local copy, whatever it says. @param {DeckLayout} hostLayout */
  receive(hostLayout) {
    this.layout = hostLayout.copy();
  }
}
