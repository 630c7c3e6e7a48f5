// The port of DeckGestures' primitives, combinators, tracker and swipe pager
// (GESTURES.md §1): the same semantics as Tests/DeckGesturesTests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TapRecognizer, LongPressRecognizer, DragRecognizer, CoordinateSpace, TapValue } from '../engine/recognizers.mjs';
import { SequenceRecognizer, SimultaneousRecognizer, ExclusiveRecognizer } from '../engine/combinators.mjs';
import { GestureTracker } from '../engine/tracker.mjs';
import { SwipePager, PagerSession, FlipRule } from '../engine/swipe-pager.mjs';

const down = (x, y, time) => ({ phase: 'down', x, y, time });
const move = (x, y, time) => ({ phase: 'move', x, y, time });
const up = (x, y, time) => ({ phase: 'up', x, y, time });

/** Feeds touches (and ticks as {tick: t}); returns [time, kind] pairs. */
function drive(recognizer, events) {
  const tracker = new GestureTracker(recognizer);
  const out = [];
  for (const e of events) out.push(...(e.tick !== undefined ? tracker.advance(e.tick) : tracker.receive(e)));
  return out;
}
const kinds = (updates) => updates.map((u) => [u.time, u.kind]);

test('a long press ends at its duration with the finger still down, and does not report the lift', () => {
  const out = drive(new LongPressRecognizer(), [down(0, 0, 0), { tick: 0.7 }, up(0, 0, 0.9)]);
  assert.deepEqual(kinds(out), [[0, 'changed'], [0.5, 'ended']]);
  assert.equal(out[1].value, true);
});

test('a long press fails when moved exactly its maximum distance, or lifted first', () => {
  assert.deepEqual(kinds(drive(new LongPressRecognizer(), [down(0, 0, 0), move(10, 0, 0.2)])), [[0, 'changed'], [0.2, 'failed']]);
  assert.deepEqual(kinds(drive(new LongPressRecognizer(), [down(0, 0, 0), move(9.9, 0, 0.2), { tick: 1 }])), [[0, 'changed'], [0.5, 'ended']]);
  assert.deepEqual(kinds(drive(new LongPressRecognizer(), [down(0, 0, 0), up(0, 0, 0.3)])), [[0, 'changed'], [0.3, 'failed']]);
  assert.deepEqual(kinds(drive(new LongPressRecognizer({ maximumDistance: 10 }), [down(54.1, 0, 0), move(64.1, 0, 0.2)])), [[0, 'changed'], [0.2, 'failed']],
    '64.1 − 54.1 rounds below 10 but is 10 points');
});

test('a deadline at the instant of a lift fires before it, however the sum rounds', () => {
  const out = drive(new LongPressRecognizer({ minimumDuration: 0.45 }), [down(0, 0, 0.12), up(0, 0, 0.57)]);
  assert.deepEqual(kinds(out), [[0.12, 'changed'], [0.12 + 0.45, 'ended']]);
});

test('a drag starts at its minimum distance from the touch-down, stays active, and ends at the lift', () => {
  const out = drive(new DragRecognizer({ coordinateSpace: CoordinateSpace.global }), [down(0, 0, 0), move(5, 0, 0.1), move(10, 0, 0.2), move(0, 0, 0.3), up(0, 0, 0.4)]);
  assert.deepEqual(kinds(out), [[0.2, 'changed'], [0.3, 'changed'], [0.4, 'ended']]);
  assert.deepEqual(out[0].value.translation, { width: 10, height: 0 });
  assert.deepEqual(drive(new DragRecognizer(), [down(0, 0, 0), move(5, 0, 0.1), up(5, 0, 0.2)]).map((u) => u.kind), ['failed']);
});

