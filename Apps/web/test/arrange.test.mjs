// The port of the arrange session (GESTURES.md §2, WEB.md §6): what the
// renderer relies on — actions, the scene, deadlines, app events, the traps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeckGrid } from '../engine/grid.mjs';
import { ArrangeSession, DeckGesturesError } from '../engine/arrange-session.mjs';
import { DeckLayout } from '../engine/layout.mjs';
import { random, runSeed } from './support.mjs';

const grid = new DeckGrid({ size: { width: 390, height: 560 }, columns: 3 });
const session = (options = {}) => new ArrangeSession({ grid, pageCount: 3, filled: [{ page: 0, index: 0 }, { page: 0, index: 4 }, { page: 1, index: 4 }], protocolLevel: 7, ...options });
const touch = (phase, x, y, time) => ({ kind: 'touch', touch: { phase, x, y, time } });
const app = (event, time) => ({ kind: 'app', event, time });
const actions = (outputs) => outputs.map(({ time, action }) => [time, action.kind, action.slot ?? action.page ?? action.on ?? action.to ?? null]);
const centre = (index) => { const f = grid.frameOfSlot(index); return [f.x + f.width / 2, f.y + f.height / 2]; };

/** Holds the button in `index` of page 0 and drags it 10 points: it is lifted at 0.55; returns its centre. */
function lift(s, index) {
  const [x, y] = centre(index);
  s.handle(touch('down', x, y, 0));
  s.handle({ kind: 'tick', time: 0.45 });
  s.handle(touch('move', x + 5, y, 0.5));
  assert.equal(actions(s.handle(touch('move', x + 15, y, 0.55)))[0][1], 'lift');
  return [x, y];
}

test('a tap runs the button; in arrange mode it opens its settings', () => {
  const s = session();
  s.handle(touch('down', ...centre(4), 0));
  assert.deepEqual(actions(s.handle(touch('up', ...centre(4), 0.2))), [[0.2, 'run', { page: 0, index: 4 }]]);
  const arranging = session({ arranging: true });
  arranging.handle(touch('down', ...centre(4), 0));
  assert.deepEqual(actions(arranging.handle(touch('up', ...centre(4), 0.005))), [[0.005, 'run', { page: 0, index: 4 }]].map(([t]) => [t, 'settings', { page: 0, index: 4 }]));
});

test('hold 0.45 s then release: the hint, then the settings — decided at the release', () => {
  const s = session();
  s.handle(touch('down', ...centre(4), 0));
  assert.equal(s.deadline, 0.45);
  const held = s.handle({ kind: 'tick', time: 0.45 });
  assert.deepEqual(actions(held), [[0.45, 'hold', { page: 0, index: 4 }]]);
  assert.equal(held[0].action.hint.canMove, true);
  assert.equal(held[0].action.hint.placement.edge, 'above');
  const scene = s.scene;
  assert.deepEqual(scene.held, { page: 0, index: 4 });
  assert.equal(scene.scale({ page: 0, index: 4 }), 1.06);
  assert.ok(scene.hint !== null);
  assert.deepEqual(actions(s.handle(touch('up', ...centre(4), 0.9))), [[0.9, 'settings', { page: 0, index: 4 }]]);
  assert.equal(s.scene.held, null);
});

test('hold and drag 10 points: the tile lifts into arrange mode, follows the finger, and the drop moves it', () => {
  const s = session();
  const [x, y] = centre(4);
  s.handle(touch('down', x, y, 0));
  s.handle({ kind: 'tick', time: 0.45 });
  assert.deepEqual(actions(s.handle(touch('move', x + 5, y, 0.5))), [], 'the drag part starts here');
  assert.deepEqual(actions(s.handle(touch('move', x + 14.9, y, 0.55))), [], '9.9 points from the drag part’s start');
  const lift = s.handle(touch('move', x + 15, y, 0.6));
  assert.deepEqual(actions(lift), [[0.6, 'lift', { page: 0, index: 4 }], [0.6, 'arrange', true], [0.6, 'target', { page: 0, index: 4 }]]);
  const scene = s.scene;
  assert.equal(scene.arranging, true);
  assert.equal(scene.hint, null, 'the hint disappears when the drag starts');
  assert.deepEqual(scene.lifted.center, { x: x + 15, y }, 'it keeps its offset from the finger');
  assert.equal(scene.lifted.scale, 1.1);
  assert.equal(scene.wiggles({ page: 0, index: 0 }), true);
  assert.equal(scene.wiggles({ page: 0, index: 4 }), false, 'the lifted one does not wiggle');
  assert.equal(scene.wiggles({ page: 0, index: 1 }), false, 'empty slots do not wiggle');
  const [tx, ty] = centre(8);
  assert.deepEqual(actions(s.handle(touch('move', tx, ty, 0.7))), [[0.7, 'target', { page: 0, index: 8 }]]);
  assert.deepEqual(actions(s.handle(touch('up', tx, ty, 0.8))), [[0.8, 'move', { page: 0, index: 8 }]]);
  assert.ok(s.filled.has('0/8') && !s.filled.has('0/4'));
  assert.equal(s.arranging, true, 'arrange mode stays after a drop');
});

