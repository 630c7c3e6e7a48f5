// The port of DeckGeometry: the same numbers and traps as Tests/DeckGeometryTests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeckGrid, DeckGeometryError } from '../engine/grid.mjs';
import { DeviceGrid } from '../engine/device-grid.mjs';
import { PageStrip } from '../engine/page-strip.mjs';
import { EdgeDwellPager } from '../engine/edge-dwell.mjs';
import { HoldHintPlacement } from '../engine/hold-hint.mjs';
import { Wiggle } from '../engine/wiggle.mjs';
import { VirtualTime, LengthThreshold } from '../engine/time.mjs';
import { swiftDescription } from '../engine/swift-number.mjs';
import { random, runSeed } from './support.mjs';

const phone = new DeckGrid({ size: { width: 390, height: 560 }, columns: 3 });

test('a phone grid: 3 × 4 cells 14 points apart, gaps and outside belong to no slot', () => {
  assert.equal(phone.rows, 4);
  assert.deepEqual(phone.cellSize, { width: (390 - 28) / 3, height: (560 - 42) / 4 });
  assert.equal(phone.slotAt({ x: 0, y: 0 }), 0);
  assert.equal(phone.slotAt({ x: 389.9, y: 559.9 }), 11);
  assert.equal(phone.slotAt({ x: 121, y: 10 }), null, 'the gap between columns 0 and 1');
  assert.equal(phone.slotAt({ x: 10, y: 130 }), null, 'the gap between rows 0 and 1');
  assert.equal(phone.slotAt({ x: -0.1, y: 10 }), null);
  assert.equal(phone.slotAt({ x: 391, y: 10 }), null);
  assert.equal(phone.slotAt({ x: NaN, y: 10 }), null);
});

test('a cell frame holds exactly the points slotAt maps to it (left and top edges in, right and bottom out)', () => {
  const seed = runSeed();
  const rng = random(seed);
  for (let n = 0; n < 2000; n += 1) {
    const columns = rng.int(1, 6);
    const grid = new DeckGrid({ size: { width: rng.int(100, 900) + 0.3, height: rng.int(300, 900) + 0.7 }, columns, slotsPerPage: rng.int(columns, columns * 4) });
    const point = { x: rng.next() * grid.size.width, y: rng.next() * grid.size.height };
    const slot = grid.slotAt(point);
    for (let s = 0; s < grid.slotsPerPage; s += 1) {
      const f = grid.frameOfSlot(s);
      const inside = point.x >= f.x && point.x < f.x + f.width && point.y >= f.y && point.y < f.y + f.height;
      assert.equal(inside, slot === s, `seed ${seed}: point ${JSON.stringify(point)} slot ${slot} frame ${s}`);
    }
    const f = grid.frameOfSlot(rng.int(0, grid.slotsPerPage - 1));
    assert.equal(grid.slotAt({ x: f.x, y: f.y }), grid.slotAt({ x: f.x + f.width / 2, y: f.y + f.height / 2 }), `seed ${seed}: a top-left corner belongs to its cell`);
  }
});

test('a partly used last row has no slots past the page', () => {
  const grid = new DeckGrid({ size: { width: 400, height: 300 }, columns: 4, slotsPerPage: 10 });
  assert.equal(grid.rows, 3);
  const unused = grid.frameOfSlot(9);
  assert.equal(grid.slotAt({ x: unused.x + unused.width + 20, y: unused.y + 5 }), null);
  assert.equal(grid.frameOfSlot(10), null);
  assert.equal(grid.frameOfSlot(-1), null);
});

test('grids that cannot be drawn are refused with the Swift sentences', () => {
  const refuse = (options, message) => assert.throws(() => new DeckGrid(options), (e) => e instanceof DeckGeometryError && e.message === message);
  refuse({ size: { width: 10, height: 10 }, columns: 3 }, 'a 10.0 × 10.0 grid is too small for 3 columns and 4 rows 14.0 points apart');
  refuse({ size: { width: 300, height: 300 }, columns: 0 }, 'columns must be between 1 and the 12 slots of a page, not 0');
  refuse({ size: { width: 300, height: 300 }, columns: 3, slotsPerPage: 257 }, 'a page holds 1 to 256 slots, not 257');
  refuse({ size: { width: 300, height: 300 }, columns: 3, spacing: -1 }, 'cell spacing must be zero or more points, not -1.0');
});

test('the grid by orientation: 3 columns when taller than wide, else 4', () => {
  assert.equal(DeviceGrid.forSize({ width: 390, height: 700 }).columns, 3);
  assert.equal(DeviceGrid.forSize({ width: 800, height: 500 }).columns, 4);
  assert.equal(DeviceGrid.forSize({ width: 500, height: 500 }).columns, 4);
  assert.equal(DeviceGrid.forSize({ width: 390, height: 700 }, 2).columns, 2, 'never more columns than slots');
});

test('the page strip: page 0 rests at 0 (not -0), pages a page and 32 points apart, a third past the ends', () => {
  const strip = new PageStrip(390);
  assert.ok(Object.is(strip.offsetShowing(0), 0));
  assert.equal(strip.offsetShowing(2), -2 * 422);
  assert.equal(strip.startOfPage(1), 422);
  assert.equal(strip.follow(30, 0, 3), 10, 'pulling before the first page');
  assert.equal(strip.follow(-30, 2, 3), -10, 'pulling after the last page');
  assert.equal(strip.follow(-30, 0, 3), -30);
  assert.deepEqual(PageStrip.mask({ width: 390, height: 560 }), { x: -16, y: -16, width: 422, height: 592 });
});