test("a drag's velocity looks 0.1 s back, so a lift at the last place keeps a flick's speed", () => {
  const out = drive(new DragRecognizer({ minimumDistance: 0, coordinateSpace: CoordinateSpace.global }),
    [down(0, 0, 0), move(20, 0, 0.05), move(40, 0, 0.1), up(40, 0, 0.11)]);
  const end = out.at(-1);
  assert.equal(end.kind, 'ended');
  // From the oldest sample at most 0.1 s old (20 at 0.05), not from the last one (which would give 0).
  assert.ok(Math.abs(end.value.velocity.width - 20 / 0.06) < 1e-6, `velocity ${end.value.velocity.width}`);
  assert.ok(Math.abs(end.value.predictedEndTranslation.width - (40 + (20 / 0.06) * 0.25)) < 1e-6);
});

test('seed 003: a view whose offset follows its local drag sees a halved, jittering translation; the grid space sees the true one', () => {
  const run = (space) => {
    const tracker = new GestureTracker(new DragRecognizer({ minimumDistance: 0, coordinateSpace: space }));
    let offset = 0;
    const seen = [];
    for (let i = 0; i <= 10; i += 1) {
      const touch = i === 0 ? down(100, 100, 0) : move(100 + i * 10, 100, i * 0.016);
      for (const u of tracker.receive(touch, { x: 50 + offset, y: 50 })) {
        offset = u.value.translation.width;
        seen.push(offset);
      }
    }
    return seen.at(-1);
  };
  assert.equal(run(CoordinateSpace.named({ x: 0, y: 0 })), 100);
  assert.ok(run(CoordinateSpace.local) < 60, 'the feedback loop halves it');
});

test('a tap ends at the lift within 45 points and 0.75 s; further or longer fails at once', () => {
  assert.deepEqual(kinds(drive(new TapRecognizer(), [down(0, 0, 0), up(45, 0, 0.74)])), [[0.74, 'ended']]);
  assert.deepEqual(kinds(drive(new TapRecognizer(), [down(0, 0, 0), up(0, 0, 0.75)])), [[0.75, 'failed']], 'the deadline at the lift fires first');
  assert.deepEqual(kinds(drive(new TapRecognizer(), [down(0, 0, 0), move(45.1, 0, 0.1)])), [[0.1, 'failed']]);
  assert.deepEqual(kinds(drive(new TapRecognizer(), [down(0, 0, 0), { tick: 1 }])), [[0.75, 'failed']]);
  assert.deepEqual(kinds(drive(new TapRecognizer({ count: 2 }), [down(0, 0, 0), up(0, 0, 0.1), down(3, 0, 0.3), up(3, 0, 0.4)])), [[0.4, 'ended']]);
  assert.equal(drive(new TapRecognizer(), [down(0, 0, 0), up(0, 0, 0.1)])[0].value, TapValue);
});

test('the hold decided at release: a long press sequenced before a zero-distance drag learns the real lift', () => {
  const hold = () => new SequenceRecognizer(new LongPressRecognizer({ minimumDuration: 0.45 }), new DragRecognizer({ minimumDistance: 0, coordinateSpace: CoordinateSpace.global }));
  const lifted = drive(hold(), [down(0, 0, 0), up(0, 0, 0.6)]);
  assert.deepEqual(kinds(lifted), [[0, 'changed'], [0.45, 'changed'], [0.6, 'ended']]);
  assert.deepEqual(lifted[1].value, { kind: 'second', first: true, second: null });
  assert.equal(lifted[2].value.second.location.x, 0, 'the lift itself is the drag part: it ends at once from it');
  const dragged = drive(hold(), [down(0, 0, 0), { tick: 0.45 }, move(3, 0, 0.5), move(12, 0, 0.6)]);
  assert.deepEqual(dragged.at(-1).value.second.translation, { width: 9, height: 0 }, 'the drag part starts at the first touch after the hold');
  assert.deepEqual(kinds(drive(hold(), [down(0, 0, 0), move(11, 0, 0.2)])), [[0, 'changed'], [0.2, 'failed']]);
});

