// The port of DeckLayout's rules and DeviceLayout: the same results and sentences as DeckModel's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeckLayout, DeckModelError, sameButton, isBlankLabel } from '../engine/layout.mjs';
import { DeviceLayout } from '../engine/device-layout.mjs';
import { DeckGesturesError } from '../engine/arrange-session.mjs';

const a = { name: 'Terminal', action: { run: 'x-terminal-emulator' } };
const b = { name: 'Mail', icon: 'mail', action: { open: 'mailto:' } };
const make = () => new DeckLayout({ slotsPerPage: 4, pages: [{ buttons: [a, null, b] }] });
const refused = (kind, message) => (e) => e instanceof DeckModelError && e.kind === kind && e.message === message;

test('a layout is in normal form: pages padded, trailing empty pages trimmed to exactly one', () => {
  const layout = new DeckLayout({ slotsPerPage: 4, pages: [{ buttons: [a] }, { buttons: [] }, { buttons: [b] }, { buttons: [] }, { buttons: [] }] });
  assert.equal(layout.pages.length, 4, 'the empty page between filled ones stays');
  assert.ok(layout.isNormal);
  assert.deepEqual(layout.pages[0].buttons, [a, null, null, null]);
  assert.deepEqual(new DeckLayout().toJSON(), { slotsPerPage: 12, pages: [{ buttons: new Array(12).fill(null) }] });
  assert.throws(() => new DeckLayout({ slotsPerPage: 2, pages: [{ buttons: [a, b, a] }] }), refused('invalidLayout', 'page 0 has 3 slots but pages hold 2'));
  assert.throws(() => new DeckLayout({ slotsPerPage: 0 }), refused('invalidLayout', 'slotsPerPage must be between 1 and 256, not 0'));
});

test('move: into an empty slot, a swap with a filled one, nothing for the same slot; the trailing page is a place', () => {
  const layout = make();
  layout.move({ fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, expecting: a });
  assert.deepEqual(layout.pages[0].buttons, [null, a, b, null]);
  layout.move({ fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2, expecting: a });
  assert.deepEqual(layout.pages[0].buttons, [null, b, a, null]);
  layout.move({ fromPage: 0, fromIndex: 2, toPage: 1, toIndex: 3, expecting: a });
  assert.equal(layout.pages.length, 3, 'a move onto the trailing page adds a page');
  assert.deepEqual(layout.button(1, 3), a);
  layout.move({ fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 1, expecting: b });
  assert.deepEqual(layout.button(0, 1), b);
});

test('the stale check: a move or a guarded clear of a slot that no longer holds the button is refused and changes nothing', () => {
  const layout = make();
  const before = JSON.stringify(layout.toJSON());
  const other = { ...a, icon: 'terminal' };
  assert.ok(!sameButton(a, other), 'a button is its name, icon and action');
  assert.throws(() => layout.move({ fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 3, expecting: other }), refused('stale', "slot 0/0 no longer holds 'Terminal'"));
  assert.throws(() => layout.clear({ page: 0, index: 1, expecting: a }), refused('stale', "slot 0/1 no longer holds 'Terminal'"));
  assert.equal(JSON.stringify(layout.toJSON()), before);
});

test('slots outside the layout are refused with DeckModel’s sentences', () => {
  const layout = make();
  assert.throws(() => layout.move({ fromPage: 2, fromIndex: 0, toPage: 0, toIndex: 0, expecting: a }), refused('outOfRange', 'page 2 does not exist (the layout has pages 0 to 1)'));
  assert.throws(() => layout.move({ fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 4, expecting: a }), refused('outOfRange', 'slot 4 does not exist (a page has slots 0 to 3)'));
  assert.throws(() => layout.set({ page: -1, index: 0, button: a }), refused('outOfRange', 'page -1 does not exist (the layout has pages 0 to 1)'));
});

test('set checks the button as the host does; clear empties and renormalizes', () => {
  const layout = make();
  assert.throws(() => layout.set({ page: 0, index: 1, button: { name: '\u200b ', action: { run: 'x' } } }), refused('invalidButton', 'a button needs a non-empty name'));
  assert.throws(() => layout.set({ page: 0, index: 1, button: { name: 'x', action: { run: 'x', timeout: 0 } } }), refused('invalidButton', "button 'x': run timeout must be a positive number of seconds"));
  assert.throws(() => layout.set({ page: 0, index: 1, button: { name: 'x', action: { run: 'x', open: 'y' } } }), refused('invalidButton', 'an action needs exactly one of run, open, page, profile, plugin (found run and open)'));
  layout.set({ page: 1, index: 0, button: b });
  assert.equal(layout.pages.length, 3);
  layout.clear({ page: 1, index: 0 });
  assert.equal(layout.pages.length, 2);
  layout.clear({ page: 1, index: 0 });
  assert.ok(isBlankLabel('\u2003\u200b') && !isBlankLabel('x'));
});

test('the host layout JSON: read with its rules, written in PROTOCOL.md’s key order', () => {
  const layout = DeckLayout.fromJSON({ slotsPerPage: 2, pages: [{ title: 'Work', buttons: [{ action: { run: 'x', open: null, cwd: null }, icon: null, name: 'x' }, null] }] });
  assert.equal(JSON.stringify(layout.toJSON()), '{"slotsPerPage":2,"pages":[{"title":"Work","buttons":[{"name":"x","action":{"run":"x"}},null]},{"buttons":[null,null]}]}');
  assert.throws(() => DeckLayout.fromJSON({ slotsPerPage: 2, pages: [{ buttons: [null] }] }), (e) => e.kind === 'malformed');
  assert.throws(() => DeckLayout.fromJSON({ pages: [{ buttons: [{ name: 3, action: { run: 'x' } }] }] }), (e) => e.kind === 'malformed');
  assert.throws(() => DeckLayout.fromJSON({ pages: 'x' }), (e) => e.kind === 'malformed');
});

test('the device copy: a drop applies the move at once and gives the moveButton request; a refusal changes nothing; the host’s layout replaces it', () => {
  const device = new DeviceLayout(make());
  assert.equal(device.drop({ page: 0, index: 0 }, { page: 0, index: 0 }), null);
  assert.deepEqual(device.drop({ page: 0, index: 0 }, { page: 1, index: 2 }), { fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 2, button: a });
  assert.deepEqual(device.layout.button(1, 2), a);
  const before = JSON.stringify(device.layout.toJSON());
  assert.throws(() => device.drop({ page: 0, index: 0 }, { page: 0, index: 1 }), (e) => e instanceof DeckGesturesError && e.message === "slot 0/0 holds no button to move; show the host's layout again");
  assert.throws(() => device.drop({ page: 0, index: 2 }, { page: 9, index: 1 }), (e) => e instanceof DeckGesturesError && e.message === 'the move cannot be applied: page 9 does not exist (the layout has pages 0 to 2)');
  assert.equal(JSON.stringify(device.layout.toJSON()), before);
  const host = make();
  device.receive(host);
  assert.deepEqual(device.layout.toJSON(), host.toJSON());
  host.clear({ page: 0, index: 0 });
  assert.deepEqual(device.layout.button(0, 0), a, 'the copy is the device’s own');
});