test('edge dwell: 40 points from the side, the first flip at 0.5 s, then every 0.7 s from the flip, none past the last page', () => {
  const pager = new EdgeDwellPager();
  const at = (x, now, page, pageCount = 3) => pager.update({ x, width: 390, now, page, pageCount });
  assert.deepEqual(at(360, 1, 0), { newPage: null, deadline: 1.5 });
  assert.deepEqual(at(395, 1.2, 0), { newPage: null, deadline: 1.5 }, 'past the edge counts as at it; the wait is not restarted');
  assert.deepEqual(at(360, 1.5, 0), { newPage: 1, deadline: 2.2 });
  assert.deepEqual(at(360, 2.2, 1), { newPage: 2, deadline: null }, 'no further page: no deadline');
  assert.deepEqual(at(200, 2.3, 2), { newPage: null, deadline: null }, 'leaving the zone resets');
  assert.deepEqual(at(20, 2.4, 2), { newPage: null, deadline: 2.9 });
  assert.equal(EdgeDwellPager.edge(40, 390), null, 'exactly 40 points in is outside the zone');
  assert.equal(EdgeDwellPager.edge(39.9, 390), 'left');
});

test('edge dwell: a second flip due at a rounded instant fires at it (0.12 + 0.5 + 0.7)', () => {
  const pager = new EdgeDwellPager();
  pager.update({ x: 380, width: 390, now: 0.12, page: 0, pageCount: 5 });
  assert.equal(pager.update({ x: 380, width: 390, now: 0.62, page: 0, pageCount: 5 }).newPage, 1);
  assert.equal(pager.update({ x: 380, width: 390, now: 1.32, page: 1, pageCount: 5 }).newPage, 2);
});

test('the hold hint: above the button, below it on the top row, pulled inside with its tail on the button', () => {
  const size = { width: 220, height: 36 };
  const top = HoldHintPlacement.place({ slot: 0, grid: phone, bubbleSize: size });
  assert.equal(top.edge, 'below');
  assert.equal(top.frame.x, 0, 'pulled in at the left');
  assert.equal(top.frame.y, phone.frameOfSlot(0).height + 8);
  assert.equal(top.tailTip.x, phone.frameOfSlot(0).width / 2);
  assert.equal(top.tailX, Math.max(top.tailTip.x, 12));
  const right = HoldHintPlacement.place({ slot: 5, grid: phone, bubbleSize: size });
  assert.equal(right.edge, 'above');
  assert.equal(right.frame.x, 390 - 220, 'pulled in at the right');
  assert.equal(right.frame.y, phone.frameOfSlot(5).y - 8 - 36);
  const wide = HoldHintPlacement.place({ slot: 4, grid: phone, bubbleSize: { width: 500, height: 36 } });
  assert.equal(wide.frame.x, -55, 'wider than the grid: centred on it');
  assert.equal(HoldHintPlacement.place({ slot: 12, grid: phone, bubbleSize: size }), null);
});

test('the wiggle: ±1.5° every 0.25 s, a phase of its own for every slot, none with reduce motion', () => {
  const phases = new Set(Array.from({ length: 12 }, (_, s) => Wiggle.phaseOfSlot(s).toFixed(6)));
  assert.equal(phases.size, 12);
  for (let t = 0; t < 1; t += 0.01) {
    assert.ok(Math.abs(Wiggle.angle(t, 3, false)) <= 1.5 + 1e-12);
    assert.equal(Wiggle.angle(t, 3, true), 0);
    assert.ok(Math.abs(Wiggle.angle(t, 3, false) - Wiggle.angle(t + 0.25, 3, false)) < 1e-9, 'one period is 0.25 s');
  }
});

test('float rounding at deadlines and thresholds counts as the instant and the length it means', () => {
  assert.notEqual(0.12 + 0.45, 0.57);
  assert.ok(VirtualTime.isDue(0.12 + 0.45, 0.57), 'a hold begun at 0.12 is due at a lift at 0.57');
  assert.ok(!VirtualTime.isDue(0.5701, 0.57));
  assert.ok(VirtualTime.lasts(0.12, 0.87, 0.75));
  assert.ok(64.1 - 54.1 < 10);
  assert.ok(LengthThreshold.reaches(64.1 - 54.1, 10), 'moved exactly 10 points');
  assert.ok(!LengthThreshold.reaches(9.99, 10));
  assert.ok(!LengthThreshold.exceeds(45.000000000001, 45));
  assert.ok(LengthThreshold.exceeds(45.01, 45));
});

test("numbers in sentences and lines are Swift's digits", () => {
  const cases = [[60, '60.0'], [0.5, '0.5'], [5e-5, '5e-05'], [1e-4, '0.0001'], [1.2345e-5, '1.2345e-05'], [2 ** 53, '9007199254740992.0'],
    [2 ** 53 + 2, '9.007199254740994e+15'], [2e16, '2e+16'], [-1e-9, '-1e-09'], [123456789012345.61, '123456789012345.61'], [-0, '-0.0'], [Infinity, 'inf']];
  for (const [value, text] of cases) assert.equal(swiftDescription(value), text);
});
