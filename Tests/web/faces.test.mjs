// Button faces in the web deck (docs/faces.md, docs/web.md): a button's
// style and palette, a state's overrides, images, flashes and their expiry,
// the faces a welcome carries and a level-7 host's titles. Pure modules only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PALETTE, FLASH_SECONDS, contrast, cssColour, faceOf, flashAt, readFace } from '../../Apps/web/js/faces.mjs';
import { LayoutStore } from '../../Apps/web/js/layout-store.mjs';
import { DeviceLayout } from '../../Apps/web/engine/device-layout.mjs';
import { DeckLayout, buttonFromJSON, sameButton } from '../../Apps/web/engine/layout.mjs';

const TILE = '#232833'; // app.css --tile
const hash = 'ab'.repeat(32);
const image = { hash, type: 'image/png', url: `/faces/${hash}.png` };

const mic = {
  name: 'Mic', icon: '🎙', style: { color: 'white', background: '#1f6f3f' },
  action: { plugin: 'sound', command: 'mute' },
  states: [{ id: 'live' }, { id: 'muted', name: 'Mic off', icon: '🔇', style: { background: 'red' } }],
};

const store = () => new LayoutStore((json) => new DeviceLayout(DeckLayout.fromJSON(json)), (json) => DeckLayout.fromJSON(json));
const layout = { slotsPerPage: 4, pages: [{ buttons: [mic, { name: 'Plain', action: { run: 'true' } }, null, null] }] };

test('every palette colour reads: text on the tile, white or near-black text on it as a background', () => {
  for (const [name, { back, text }] of Object.entries(PALETTE)) {
    const best = Math.max(contrast(back, '#ffffff'), contrast(back, '#111111'));
    assert.ok(best >= 4.5, `${name} as a background: ${best.toFixed(2)}:1`);
    if (name !== 'black') assert.ok(contrast(text, TILE) >= 4.5, `${name} as text on the tile: ${contrast(text, TILE).toFixed(2)}:1`);
  }
});

test('style colours: palette names (gray is grey), hex in lower case, anything else is none', () => {
  assert.equal(cssColour('red', 'back'), PALETTE.red.back);
  assert.equal(cssColour('red', 'text'), PALETTE.red.text);
  assert.equal(cssColour('gray', 'back'), PALETTE.grey.back);
  assert.equal(cssColour('#ABC', 'back'), '#abc');
  assert.equal(cssColour('#1F6F3F', 'text'), '#1f6f3f');
  for (const bad of ['rde', '#12', '#12345g', 'url(x)', 'red; x', 7, null, undefined, {}]) assert.equal(cssColour(bad, 'back'), null, String(bad));
});

test('a background without a text colour gets the text that reads on it', () => {
  assert.equal(faceOf({ name: 'Y', action: {}, style: { background: 'yellow' } }, null).color, '#111111');
  assert.equal(faceOf({ name: 'B', action: {}, style: { background: 'blue' } }, null).color, '#ffffff');
  assert.equal(faceOf({ name: 'B', action: {}, style: { background: 'blue', color: 'yellow' } }, null).color, PALETTE.yellow.text);
  assert.deepEqual([faceOf({ name: 'N', action: {} }, null).color, faceOf({ name: 'N', action: {} }, null).background], [null, null]);
});

test('a state replaces name, icon and style field by field; state 0 and unknown ids show the button', () => {
  const zero = faceOf(mic, null);
  assert.deepEqual([zero.label, zero.iconText, zero.color, zero.background, zero.state], ['Mic', '🎙', PALETTE.white.text, '#1f6f3f', null]);
  assert.equal(faceOf(mic, { state: 'live' }).state, null, 'the first state is the button itself');
  const muted = faceOf(mic, { state: 'muted' });
  assert.deepEqual([muted.label, muted.iconText, muted.color, muted.background, muted.state], ['Mic off', '🔇', PALETTE.white.text, PALETTE.red.back, 'muted']);
  assert.equal(faceOf(mic, { state: 'muted', title: '-12 dB' }).label, '-12 dB', 'a title wins over the state name');
  assert.equal(faceOf(mic, { state: 'gone' }).label, 'Mic');
  assert.equal(faceOf({ name: 'X', action: {} }, { state: 'muted' }).state, null, 'a button without states');
});