test('dwelling at the right edge flips the page after 0.5 s, then every 0.7 s', () => {
  const s = session();
  lift(s, 0);
  s.handle(touch('move', 380, 300, 0.6));
  assert.equal(s.deadline, 1.1);
  assert.deepEqual(actions(s.handle({ kind: 'tick', time: 2 })), [[1.1, 'page', 1], [1.1, 'target', { page: 1, index: 8 }], [1.8, 'page', 2], [1.8, 'target', { page: 2, index: 8 }]]);
  assert.equal(s.deadline, null, 'no page after the last');
  assert.equal(s.scene.stripOffset, -2 * 422);
});

test('Done, the lock, a lost connection and the background end arrange mode; a lifted tile goes back and that touch lifts nothing again', () => {
  for (const event of ['done', 'hostLocked', 'disconnected', 'background']) {
    const s = session();
    const [x, y] = lift(s, 4);
    assert.deepEqual(actions(s.handle(app(event, 0.6))), [[0.6, 'back', { page: 0, index: 4 }], [0.6, 'arrange', false]], event);
    assert.deepEqual(actions(s.handle(touch('move', x + 60, y, 0.7))), [], `${event}: no lift again`);
    assert.deepEqual(actions(s.handle(touch('up', x + 60, y, 0.8))), [], `${event}: no settings, no move`);
    assert.equal(s.scene.lifted, null);
  }
});

test('below protocol level 7 a hold offers settings only', () => {
  const s = session({ protocolLevel: 6 });
  const [x, y] = centre(4);
  s.handle(touch('down', x, y, 0));
  const [hold] = s.handle({ kind: 'tick', time: 0.45 });
  assert.equal(hold.action.hint.canMove, false);
  assert.equal(hold.action.hint.text, 'release: settings');
  assert.deepEqual(actions(s.handle(touch('move', x + 40, y, 0.6))), []);
  assert.deepEqual(actions(s.handle(touch('up', x + 40, y, 0.7))), [[0.7, 'settings', { page: 0, index: 4 }]]);
});

test('empty slots, gaps and outside take no hold: a touch there only swipes pages', () => {
  const s = session();
  const [x, y] = centre(1);
  s.handle(touch('down', x, y, 0));
  assert.equal(s.deadline, null);
  s.handle(touch('move', x - 60, y, 0.05));
  assert.equal(s.scene.stripFollowsFinger, true);
  assert.equal(s.scene.stripOffset, -60);
  assert.deepEqual(actions(s.handle(touch('up', x - 100, y, 0.1))), [[0.1, 'page', 1]]);
  assert.equal(s.scene.stripFollowsFinger, false);
  assert.equal(s.scene.stripOffset, -422);
});

test("the release guard: 0.05 s after 'released' without a lift, the touch ends as cancelled", () => {
  const s = session();
  const [x, y] = lift(s, 4);
  assert.deepEqual(actions(s.handle(app('released', 0.6))), []);
  assert.equal(s.deadline, 0.65);
  assert.deepEqual(actions(s.handle({ kind: 'tick', time: 0.7 })), [[0.65, 'back', { page: 0, index: 4 }]]);
  assert.equal(s.arranging, true, 'arrange mode stays');
  assert.deepEqual(actions(s.handle(touch('up', x, y, 0.8))), [], 'the late lift is noise');
  // A lift in time wins and disarms the guard.
  const t = session();
  t.handle(touch('down', x, y, 0));
  t.handle(app('released', 0.1));
  assert.deepEqual(actions(t.handle(touch('up', x, y, 0.12))), [[0.12, 'run', { page: 0, index: 4 }]]);
  assert.equal(t.deadline, null);
});