test('exclusive: the first has precedence, an end of the second is held back until the first fails', () => {
  const g = () => new ExclusiveRecognizer(new LongPressRecognizer(), new TapRecognizer());
  const tap = drive(g(), [down(0, 0, 0), up(0, 0, 0.2)]);
  assert.deepEqual(tap.map((u) => [u.time, u.kind, u.value?.kind]), [[0, 'changed', 'first'], [0.2, 'ended', 'second']]);
  const press = drive(g(), [down(0, 0, 0), { tick: 0.6 }]);
  assert.deepEqual(press.map((u) => [u.time, u.kind, u.value?.kind]), [[0, 'changed', 'first'], [0.5, 'ended', 'first']]);
});

test('simultaneous: both see every touch; a failed child is null, an ended one keeps its value', () => {
  const g = new SimultaneousRecognizer(new TapRecognizer(), new LongPressRecognizer());
  const out = drive(g, [down(0, 0, 0), up(0, 0, 0.2)]);
  assert.deepEqual(out.map((u) => u.kind), ['changed', 'ended']);
  assert.deepEqual(out[1].value, { first: TapValue, second: null });
});

test('a second finger fails every live gesture; the next touch works again', () => {
  const tracker = new GestureTracker(new DragRecognizer({ minimumDistance: 0 }));
  assert.deepEqual(tracker.receive(down(0, 0, 0)).map((u) => u.kind), ['changed']);
  assert.deepEqual(tracker.receive(down(50, 0, 0.1)).map((u) => u.kind), ['failed']);
  assert.deepEqual(tracker.receive(move(60, 0, 0.2)), []);
  tracker.receive(up(0, 0, 0.3));
  tracker.receive(up(0, 0, 0.4));
  assert.deepEqual(tracker.receive(down(0, 0, 1)).map((u) => u.kind), ['changed']);
});

test('the deck swipe flips when the predicted end is beyond a third; a rubber band past the ends; the feed flips at exactly 22 %', () => {
  const drag = (dx, vx) => ({ translation: { width: dx, height: 0 }, predictedEndTranslation: { width: dx + vx * 0.25, height: 0 } });
  const deck = new SwipePager({ axis: 'horizontal', pageLength: 390, gap: 32, pageCount: 3, rule: FlipRule.deck });
  deck.follow(drag(-30, 0));
  assert.equal(deck.offset, -30);
  assert.deepEqual(deck.release(drag(-130, 0)), { kind: 'settled' }, 'exactly a third stays');
  assert.deepEqual(deck.release(drag(-30, -500)), { kind: 'flipped', page: 1 });
  assert.equal(deck.offset, -422);
  deck.show(0);
  deck.follow(drag(60, 0));
  assert.equal(deck.offset, 20, 'a third of the way before the first page');
  const feed = new SwipePager({ axis: 'vertical', pageLength: 700, gap: 0, pageCount: 5, rule: FlipRule.feed });
  assert.deepEqual(feed.release({ translation: { width: 0, height: -154 }, predictedEndTranslation: { width: 0, height: 0 } }), { kind: 'flipped', page: 1 });
  assert.deepEqual(feed.release({ translation: { width: 0, height: -153.9 }, predictedEndTranslation: { width: 0, height: 0 } }), { kind: 'settled' });
});

test('a pager session follows the finger, then settles on the page it flipped to', () => {
  const session = new PagerSession({ pager: new SwipePager({ axis: 'vertical', pageLength: 700, gap: 0, pageCount: 5, rule: FlipRule.feed }) });
  assert.deepEqual(session.handle(down(0, 500, 0)), []);
  assert.deepEqual(session.handle(move(0, 480, 0.1)), [{ time: 0.1, output: { kind: 'offset', offset: -20 } }]);
  assert.deepEqual(session.handle(up(0, 300, 0.3)).map((u) => u.output), [{ kind: 'offset', offset: -200 }, { kind: 'page', page: 1 }, { kind: 'settle', offset: -700 }].slice(1));
});