test('a face image replaces the icon; only /faces/HASH.EXT addresses are taken', () => {
  assert.deepEqual(readFace({ page: 0, index: 1, title: null, state: null, image }), { title: null, state: null, image: { hash, url: image.url } });
  for (const url of ['https://evil.example/x.png', `/faces/${hash}.gif`, '/faces/../x.png', `/faces/${hash.toUpperCase()}.png`]) {
    assert.equal(readFace({ page: 0, index: 1, image: { ...image, url } }).image, null, url);
  }
  assert.equal(readFace({ page: '0', index: 1 }), null);
  assert.equal(readFace(null), null);
  assert.equal(faceOf(mic, { image: { hash, url: image.url } }).image.url, image.url);
});

test('a flash shows for about a second from when it came, once', () => {
  const s = store();
  s.receiveHost({ type: 'welcome', protocol: 8, revision: 1, layout, faces: [] });
  assert.equal(s.setFace({ page: 0, index: 0, title: null, state: null, image: null, flash: 'alert' }, 10), true);
  assert.equal(flashAt(s.flash(0, 0), 10), 'alert');
  assert.equal(flashAt(s.flash(0, 0), 10 + FLASH_SECONDS - 0.01), 'alert');
  assert.equal(flashAt(s.flash(0, 0), 10 + FLASH_SECONDS), null);
  assert.equal(s.face(0, 0), null, 'a flash alone leaves the face default');
  s.setFace({ page: 0, index: 0, flash: 'ok' }, 10.5);
  assert.equal(flashAt(s.flash(0, 0), 11.2), 'ok', 'a new flash starts over');
  s.setFace({ page: 0, index: 0, flash: 'boom' }, 20);
  assert.equal(flashAt(s.flash(0, 0), 20), null, 'an unknown flash is not drawn');
  assert.equal(flashAt(null, 0), null);
});

test('a welcome at level 8 carries every non-default face; a later one replaces them', () => {
  const s = store();
  s.receiveHost({ type: 'welcome', protocol: 8, revision: 1, layout,
    faces: [{ page: 0, index: 0, title: 'Live', state: 'muted', image }, { page: 0, index: 1, title: null, state: null, image: null }, 'junk'] });
  assert.deepEqual(s.face(0, 0), { title: 'Live', state: 'muted', image: { hash, url: image.url } });
  assert.equal(s.face(0, 1), null);
  assert.equal(s.title(0, 0), 'Live');
  s.receiveHost({ type: 'layout', protocol: 8, revision: 2, layout, faces: [{ page: 0, index: 1, title: 'T', state: null, image: null }] });
  assert.equal(s.face(0, 0), null, 'a face the host no longer lists went back to default');
  assert.equal(s.title(0, 1), 'T');
  s.receiveHost({ type: 'layout', revision: 3, layout });
  assert.equal(s.face(0, 1), null, 'at level 8 a layout without faces has none that are not default');
  s.setFace({ page: 0, index: 1, title: 'T', state: null, image: null });
  s.setFace({ page: 0, index: 1, title: null, state: null, image: null });
  assert.equal(s.face(0, 1), null, 'a buttonFace back to default clears it');
});

test('a level-7 host: buttonState titles only, kept across its welcome (which carries no faces)', () => {
  const s = store();
  s.receiveHost({ type: 'welcome', protocol: 7, revision: 1, layout });
  s.setTitle(0, 1, '42');
  assert.deepEqual(s.face(0, 1), { title: '42', state: null, image: null });
  assert.equal(faceOf(s.button(0, 1), s.face(0, 1)).label, '42');
  s.receiveHost({ type: 'layout', protocol: 7, revision: 2, layout });
  assert.equal(s.title(0, 1), '42');
  s.setTitle(0, 1, null);
  assert.equal(s.face(0, 1), null);
});

test('the device copy keeps style and states, and the stale check compares them (level-8 equality)', () => {
  const s = store();
  s.receiveHost({ type: 'welcome', protocol: 8, revision: 1, layout, faces: [] });
  assert.deepEqual(s.button(0, 0).style, mic.style);
  assert.deepEqual(s.button(0, 0).states, mic.states);
  assert.ok(sameButton(s.button(0, 0), buttonFromJSON(mic)));
  assert.ok(!sameButton(s.button(0, 0), { ...mic, style: { background: 'blue' } }));
  assert.ok(!sameButton(s.button(0, 0), { ...mic, states: undefined }));
  assert.throws(() => buttonFromJSON({ ...mic, style: 'red' }), /style' must be an object/);
  assert.throws(() => buttonFromJSON({ ...mic, states: {} }), /states' must be a list/);
});