test('show(layout) takes the host layout; the page stays when it still exists', () => {
  const s = session({ page: 2 });
  const layout = new DeckLayout({ slotsPerPage: 12, pages: [{ buttons: [{ name: 'a', action: { run: 'x' } }] }] });
  s.show(layout);
  assert.equal(s.pageCount, 2);
  assert.equal(s.page, 1, 'page 2 is gone: the last page shows');
  assert.deepEqual([...s.scene.filled], ['0/0']);
  const fromLayout = new ArrangeSession({ grid, layout, protocolLevel: 7, page: 5 });
  assert.equal(fromLayout.page, 1);
});

test('numbers that do not fit together are refused', () => {
  const refuse = (options, message) => assert.throws(() => new ArrangeSession({ grid, protocolLevel: 7, ...options }), (e) => e instanceof DeckGesturesError && e.message === message);
  refuse({ pageCount: 0, filled: [] }, 'a deck has at least one page, not 0');
  refuse({ pageCount: 2, page: 2, filled: [] }, 'page 2 does not exist (the deck has pages 0 to 1)');
  refuse({ pageCount: 2, filled: [{ page: 2, index: 0 }] }, 'filled slot 2/0 is outside 2 pages of 12 slots');
  refuse({ layout: { slotsPerPage: 6, pages: [{ buttons: [] }] } }, 'the layout has 6 slots per page but the grid 12');
});

test('under random input nothing is lost or doubled, every lift ends in one move or back, nothing runs from a touch begun while arranging', () => {
  const seed = runSeed();
  const rng = random(seed);
  const seen = {};
  for (let round = 0; round < 400; round += 1) {
    const filled = Array.from({ length: rng.int(0, 10) }, () => ({ page: rng.int(0, 1), index: rng.int(0, 11) }));
    const s = new ArrangeSession({ grid, pageCount: 3, filled, arranging: rng.chance(0.5), protocolLevel: rng.int(5, 8) });
    let time = 0;
    let fingers = 0;
    let lifted = null;
    let arrangingAtDown = s.arranging;
    let last = -Infinity;
    let finger = { x: 60, y: 60 };
    for (let step = 0; step < 120; step += 1) {
      time += rng.pick([0, 0.005, 0.03, 0.1, 0.3, 0.6]);
      finger = rng.chance(1 / 6) ? { x: rng.next() * 450 - 30, y: rng.next() * 620 - 30 } : { x: finger.x + rng.next() * 24 - 12, y: finger.y + rng.next() * 24 - 12 };
      const roll = rng.int(0, 39);
      let event;
      if (roll < 4) {
        // A touch begins when the session has none open, which is also the case once the
        // release guard has run out (it cancels the touch the count below still holds).
        const guardRunsOut = s.releaseDeadline !== null && time >= s.releaseDeadline - 1e-9;
        if (fingers === 0 || s.touch === null || guardRunsOut) arrangingAtDown = s.arranging;
        fingers += 1;
        event = touch('down', finger.x, finger.y, time);
      } else if (roll < 30) event = touch('move', finger.x, finger.y, time);
      else if (roll < 35) { fingers = Math.max(0, fingers - 1); event = touch('up', finger.x, finger.y, time); }
      else if (roll === 35) { fingers = 0; event = touch('cancel', 0, 0, time); }
      else if (roll < 39) event = { kind: 'tick', time };
      else event = app(rng.pick(['done', 'hostLocked', 'disconnected', 'background', 'released']), time);
      if (event.event === 'background') fingers = 0;
      const before = s.filled.size;
      for (const { time: at, action } of s.handle(event)) {
        seen[action.kind] = (seen[action.kind] ?? 0) + 1;
        assert.ok(at >= last && at <= time + 1e-9, `seed ${seed}: time went back`);
        last = at;
        if (action.kind === 'lift') { assert.equal(lifted, null, `seed ${seed}: a second lift`); lifted = action.slot; }
        if (action.kind === 'move' || action.kind === 'back') { assert.deepEqual(action.kind === 'move' ? action.from : action.slot, lifted, `seed ${seed}: a drop of what was not lifted`); lifted = null; }
        if (action.kind === 'run') assert.ok(!arrangingAtDown, `seed ${seed}: a run from a touch begun in arrange mode`);
      }
      assert.equal(s.filled.size, before, `seed ${seed}: a move lost or doubled a button`);
      assert.ok(s.page >= 0 && s.page < s.pageCount);
      if (s.scene.lifted !== null) assert.ok(lifted !== null);
    }
  }
  for (const kind of ['hold', 'lift', 'target', 'move', 'back', 'settings', 'run', 'arrange', 'page']) assert.ok(seen[kind] > 0, `seed ${seed}: no ${kind} in ${JSON.stringify(seen)}`);
});
